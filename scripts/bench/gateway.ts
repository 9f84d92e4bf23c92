/**
 * Gateway overhead, in one run of `pnpm start --distributed` (each service its own process):
 *  1. `GET /api/bookings/available` (slot rules + one indexed query) direct on the booking
 *     service and through the gateway: max throughput of each (target: gateway ≥ 0.75 of
 *     direct) and p99 of each at half the direct maximum, requests evenly spaced (an open
 *     model, `paced` in _load.ts; target: gateway adds ≤ 2 ms);
 *  2. the hop alone: the booking service's `/health/live` direct vs `/api/health/booking`
 *     through the gateway (target: gateway ≥ 0.5 of direct);
 *  3. the gateway's event-loop delay p99 during the half-load run (target ≤ 5 ms), read from
 *     its internal metrics port.
 * Exits non-zero when a target is missed (or any answer was not 2xx).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@parley/kit/testing';
import { startPlatform } from '../lib/platform.ts';
import { type LoadResult, load, paced, table } from './_load.ts';

/** Set when a target is missed: the exit code says so (set at the very end, after the stop). */
let benchFailed = false;

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const TARGETS = { ratio: 0.75, addedP99Ms: 2, hopRatio: 0.5, loopP99Ms: 5 };
const load1 = () => loadavg()[0]?.toFixed(2) ?? '?';

const metricsPort = await freePort();
const loadBefore = load1();
const platform = await startPlatform({
  args: ['--distributed'],
  env: { PARLEY_SKIP_WEB_BUILD: 'true', METRICS_PORT: String(metricsPort) },
  // e.g. BENCH_GATEWAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof": the gateway's process only.
  nodeArgs: process.env.BENCH_GATEWAY_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
});
let stopMs = 0;
try {
  const upstreams = JSON.parse(readFileSync(join(platform.dataDir, 'upstreams.json'), 'utf8')) as Record<
    string,
    string
  >;
  const direct = upstreams.BOOKING_URL;
  if (!direct) throw new Error('booking upstream not found');
  // A weekday inside the booking window, so the handler does its real work (slot rules + query).
  let day = new Date(Date.now() + 2 * 86_400_000);
  while ([0, 6].includes(day.getUTCDay())) day = new Date(day.getTime() + 86_400_000);
  const path = `/api/bookings/available?date=${day.toISOString().slice(0, 10)}`;
  const hop = { direct: `${direct}/health/live`, gateway: `${platform.url}/api/health/booking` };
  for (const url of [direct + path, platform.url + path, hop.direct, hop.gateway]) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`${url} answered ${r.status}`);
  }

  /** The gateway's event-loop delay p99 (ms) since the previous read (each read starts anew). */
  async function loopDelayP99(): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const m = /^gateway_event_loop_delay_seconds\{quantile="0\.99"[^}]*\} (\S+)$/m.exec(text);
    if (!m) throw new Error('the gateway does not report its event-loop delay');
    return Number(m[1]) * 1000;
  }

  // Warm both paths (JIT, connection pools), then measure.
  await load({ url: direct + path, duration: 2 });
  await load({ url: platform.url + path, duration: 2 });
  await load({ url: hop.gateway, duration: 1 });
  const maxDirect = await load({ url: direct + path, duration });
  const maxGateway = await load({ url: platform.url + path, duration });
  const half = Math.max(1, Math.round(maxDirect.rps / 2));
  // Each paced run follows its own paced warm-up at once, the same for both paths: the
  // client's first requests pay its JIT and connection set-up, which an open model charges
  // to every request due meanwhile.
  await paced({ url: direct + path, duration: 2, rate: half });
  const halfDirect = await paced({ url: direct + path, duration, rate: half });
  await paced({ url: platform.url + path, duration: 2, rate: half });
  await loopDelayP99();
  const halfGateway = await paced({ url: platform.url + path, duration, rate: half });
  const loopP99 = await loopDelayP99();
  const hopDirect = await load({ url: hop.direct, duration });
  const hopGateway = await load({ url: hop.gateway, duration });

  const row = (run: string, r: LoadResult) => ({
    run,
    rps: Math.round(r.rps),
    p50_ms: r.p50,
    p99_ms: r.p99,
    non2xx: r.non2xx + r.errors,
  });
  const rows = [
    row('max, direct', maxDirect),
    row('max, gateway', maxGateway),
    row(`${half} rps, direct`, halfDirect),
    row(`${half} rps, gateway`, halfGateway),
    row('hop max, direct (/health/live)', hopDirect),
    row('hop max, gateway (/api/health/booking)', hopGateway),
  ];
  table(rows);

  const ratio = maxGateway.rps / maxDirect.rps;
  const addedP99 = halfGateway.p99 - halfDirect.p99;
  const hopRatio = hopGateway.rps / hopDirect.rps;
  const errors = rows.reduce((n, r) => n + r.non2xx, 0);
  const checks = [
    [
      `throughput ratio gateway ÷ direct: ${ratio.toFixed(2)} (target ≥ ${TARGETS.ratio})`,
      ratio >= TARGETS.ratio,
    ],
    [
      `added p99 at ${half} rps: ${addedP99.toFixed(1)} ms (target ≤ ${TARGETS.addedP99Ms} ms)`,
      addedP99 <= TARGETS.addedP99Ms,
    ],
    [
      `hop ratio gateway ÷ direct: ${hopRatio.toFixed(2)} (target ≥ ${TARGETS.hopRatio})`,
      hopRatio >= TARGETS.hopRatio,
    ],
    [
      `gateway event-loop delay p99 at ${half} rps: ${loopP99.toFixed(1)} ms (target ≤ ${TARGETS.loopP99Ms} ms)`,
      loopP99 <= TARGETS.loopP99Ms,
    ],
    [`answers that were not 2xx: ${errors}`, errors === 0],
  ] as const;
  for (const [line, ok] of checks) console.log(`${line} ${ok ? 'PASS' : 'FAIL'}`);
  console.log(
    `machine load (1 min): ${loadBefore} before, ${load1()} after (2 cores shared with the load generator)`,
  );
  // The same figures as a table for docs/benchmarks.md.
  console.log(`\n| run | rps | p50 ms | p99 ms |\n| --- | --- | --- | --- |`);
  for (const r of rows)
    console.log(`| ${r.run} | ${r.rps.toLocaleString('en')} | ${r.p50_ms} | ${r.p99_ms} |`);
  benchFailed = !checks.every(([, ok]) => ok);
} finally {
  const t0 = Date.now();
  await platform.stop();
  stopMs = Date.now() - t0;
  console.log(`platform stopped in ${(stopMs / 1000).toFixed(1)} s`);
}
process.exit(benchFailed ? 1 : 0);
