/**
 * The web's date and time formats, one place: every screen shows dates the same way, in the
 * browser's zone, in US English (the product's language). A moment the admin just set (when a
 * schedule goes out) is said in the admin's own locale, with the zone named.
 */

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const shortDateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const timeOfDay = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** 'Jan 15, 2025'. */
export const formatDate = (iso: string): string => shortDate.format(new Date(iso));

/** 'Jan 15, 2025, 9:00 AM'. */
export const formatShortDateTime = (iso: string): string => shortDateTime.format(new Date(iso));

/** '9:00:05 AM': when something happened today (a check, a diagnostic run). */
export const formatTimeOfDay = (iso: string): string => timeOfDay.format(new Date(iso));

/** 'Tue, Dec 1, 2026, 1:30 AM PST' (in en-US): a scheduled moment in the browser's locale and zone. */
export function formatScheduledTime(iso: string): string {
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(iso));
}
