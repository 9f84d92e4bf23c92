import clsx from 'clsx';
import { dateParts, formatLongDate } from './format.ts';

/** The 14 bookable dates as buttons (weekday, month, day). */
export function DateStep({
  dates,
  selected,
  onSelect,
}: {
  dates: string[];
  selected: string | null;
  onSelect: (date: string) => void;
}) {
  return (
    <div>
      <h3 className="mb-3 text-sm font-medium text-slate-300">Select a date</h3>
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5" aria-label="Available dates">
        {dates.map((date) => {
          const p = dateParts(date);
          const isSelected = date === selected;
          return (
            <li key={date}>
              <button
                type="button"
                data-date={date}
                aria-pressed={isSelected}
                onClick={() => onSelect(date)}
                className={clsx(
                  'flex w-full flex-col items-center rounded-xl border px-2 py-3 transition',
                  isSelected
                    ? 'border-brand bg-cyan-400/15 text-white'
                    : 'border-navy-600 bg-navy-800 text-slate-200 hover:border-brand/70 hover:bg-navy-700',
                )}
              >
                {/* Screen readers get the whole date; the short visual parts are hidden from them. */}
                <span className="sr-only">{formatLongDate(date)}</span>
                <span aria-hidden="true" className="text-xs uppercase tracking-wide text-slate-400">
                  {p.weekday}
                </span>
                <span aria-hidden="true" className="text-xl font-semibold">
                  {p.day}
                </span>
                <span aria-hidden="true" className="text-xs text-slate-400">
                  {p.month}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
