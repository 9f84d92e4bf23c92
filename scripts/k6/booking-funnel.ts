// The demo-booking funnel: look up free slots, book one (unique email per booking), and a
// contention scenario where many users book the SAME slot at once: only 201 (one winner)
// and 409 (slot taken) are acceptable, and at most one booking may be created.
//
// The calendar is released as it is used: with ADMIN_EMAIL and ADMIN_PASSWORD, setup() signs in
// and every booking the funnel makes is cancelled through the admin API (PATCH
// /api/bookings/:id/status) once it is checked, and teardown() cancels the contention winner, so
// a run of any length leaves the calendar as it found it, and never fails for want of free
// slots. load, stress and spike require them (ten users would book the whole window in minutes);
// a smoke run without them keeps its few bookings.
//
// The platform limits public writes per client IP (20 bookings a minute); k6 sends everything
// from one address, so load/stress/spike need the platform started with the load-test switch,
// RATE_LIMIT_MULTIPLIER (e.g. RATE_LIMIT_MULTIPLIER=1000 pnpm start), which raises every
// per-client budget of every process alike. The smoke run writes 5 times.
import { check, fail, sleep } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import {
  adminSession,
  availableSlots,
  BASE_URL,
  checkReady,
  IS_SMOKE,
  nextDates,
  profile,
  SUMMARY_TREND_STATS,
  THINK_SECONDS,
  tagged,
  thresholds,
  uniqueEmail,
} from './lib.ts';

export { handleSummary } from './lib.ts';

const WINDOW_DAYS = 15;
const CONTENTION_VUS = IS_SMOKE ? 3 : 50;
const bookingAccepted = http.expectedStatuses(201, 409);
const ADMIN_JSON = (cookie: string) => ({ 'Content-Type': 'application/json', Cookie: cookie });

const bookingsCreated = new Counter('bookings_created');
const bookingsConflicted = new Counter('bookings_conflicted');
const contentionCreated = new Counter('contention_created');
const contentionConflicted = new Counter('contention_conflicted');
const bookingsReleased = new Counter('bookings_released');

export const options = {
  summaryTrendStats: SUMMARY_TREND_STATS,
  scenarios: {
    funnel: profile({ exec: 'funnel', vus: 10, smokeIterations: 2 }),
    contention: {
      executor: 'per-vu-iterations',
      exec: 'contention',
      vus: CONTENTION_VUS,
      iterations: 1,
      maxDuration: '1m',
    },
  },
  thresholds: thresholds(
    { slots: [250, 600], book: [400, 1000], contention: [1000, 2000], release: [400, 1000] },
    // One slot, many buyers: never more than one booking.
    { contention_created: ['count<=1'] },
  ),
};

interface SetupData {
  contentionSlot: string;
  /** The admin session that releases the bookings ('' in a smoke run without one). */
  cookie: string;
}

export function setup(): SetupData {
  checkReady();
  const cookie = adminSession();
  if (!cookie && !IS_SMOKE)
    fail(
      'load, stress and spike release the slots they book through the admin API: set ADMIN_EMAIL and ADMIN_PASSWORD',
    );
  // The contention slot: the last free slot of the farthest day that has one, so the funnel
  // (which takes the earliest days' slots first) rarely competes for it.
  const dates = nextDates(WINDOW_DAYS).reverse();
  for (const date of dates) {
    const slots = availableSlots(date, 'setup');
    const last = slots[slots.length - 1];
    if (last) return { contentionSlot: last, cookie };
  }
  return fail('no free slot in the booking window: nothing to book');
}

/** Cancels a booking through the admin API: its slot is offered again. */
function release(id: string, cookie: string): boolean {
  const res = http.patch(
    `${BASE_URL}/api/bookings/${id}/status`,
    JSON.stringify({ status: 'cancelled' }),
    tagged('release', { headers: ADMIN_JSON(cookie) }),
  );
  const ok = check(res, {
    'the booking is released': (r) =>
      r.status === 200 && (r.json() as { status?: string } | null)?.status === 'cancelled',
  });
  if (ok) bookingsReleased.add(1);
  return ok;
}

/** The contention winner (the one booking of the contention slot) is released last. */
export function teardown(data: SetupData): void {
  if (!data.cookie) return;
  const res = http.get(`${BASE_URL}/api/bookings`, tagged('release', { headers: ADMIN_JSON(data.cookie) }));
  if (res.status !== 200) return;
  const slot = new Date(data.contentionSlot).getTime();
  for (const b of (res.json() as Array<{ id: string; timeSlot: string; status: string }>) ?? []) {
    if (b.status !== 'cancelled' && new Date(b.timeSlot).getTime() === slot) release(b.id, data.cookie);
  }
}

function book(timeSlot: string, endpoint: string) {
  const body = JSON.stringify({
    name: `k6 ${endpoint} ${__VU}`,
    email: uniqueEmail(`k6-${endpoint}`),
    company: 'k6 load test',
    timeSlot,
  });
  return http.post(
    `${BASE_URL}/api/bookings`,
    body,
    tagged(endpoint, { headers: { 'Content-Type': 'application/json' }, responseCallback: bookingAccepted }),
  );
}

export function funnel(data: SetupData): void {
  let chosen: string | undefined;
  for (const date of nextDates(WINDOW_DAYS)) {
    const slots = availableSlots(date).filter((s) => s !== data.contentionSlot);
    if (slots.length > 0) {
      chosen = slots[Math.floor(Math.random() * slots.length)];
      break;
    }
    sleep(THINK_SECONDS / 4);
  }
  if (!chosen) {
    check(null, { 'a free slot is offered': () => false });
    return;
  }
  sleep(THINK_SECONDS);
  const res = book(chosen, 'book');
  if (res.status === 201) bookingsCreated.add(1);
  if (res.status === 409) bookingsConflicted.add(1);
  check(res, {
    'booking answers 201 or 409': (r) => r.status === 201 || r.status === 409,
    'a created booking holds the slot': (r) =>
      r.status !== 201 ||
      new Date((r.json() as { timeSlot: string }).timeSlot).getTime() === new Date(chosen).getTime(),
  });
  if (res.status === 201 && data.cookie) release((res.json() as { id: string }).id, data.cookie);
  sleep(THINK_SECONDS);
}

export function contention(data: SetupData): void {
  const res = book(data.contentionSlot, 'contention');
  if (res.status === 201) contentionCreated.add(1);
  if (res.status === 409) contentionConflicted.add(1);
  check(res, { 'contention answers only 201 or 409': (r) => r.status === 201 || r.status === 409 });
}
