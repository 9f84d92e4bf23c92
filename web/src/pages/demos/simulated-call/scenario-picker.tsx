import clsx from 'clsx';
import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import * as ui from '../shared/ui.ts';
import { SCENARIO_ICONS } from './scenario-icons.ts';
import { CALL_SCENARIOS, type CallScenario } from './scenarios.ts';

/** The 'Industry scenario' select: which of the six calls to place. */
export function ScenarioSelect({ value, onChoose }: { value: string; onChoose: (id: string) => void }) {
  const id = useId();
  return (
    <div className="mt-8 max-w-md">
      <label htmlFor={`${id}-scenario`} className={ui.label}>
        Industry scenario
      </label>
      <div className="relative mt-1.5">
        <select
          id={`${id}-scenario`}
          value={value}
          onChange={(e) => onChoose(e.target.value)}
          className="block w-full appearance-none rounded-xl border border-navy-600 bg-navy-800 py-2.5 pr-10 pl-3 text-sm text-slate-100 focus:border-brand"
        >
          <option value="" disabled>
            Select an industry scenario...
          </option>
          {CALL_SCENARIOS.map((s) => (
            <option key={s.id} value={s.id}>
              {s.industry}: {s.title}
            </option>
          ))}
        </select>
        <ChevronDown
          className="pointer-events-none absolute top-1/2 right-3 h-4 w-4 -translate-y-1/2 text-slate-300"
          aria-hidden="true"
        />
      </div>
    </div>
  );
}

/** Before a choice: every scenario as a card that chooses it. */
export function ScenarioChoices({ onChoose }: { onChoose: (id: string) => void }) {
  return (
    <div className={clsx(ui.card, 'mt-6')}>
      <h2 className={ui.cardTitle}>Choose a scenario to place the call</h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {CALL_SCENARIOS.map((s) => {
          const Icon = SCENARIO_ICONS[s.icon];
          return (
            <li key={s.id}>
              <button
                type="button"
                onClick={() => onChoose(s.id)}
                className="flex h-full w-full gap-3 rounded-xl border border-navy-600 bg-navy-800 p-4 text-left transition hover:border-brand"
              >
                <Icon className="mt-0.5 h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
                <span>
                  <span className="block text-xs font-semibold tracking-wide text-cyan-200 uppercase">
                    {s.industry}
                  </span>
                  <span className="block font-medium text-white">{s.title}</span>
                  <span className="mt-1 block text-sm text-slate-300">{s.description}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The chosen scenario: industry, description and the situation of the call. */
export function ScenarioHeader({ scenario }: { scenario: CallScenario }) {
  const Icon = SCENARIO_ICONS[scenario.icon];
  return (
    <div className={clsx(ui.card, 'flex flex-col gap-4 sm:flex-row sm:items-start')}>
      <span className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-brand/15 text-brand">
        <Icon className="h-6 w-6" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-xl font-semibold text-white">{scenario.title}</h2>
          <span className={clsx(ui.badge, 'bg-brand/15 text-cyan-200')}>{scenario.industry}</span>
        </div>
        <p className="mt-1 text-sm text-slate-300">{scenario.description}</p>
        <p className="mt-2 text-sm text-slate-200">
          <span className="font-semibold">Scenario:</span> {scenario.scenario}
        </p>
      </div>
    </div>
  );
}
