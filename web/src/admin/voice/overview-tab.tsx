import { Activity, AudioLines, Info, PhoneCall, PhoneOutgoing } from 'lucide-react';
import type { ReactNode } from 'react';
import { cardClass, ErrorState, LoadingState, StatCard } from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { engineLabel, useVoiceOverview } from './api.ts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
      <dt className="text-sm text-slate-400">{label}</dt>
      <dd className="text-sm font-medium text-white">{children}</dd>
    </div>
  );
}

/**
 * Overview (spec §2): the original showed fixed text; this shows what is really configured
 * (speech engine and model, call provider) and live figures, refreshed while calls run.
 */
export function OverviewTab() {
  const overview = useVoiceOverview();
  if (overview.isPending) return <LoadingState label="Loading voice overview..." />;
  if (!overview.data) {
    return (
      <ErrorState
        title="Failed to load the voice overview"
        message={messageOr(overview.error, '')}
        onRetry={() => void overview.refetch()}
      />
    );
  }
  const o = overview.data;
  const provider = o.simulatedCalls
    ? 'Local simulator'
    : o.callProvider === 'twilio'
      ? 'Twilio'
      : o.callProvider;
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Active Calls" value={o.activeCalls} icon={PhoneCall} />
        <StatCard label="Calls Today" value={o.callsToday} icon={PhoneOutgoing} hint="Last 24 hours" />
        <StatCard
          label="Syntheses"
          value={o.synthesesSinceStart}
          icon={AudioLines}
          hint="Since the voice service started"
        />
        <StatCard label="System Status" value={overview.isError ? 'Unreachable' : 'Online'} icon={Activity} />
      </div>
      <div className={`${cardClass} p-4 sm:p-5`}>
        <h2 className="text-lg font-semibold text-white">Configuration</h2>
        <dl className="mt-2 divide-y divide-navy-700" aria-label="Voice configuration">
          <Fact label="Speech engine">{engineLabel(o.speechEngine)}</Fact>
          <Fact label="Speech model">{o.speechModel}</Fact>
          <Fact label="Call provider">{provider}</Fact>
        </dl>
        {o.speechEngine === 'local' || o.simulatedCalls ? (
          <p className="mt-3 flex items-start gap-2 text-sm text-slate-400">
            <Info className="mt-0.5 h-4 w-4 shrink-0 text-brand" aria-hidden="true" />
            <span>
              {o.speechEngine === 'local'
                ? 'ElevenLabs is not configured, so speech comes from the local engine. '
                : ''}
              {o.simulatedCalls ? 'Twilio is not configured, so calls are simulated and marked as such.' : ''}
            </span>
          </p>
        ) : null}
      </div>
    </div>
  );
}
