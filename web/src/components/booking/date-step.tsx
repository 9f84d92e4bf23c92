import type { AvailableDatesResponse } from '@parley/contracts';
import { slotsOfDate } from '@parley/contracts/schedule';
import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { useSyncExternalStore } from 'react';
import { dateParts, formatLongDate } from './format.ts';

const noSubscription = () => () => {};

/** The picker's dates with their free slots (the booking service's schedule and bookings). */
export const AVAILABLE_DATES_PATH = '/api/bookings/dates';

/**
 * The 14 bookable dates as buttons (weekday, month, day). A date with no free time (a day the
 * schedule never works, a day fully booked, today after its last slot) is shown but not offered,
 * as the booking service says (issue 35); until it has answered, the default schedule's working
 * days are offered. Like the slots, the answer is asked afresh at each visit (never cached).
 */
export function DateStep({
  dates,
  selected,
  onSelect,
}: {
  /** The dates worked out here, shown until the service answers (and if it cannot). */
  dates: string[];
  selected: string | null;
  onSelect: (date: string) => void;
}) {
  const query = useQuery<AvailableDatesResponse>({
    queryKey: [AVAILABLE_DATES_PATH],
    gcTime: 0,
    staleTime: 0,
  });
  // A prerendered page was rendered at build time: which dates still have a time depends on the
  // clock, so the first (hydrating) render offers what the prerender did, and the real answer
  // follows at once. Otherwise React finds a mismatch and renders the whole page anew.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const served = hydrated ? query.data?.dates : undefined;
  const shown = served ? served.map((d) => d.date) : dates;
  const offered = (date: string) =>
    served
      ? (served.find((d) => d.date === date)?.available ?? 0) > 0
      : !hydrated || slotsOfDate(date).length > 0;
  return (
    <div>
      <h3 className="mb-3 text-sm font-medium text-slate-300">Select a date</h3>
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5" aria-label="Available dates">
        {shown.map((date) => {
          const p = dateParts(date);
          const isSelected = date === selected;
          const open = offered(date);
          return (
            <li key={date}>
              <button
                type="button"
                data-date={date}
                aria-pressed={isSelected}
                disabled={!open}
                onClick={() => onSelect(date)}
                className={clsx(
                  'flex w-full flex-col items-center rounded-xl border px-2 py-3 transition disabled:cursor-not-allowed',
                  isSelected
                    ? 'border-brand bg-cyan-400/15 text-white'
                    : open
                      ? 'border-navy-600 bg-navy-800 text-slate-200 hover:border-brand/70 hover:bg-navy-700'
                      : 'border-navy-800 bg-navy-900 text-slate-500',
                )}
              >
                {/* Screen readers get the whole date; the short visual parts are hidden from them. */}
                <span className="sr-only">
                  {formatLongDate(date)}
                  {open ? '' : ', no times available'}
                </span>
                <span aria-hidden="true" className="text-xs uppercase tracking-wide text-slate-400">
                  {p.weekday}
                </span>
                <span aria-hidden="true" className={clsx('text-xl font-semibold', !open && 'line-through')}>
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
