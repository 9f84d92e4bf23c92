import clsx from 'clsx';
import { Bot, ChevronDown, ChevronUp, User } from 'lucide-react';
import { useId, useState } from 'react';
import * as ui from '../shared/ui.ts';
import { type CallState, speakerName } from './call-state.ts';
import type { CallStep } from './scenarios.ts';

/** Call Transcript: every line of the script, collapsed until asked, the current one marked. */
export function Transcript({ steps, call }: { steps: readonly CallStep[]; call: CallState }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby={`${id}-transcript`} className={clsx(ui.card, 'lg:col-span-3')}>
      <div className="flex items-center justify-between gap-3">
        <h2 id={`${id}-transcript`} className="font-semibold text-white">
          Call Transcript
        </h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-transcript-list`}
          onClick={() => setOpen((s) => !s)}
          className={ui.secondaryButton}
        >
          {open ? (
            <ChevronUp className="h-4 w-4" aria-hidden="true" />
          ) : (
            <ChevronDown className="h-4 w-4" aria-hidden="true" />
          )}
          {open ? 'Hide' : 'Show'}
          <span className="sr-only"> transcript</span>
        </button>
      </div>
      <ol id={`${id}-transcript-list`} hidden={!open} className="mt-4 space-y-2">
        {steps.map((s, i) => {
          const current = i === call.stepIndex && !call.ended;
          return (
            <li
              key={s.id}
              aria-current={current ? 'step' : undefined}
              className={clsx(
                'rounded-xl border p-3 transition',
                current ? 'border-brand bg-brand/10' : 'border-navy-700 bg-navy-800/40',
              )}
            >
              <p className="flex items-center gap-2 text-xs font-semibold text-slate-300">
                {s.speaker === 'ai' ? (
                  <Bot className="h-3.5 w-3.5 text-brand" aria-hidden="true" />
                ) : (
                  <User className="h-3.5 w-3.5 text-fuchsia-300" aria-hidden="true" />
                )}
                {speakerName(s.speaker)} · {s.duration}s
              </p>
              <p className="mt-1 text-sm text-slate-100">{s.text}</p>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
