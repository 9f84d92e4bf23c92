import { DEFAULT_SCHEDULE, parseDate } from '@parley/contracts/schedule';

/**
 * Display helpers of the booking modal. Picker dates are calendar dates (YYYY-MM-DD, no
 * zone), so they are formatted as UTC midnights to avoid any shift by the visitor's zone;
 * slot instants are shown in the sales team's zone (Eastern) with the spec's 'EST' suffix.
 */

const dayFmt = {
  weekday: new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' }),
  month: new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' }),
  day: new Intl.DateTimeFormat('en-US', { day: 'numeric', timeZone: 'UTC' }),
  long: new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }),
};

const timeFmt = new Intl.DateTimeFormat('en-US', {
  timeZone: DEFAULT_SCHEDULE.timeZone,
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

function utcMidnight(date: string): Date {
  const d = parseDate(date);
  if (!d) throw new Error(`not a calendar date: ${date}`);
  return new Date(Date.UTC(d.year, d.month - 1, d.day));
}

/** 'Mon', 'Jan', '15' for a picker button. */
export function dateParts(date: string): { weekday: string; month: string; day: string } {
  const d = utcMidnight(date);
  return { weekday: dayFmt.weekday.format(d), month: dayFmt.month.format(d), day: dayFmt.day.format(d) };
}

/** 'Monday, January 15'. */
export function formatLongDate(date: string): string {
  return dayFmt.long.format(utcMidnight(date));
}

/** '9:00 AM EST': the slot's wall time in Eastern time. */
export function formatSlotTime(iso: string): string {
  return `${timeFmt.format(new Date(iso))} EST`;
}
