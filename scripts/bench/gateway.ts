/**
 * Gateway overhead: the same endpoint called directly on the booking service and through
 * the gateway, in one run (`pnpm start --distributed`: each in its own process).
 *  1. max throughput of each (rps, p99) and their ratio (target ≥ 0.5);
 *  2. p99 of each at half the direct maximum rate (target: gateway adds ≤ 2 ms).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPlatform } from '../lib/platform.ts';
import { load, table } from './_load.ts';

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const platform = await startPlatform({ args: ['--distributed'], env: { PARLEY_SKIP_WEB_BUILD: 'true' } });
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
  for (const base of [direct, platform.url]) {
    const r = await fetch(base + path);
    if (!r.ok) throw new Error(`${base}${path} answered ${r.status}`);
  }

  // Warm both paths (JIT, connection pools), then measure.
  await load({ url: direct + path, duration: 2 });
  await load({ url: platform.url + path, duration: 2 });
  const maxDirect = await load({ url: direct + path, duration });
  const maxGateway = await load({ url: platform.url + path, duration });
  const half = Math.max(1, Math.round(maxDirect.rps / 2));
  const halfDirect = await load({ url: direct + path, duration, overallRate: half });
  const halfGateway = await load({ url: platform.url + path, duration, overallRate: half });

  table([
    {
      run: 'max, direct',
      rps: Math.round(maxDirect.rps),
      p50_ms: maxDirect.p50,
      p99_ms: maxDirect.p99,
      non2xx: maxDirect.non2xx,
    },
    {
      run: 'max, gateway',
      rps: Math.round(maxGateway.rps),
      p50_ms: maxGateway.p50,
      p99_ms: maxGateway.p99,
      non2xx: maxGateway.non2xx,
    },
    {
      run: `${half} rps, direct`,
      rps: Math.round(halfDirect.rps),
      p50_ms: halfDirect.p50,
      p99_ms: halfDirect.p99,
      non2xx: halfDirect.non2xx,
    },
    {
      run: `${half} rps, gateway`,
      rps: Math.round(halfGateway.rps),
      p50_ms: halfGateway.p50,
      p99_ms: halfGateway.p99,
      non2xx: halfGateway.non2xx,
    },
  ]);
  const ratio = maxGateway.rps / maxDirect.rps;
  const addedP99 = halfGateway.p99 - halfDirect.p99;
  console.log(
    `throughput ratio gateway/direct: ${ratio.toFixed(2)} (target ≥ 0.5) ${ratio >= 0.5 ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `added p99 at ${half} rps: ${addedP99.toFixed(1)} ms (target ≤ 2 ms) ${addedP99 <= 2 ? 'PASS' : 'FAIL'}`,
  );
  const errors = maxDirect.non2xx + maxGateway.non2xx + halfDirect.non2xx + halfGateway.non2xx;
  if (errors) console.log(`non-2xx answers: ${errors} (FAIL)`);
  process.exitCode = ratio >= 0.5 && addedP99 <= 2 && errors === 0 ? 0 : 1;
} finally {
  await platform.stop();
}
