import { BarChart3, Clock, Phone, Workflow } from 'lucide-react';
import { useId } from 'react';
import * as ui from '../shared/ui.ts';
import { type CallState, formatSeconds, statsStatus } from './call-state.ts';
import { type CallScenario, scenarioSeconds } from './scenarios.ts';

/** Call Statistics: the scripted duration, step, progress and status. */
export function CallStats({ scenario, call }: { scenario: CallScenario; call: CallState }) {
  const id = useId();
  const stats = [
    { label: 'Duration', value: formatSeconds(scenarioSeconds(scenario)), icon: Clock },
    { label: 'Steps', value: `${call.stepIndex + 1}/${scenario.callSteps.length}`, icon: Workflow },
    { label: 'Progress', value: `${call.progress}%`, icon: BarChart3 },
    { label: 'Status', value: statsStatus(call), icon: Phone },
  ];
  return (
    <section aria-labelledby={`${id}-stats`} className={ui.card}>
      <h2 id={`${id}-stats`} className="font-semibold text-white">
        Call Statistics
      </h2>
      <dl className="mt-4 grid grid-cols-2 gap-3" data-testid="call-stats">
        {stats.map((s) => (
          <div key={s.label} className="rounded-xl border border-navy-700 bg-navy-800/60 p-3">
            <dt className="flex items-center gap-1.5 text-xs text-slate-300">
              <s.icon className="h-3.5 w-3.5" aria-hidden="true" />
              {s.label}
            </dt>
            <dd className="mt-1 text-lg font-semibold text-white tabular-nums">{s.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
