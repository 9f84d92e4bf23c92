import type { Booking, BookingStatus } from '@parley/contracts';
import { BOOKING_STATUSES } from '@parley/contracts/enums';
import { formatDate, parseDate, zonedParts } from '@parley/contracts/schedule';

/**
 * Booking views of the back office (spec §2 "Dashboard", "Booking management", §5 "Booking
 * filters", §9): status labels, the filters and their date windows, the summary counts and
 * the grouping by calendar day. Calendar days are those of each booking's own time zone.
 */

export const STATUS_LABELS: Record<BookingStatus, string> = {
  confirmed: 'Confirmed',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'No Show',
  qualified_lead: 'Qualified Lead',
  client: 'Client',
};

/** The card's status selector labels `client` as New Client (spec §2). */
export const CARD_STATUS_LABELS: Record<BookingStatus, string> = { ...STATUS_LABELS, client: 'New Client' };

export const STATUS_BADGE: Record<BookingStatus, string> = {
  confirmed: 'border-cyan-400/40 bg-cyan-400/10 text-cyan-200',
  completed: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200',
  cancelled: 'border-red-400/40 bg-red-400/10 text-red-200',
  no_show: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  qualified_lead: 'border-violet-400/40 bg-violet-400/10 text-violet-200',
  client: 'border-sky-400/40 bg-sky-400/10 text-sky-200',
};

export const STATUS_OPTIONS = BOOKING_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));

export const DATE_RANGES = [
  { value: 'all', label: 'All Time' },
  { value: 'today', label: 'Today' },
  { value: 'tomorrow', label: 'Tomorrow' },
  { value: 'next3days', label: 'Next 3 Days' },
  { value: 'yesterday', label: 'Yesterday' },
  { value: 'week', label: 'Last 7 Days' },
  { value: 'month', label: 'Last 30 Days' },
] as const;
export type DateRange = (typeof DATE_RANGES)[number]['value'];

export interface BookingFilters {
  status: 'all' | BookingStatus;
  range: DateRange;
  search: string;
}

export const NO_FILTERS: BookingFilters = { status: 'all', range: 'all', search: '' };

export const filtersApply = (f: BookingFilters) =>
  f.status !== 'all' || f.range !== 'all' || f.search.trim() !== '';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** 'YYYY-MM-DD' of an instant in a zone (an unknown zone falls back to the browser's). */
export function dayKey(instant: Date, timeZone: string): string {
  try {
    const p = zonedParts(instant, timeZone);
    return formatDate(p.year, p.month, p.day);
  } catch {
    return formatDate(instant.getFullYear(), instant.getMonth() + 1, instant.getDate());
  }
}

function shiftDay(key: string, days: number): string {
  const d = parseDate(key);
  if (!d) return key;
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return formatDate(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** Whether a booking falls in a date window (spec §5), relative to `now`. */
export function inDateRange(b: Booking, range: DateRange, now: Date): boolean {
  if (range === 'all') return true;
  const at = new Date(b.timeSlot);
  const t = at.getTime();
  const n = now.getTime();
  const day = () => dayKey(at, b.timeZone);
  const today = () => dayKey(now, b.timeZone);
  switch (range) {
    case 'today':
      return day() === today();
    case 'tomorrow':
      return day() === shiftDay(today(), 1);
    case 'yesterday':
      return day() === shiftDay(today(), -1);
    case 'next3days':
      return t > n && t <= n + 3 * DAY;
    case 'week':
      return t >= n - 7 * DAY && t <= n;
    case 'month':
      return t >= n - 30 * DAY && t <= n;
  }
}

/** Case-insensitive search over name, email, company and phone (phone also by its digits). */
export function matchesSearch(b: Booking, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  const fields = [b.name, b.email, b.company ?? '', b.phone ?? ''];
  if (fields.some((f) => f.toLowerCase().includes(q))) return true;
  const digits = q.replace(/\D/g, '');
  return (
    digits.length >= 3 && /^[\d\s()+.-]+$/.test(q) && (b.phone ?? '').replace(/\D/g, '').includes(digits)
  );
}

export function filterBookings(list: readonly Booking[], f: BookingFilters, now: Date): Booking[] {
  return list.filter(
    (b) =>
      (f.status === 'all' || b.status === f.status) &&
      inDateRange(b, f.range, now) &&
      matchesSearch(b, f.search),
  );
}

export const byTimeSlot = (a: Booking, b: Booking) => Date.parse(a.timeSlot) - Date.parse(b.timeSlot);

/** Summary cards: all bookings, confirmed, now to +7 days, now to +24 hours (spec §2, §9). */
export function summarize(list: readonly Booking[], now: Date) {
  const n = now.getTime();
  const within = (ms: number) =>
    list.filter((b) => {
      const t = Date.parse(b.timeSlot);
      return t >= n && t <= n + ms;
    }).length;
  return {
    total: list.length,
    confirmed: list.filter((b) => b.status === 'confirmed').length,
    thisWeek: within(7 * DAY),
    next24h: within(DAY),
  };
}

export interface DayGroup {
  key: string;
  heading: string;
  bookings: Booking[];
}

const longDay = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

/** 'Monday, January 15, 2025' for a 'YYYY-MM-DD' key. */
export function formatDayHeading(key: string): string {
  const d = parseDate(key);
  return d ? longDay.format(new Date(Date.UTC(d.year, d.month - 1, d.day))) : key;
}

/** Groups by calendar day, days ascending, bookings within a day ascending by time. */
export function groupByDay(list: readonly Booking[]): DayGroup[] {
  const groups = new Map<string, Booking[]>();
  for (const b of [...list].sort(byTimeSlot)) {
    const key = dayKey(new Date(b.timeSlot), b.timeZone);
    const bucket = groups.get(key);
    if (bucket) bucket.push(b);
    else groups.set(key, [b]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, bookings]) => ({ key, heading: formatDayHeading(key), bookings }));
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** '9:00 AM EST': the booking's wall time with its zone's short name. */
export function formatBookingTime(b: Booking): string {
  let f = timeFormats.get(b.timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        hour: 'numeric',
        minute: '2-digit',
        timeZone: b.timeZone,
        timeZoneName: 'short',
      });
    } catch {
      f = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
    }
    timeFormats.set(b.timeZone, f);
  }
  return f.format(new Date(b.timeSlot));
}
