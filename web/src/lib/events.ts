/**
 * Window events the spec names as public entry points (§2): any script on the page can
 * open the booking modal with `window.dispatchEvent(new Event('openCalendar'))` and the
 * Try AI Agent widget with `window.dispatchEvent(new Event('openTryAgent'))`.
 */
export const OPEN_CALENDAR_EVENT = 'openCalendar';
export const OPEN_TRY_AGENT_EVENT = 'openTryAgent';

export function openBookingModal(): void {
  window.dispatchEvent(new Event(OPEN_CALENDAR_EVENT));
}

export function openTryAgent(): void {
  window.dispatchEvent(new Event(OPEN_TRY_AGENT_EVENT));
}
