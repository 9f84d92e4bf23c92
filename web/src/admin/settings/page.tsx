import { Activity, Brain, FlaskConical, Mail, Palette, Settings2, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { type TabDef, Tabs } from '../../components/tabs.tsx';
import { PageHeader } from '../components/ui.tsx';
import { BrandTab } from './brand-tab.tsx';
import { DiagnosticsTab } from './diagnostics-tab.tsx';
import { GeneralTab } from './general-tab.tsx';
import { IntelligenceTab } from './intelligence-tab.tsx';
import { SecurityTab } from './security-tab.tsx';
import { SmtpTab } from './smtp-tab.tsx';
import { TestingTab } from './testing-tab.tsx';

export type SettingsTab =
  | 'smtp'
  | 'brand'
  | 'general'
  | 'security'
  | 'intelligence'
  | 'testing'
  | 'diagnostics';

const icon = 'h-4 w-4';
export const SETTINGS_TABS: TabDef<SettingsTab>[] = [
  { key: 'smtp', label: 'SMTP', icon: <Mail className={icon} aria-hidden="true" /> },
  { key: 'brand', label: 'Brand', icon: <Palette className={icon} aria-hidden="true" /> },
  { key: 'general', label: 'General', icon: <Settings2 className={icon} aria-hidden="true" /> },
  { key: 'security', label: 'Security', icon: <ShieldCheck className={icon} aria-hidden="true" /> },
  { key: 'intelligence', label: 'Intelligence', icon: <Brain className={icon} aria-hidden="true" /> },
  { key: 'testing', label: 'Testing', icon: <FlaskConical className={icon} aria-hidden="true" /> },
  { key: 'diagnostics', label: 'Diagnostics', icon: <Activity className={icon} aria-hidden="true" /> },
];

/**
 * General settings (spec §2 "General settings") at /admin/settings: SMTP, Brand, General,
 * Security, Intelligence, Testing, Diagnostics.
 */
export function GeneralSettings() {
  const [tab, setTab] = useState<SettingsTab>('smtp');
  return (
    <section>
      <title>Settings · Parley Admin</title>
      <PageHeader title="Settings" description="Outgoing mail, brand, security, test mode and diagnostics." />
      <Tabs<SettingsTab> label="Settings" tabs={SETTINGS_TABS} selected={tab} onSelect={setTab}>
        {tab === 'smtp' ? (
          <SmtpTab />
        ) : tab === 'brand' ? (
          <BrandTab />
        ) : tab === 'general' ? (
          <GeneralTab />
        ) : tab === 'security' ? (
          <SecurityTab />
        ) : tab === 'intelligence' ? (
          <IntelligenceTab onOpenBrand={() => setTab('brand')} />
        ) : tab === 'testing' ? (
          <TestingTab />
        ) : (
          <DiagnosticsTab />
        )}
      </Tabs>
    </section>
  );
}

export default function SettingsPage() {
  return <GeneralSettings />;
}
