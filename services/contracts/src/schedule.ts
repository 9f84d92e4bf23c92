/**
 * Calendar rules shared by the booking service and the booking modal. Pure functions;
 * every time-zone conversion goes through Intl, so DST change days are handled by the
 * platform's tz database rather than by fixed offsets.
 */

export interface ScheduleConfig {
  /** IANA zone the sales team works in. */
  timeZone: string;
  /** Weekdays with slots, 0 = Sunday … 6 = Saturday. */
  weekdays: number[];
  /** First slot start, minutes after local midnight. */
  firstSlotMinute: number;
  /** Last slot start, minutes after local midnight. */
  lastSlotMinute: number;
  /** Spacing between slot starts, minutes. */
  slotMinutes: number;
  /** Number of days offered by the date picker. */
  windowDays: number;
  /** From this local hour on, the window starts tomorrow (the spec's 8 PM rule). */
  cutoffHour: number;
}

export const DEFAULT_SCHEDULE: ScheduleConfig = {
  timeZone: 'America/New_York',
  weekdays: [1, 2, 3, 4, 5],
  firstSlotMinute: 9 * 60,
  lastSlotMinute: 17 * 60 + 30,
  slotMinutes: 30,
  windowDays: 14,
  cutoffHour: 20,
};

export const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** Wall-clock parts of an instant in a zone. */
export function zonedParts(instant: Date, timeZone: string): ZonedParts {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(instant)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS[parts.weekday ?? 'Sun'] ?? 0,
  };
}

/** The instant at which the wall clock of `timeZone` shows the given local time. */
export function zonedTimeToUtc(
  year: number,
  month: number,
  day: number,
  minuteOfDay: number,
  timeZone: string,
): Date {
  const wallAsUtc = Date.UTC(year, month - 1, day, Math.floor(minuteOfDay / 60), minuteOfDay % 60);
  // Guess with the offset at the wall time, then correct once with the offset at the guess:
  // this converges for every zone, including the hour skipped or repeated by DST.
  let guess = wallAsUtc - offsetMs(new Date(wallAsUtc), timeZone);
  guess = wallAsUtc - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

function offsetMs(instant: Date, timeZone: string): number {
  const p = zonedParts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

export function formatDate(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function parseDate(date: string): { year: number; month: number; day: number } | null {
  const m = DATE_RE.exec(date);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  return { year, month, day };
}

function addDays(date: { year: number; month: number; day: number }, days: number) {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * The dates the picker offers: `windowDays` days starting today, or tomorrow when it is
 * already `cutoffHour` or later in the schedule's zone (spec: 8 PM Eastern).
 */
export function bookableDates(now: Date, cfg: ScheduleConfig = DEFAULT_SCHEDULE): string[] {
  const p = zonedParts(now, cfg.timeZone);
  const start = addDays(p, p.hour >= cfg.cutoffHour ? 1 : 0);
  const out: string[] = [];
  for (let i = 0; i < cfg.windowDays; i++) {
    const d = addDays(start, i);
    out.push(formatDate(d.year, d.month, d.day));
  }
  return out;
}

/** Slot starts per schedule and date: pure, and costly (Intl), so computed once. */
const slotCache = new WeakMap<ScheduleConfig, Map<string, readonly Date[]>>();
const SLOT_CACHE_DATES = 1024;

/** Every slot start of a local date, ignoring whether it is past or taken. */
export function slotsOfDate(date: string, cfg: ScheduleConfig = DEFAULT_SCHEDULE): readonly Date[] {
  let byDate = slotCache.get(cfg);
  if (!byDate) {
    byDate = new Map();
    slotCache.set(cfg, byDate);
  }
  const cached = byDate.get(date);
  if (cached) return cached;
  const d = parseDate(date);
  if (!d) return [];
  const out: Date[] = [];
  const weekday = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
  if (cfg.weekdays.includes(weekday)) {
    for (let m = cfg.firstSlotMinute; m <= cfg.lastSlotMinute; m += cfg.slotMinutes) {
      out.push(zonedTimeToUtc(d.year, d.month, d.day, m, cfg.timeZone));
    }
  }
  if (byDate.size >= SLOT_CACHE_DATES) byDate.clear();
  const frozen = Object.freeze(out);
  byDate.set(date, frozen);
  return frozen;
}

/** The local date (YYYY-MM-DD) of an instant in the schedule's zone. */
export function localDateOf(instant: Date, cfg: ScheduleConfig = DEFAULT_SCHEDULE): string {
  const p = zonedParts(instant, cfg.timeZone);
  return formatDate(p.year, p.month, p.day);
}

/**
 * Offered slots of a date: inside the window, on a working day, in the future and not
 * in `taken` (epoch milliseconds of booked slot starts).
 */
export function availableSlots(
  date: string,
  now: Date,
  taken: ReadonlySet<number>,
  cfg: ScheduleConfig = DEFAULT_SCHEDULE,
): Date[] {
  if (!bookableDates(now, cfg).includes(date)) return [];
  return slotsOfDate(date, cfg).filter((s) => s.getTime() > now.getTime() && !taken.has(s.getTime()));
}

/** Whether an instant is one of the offered slot starts (ignoring whether it is taken). */
export function isOfferedSlot(instant: Date, now: Date, cfg: ScheduleConfig = DEFAULT_SCHEDULE): boolean {
  const date = localDateOf(instant, cfg);
  return availableSlots(date, now, new Set(), cfg).some((s) => s.getTime() === instant.getTime());
}
