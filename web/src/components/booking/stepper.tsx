import clsx from 'clsx';
import { Check } from 'lucide-react';

export type BookingStep = 'date' | 'time' | 'details';

const STEPS: Array<{ id: BookingStep; label: string }> = [
  { id: 'date', label: 'Date' },
  { id: 'time', label: 'Time' },
  { id: 'details', label: 'Details' },
];

/** Progress of the three booking steps; finished steps can be revisited by clicking them. */
export function Stepper({
  step,
  canVisit,
  onVisit,
}: {
  step: BookingStep;
  canVisit: (s: BookingStep) => boolean;
  onVisit: (s: BookingStep) => void;
}) {
  const current = STEPS.findIndex((s) => s.id === step);
  return (
    <ol aria-label="Booking progress" className="flex items-center gap-2">
      {STEPS.map((s, i) => {
        const done = i < current;
        const active = i === current;
        const clickable = done && canVisit(s.id);
        const badge = (
          <>
            <span
              className={clsx(
                'flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
                active && 'bg-brand text-navy-950',
                done && 'bg-cyan-400/20 text-brand',
                !active && !done && 'bg-navy-700 text-slate-400',
              )}
              aria-hidden="true"
            >
              {done ? <Check className="h-3.5 w-3.5" /> : i + 1}
            </span>
            <span className={clsx('text-sm', active ? 'font-semibold text-white' : 'text-slate-400')}>
              {s.label}
            </span>
          </>
        );
        return (
          <li key={s.id} className="flex items-center gap-2" aria-current={active ? 'step' : undefined}>
            {clickable ? (
              <button
                type="button"
                onClick={() => onVisit(s.id)}
                className="flex items-center gap-2 rounded-md hover:underline"
                aria-label={`${s.label} (completed, go back)`}
              >
                {badge}
              </button>
            ) : (
              <span className="flex items-center gap-2">{badge}</span>
            )}
            {i < STEPS.length - 1 ? (
              <span className="mx-1 h-px w-6 bg-navy-600 sm:w-10" aria-hidden="true" />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
