import { useState } from 'react';
import { type TabDef, Tabs } from '../../components/tabs.tsx';
import { PageHeader } from '../components/ui.tsx';
import { MakeCallsTab } from './calls-tab.tsx';
import { CallHistoryTab } from './history-tab.tsx';
import { OverviewTab } from './overview-tab.tsx';
import { VoiceTestingTab } from './testing-tab.tsx';

type VoiceTab = 'overview' | 'testing' | 'calls' | 'history';

const TABS: TabDef<VoiceTab>[] = [
  { key: 'overview', label: 'Overview' },
  { key: 'testing', label: 'Voice Testing' },
  { key: 'calls', label: 'Make Calls' },
  { key: 'history', label: 'Call History' },
];

/**
 * Voice AI management (spec §2 "Voice AI management"), at /admin/voice-ai and in the
 * console's Voice AI section: Overview, Voice Testing, Make Calls, Call History.
 */
export function VoiceAiManagement() {
  const [tab, setTab] = useState<VoiceTab>('overview');
  return (
    <section>
      <title>Voice AI Management · Parley Admin</title>
      <PageHeader
        title="Voice AI Management"
        description="Test voice synthesis, place AI calls and review call history."
      />
      <Tabs<VoiceTab> label="Voice AI" tabs={TABS} selected={tab} onSelect={setTab}>
        {tab === 'testing' ? (
          <VoiceTestingTab />
        ) : tab === 'calls' ? (
          <MakeCallsTab onShowHistory={() => setTab('history')} />
        ) : tab === 'history' ? (
          <CallHistoryTab />
        ) : (
          <OverviewTab />
        )}
      </Tabs>
    </section>
  );
}

export default function VoiceAiPage() {
  return <VoiceAiManagement />;
}
