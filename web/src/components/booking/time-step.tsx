import type { AvailableSlotsResponse } from '@parley/contracts';
import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { CalendarX, Loader2 } from 'lucide-react';
import { formatLongDate, formatSlotTime } from './format.ts';

export const AVAILABLE_SLOTS_PATH = '/api/bookings/available';

export function availableSlotsKey(date: string): [string] {
  return [`${AVAILABLE_SLOTS_PATH}?date=${encodeURIComponent(date)}`];
}

/**
 * Slots of the chosen date. The read lives in this component, which only exists while the
 * modal is open on the time step, and is never cached (gcTime 0, always stale): each visit
 * asks the server again, so a slot booked meanwhile is not offered.
 */
export function TimeStep({
  date,
  selected,
  onSelect,
  onChangeDate,
}: {
  date: string;
  selected: string | null;
  onSelect: (slot: string) => void;
  onChangeDate: () => void;
}) {
  const query = useQuery<AvailableSlotsResponse>({
    queryKey: availableSlotsKey(date),
    gcTime: 0,
    staleTime: 0,
  });

  return (
    <div>
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <h3 className="text-sm font-medium text-slate-300">
          Available times for <span className="text-white">{formatLongDate(date)}</span>
        </h3>
        <span className="text-xs text-slate-400">Eastern Time (EST)</span>
      </div>

      {query.isPending ? (
        <p role="status" className="flex items-center justify-center gap-2 py-10 text-sm text-slate-400">
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          Loading available times…
        </p>
      ) : query.isError ? (
        <div role="alert" className="rounded-xl border border-red-500/40 bg-red-500/10 p-5 text-center">
          <p className="text-sm font-medium text-red-200">Failed to fetch available slots</p>
          <button
            type="button"
            onClick={() => void query.refetch()}
            className="mt-3 rounded-lg border border-red-400/50 px-3 py-1.5 text-sm text-red-100 hover:bg-red-500/20"
          >
            Try again
          </button>
        </div>
      ) : query.data.availableSlots.length === 0 ? (
        <div className="rounded-xl border border-navy-600 bg-navy-800/60 p-6 text-center">
          <CalendarX className="mx-auto h-8 w-8 text-slate-500" aria-hidden="true" />
          <p className="mt-3 font-semibold text-white">No available times</p>
          <p className="mt-1 text-sm text-slate-400">
            All time slots for this date are either booked or in the past. Please select a different date.
          </p>
          <button
            type="button"
            onClick={onChangeDate}
            className="mt-4 rounded-lg bg-brand px-4 py-2 text-sm font-semibold text-navy-950 hover:bg-brand-strong"
          >
            Select Different Date
          </button>
        </div>
      ) : (
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3" aria-label="Available times">
          {query.data.availableSlots.map((slot) => (
            <li key={slot}>
              <button
                type="button"
                data-slot={slot}
                aria-pressed={slot === selected}
                onClick={() => onSelect(slot)}
                className={clsx(
                  'w-full rounded-lg border px-3 py-2.5 text-sm font-medium transition',
                  slot === selected
                    ? 'border-brand bg-cyan-400/15 text-white'
                    : 'border-navy-600 bg-navy-800 text-slate-200 hover:border-brand/70 hover:bg-navy-700',
                )}
              >
                {formatSlotTime(slot)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
