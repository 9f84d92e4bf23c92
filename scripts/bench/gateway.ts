/**
 * The gateway against direct and against two reference proxies, on one booking service, in one
 * run of `pnpm start --distributed` (each service its own process):
 *  - direct: the booking service itself;
 *  - gateway: Parley's gateway (the platform's own process);
 *  - nginx: one worker, a keep-alive upstream pool (`keepalive 64`, HTTP/1.1), access log off
 *    (_nginx.ts; `apt-get install -y nginx-light` when it is missing);
 *  - bare: a bare Node proxy, a node:http server and one undici Pool (_bare-proxy.ts, its own
 *    process).
 * Two routes: `GET /api/bookings/available?date=…` (slot rules and one indexed query; the same
 * path on all four) and the hop (booking's `/health/live`, which the gateway publishes as
 * `/api/health/booking`).
 *
 * 1. Maximum throughput: wrk, one thread, 64 keep-alive connections, BENCH_SECONDS (8) a run,
 *    in BENCH_ROUNDS (2) interleaved rounds (each round: slots then hop, each direct, gateway,
 *    nginx, bare), after a 2 s warm-up of each. Per run: requests/s, p50/p99, and the CPU
 *    (user + system, /proc/<pid>/stat, before and after the run) each proxy process and the
 *    booking service spent per request. CPU per request is the stable figure on a shared
 *    2-core machine; requests/s moves with whatever else runs.
 * 2. Added latency: requests evenly spaced (an open model, `paced` in _load.ts; latency from
 *    when each was due) at a quarter of direct's highest slots rate, on the slots route, each of
 *    the four after a paced warm-up, in the same interleaved rounds. The added p50 and p99 are
 *    the gateway's minus direct's over the pooled rounds. During the gateway's runs its
 *    event-loop delay p99 is read from its internal metrics port. Each proxy also runs the hop
 *    at that same rate, so CPU per request can be compared at one rate, route against route and
 *    proxy against proxy (printed, no target): at maximum load the hop runs several times faster
 *    than the slots route, and a faster proxy faster than a slower one, and more requests per
 *    wake-up alone lower the cost of each.
 * The load generator (this process, and the wrk it starts) is pinned to CPU 1 with taskset once
 * the servers are up (BENCH_LOADGEN_CPUS; empty: not pinned); the servers are not pinned.
 *
 * Targets, each printed with PASS or FAIL (the exit code is non-zero on any FAIL): the gateway's
 * CPU per request at maximum load ≤ 1.3 × the bare proxy's on both routes (pooled over the
 * rounds); the gateway's slots throughput ≥ 0.8 of direct (pooled); added p99 at a quarter load
 * ≤ 2 ms; the gateway's event-loop delay p99 ≤ 5 ms; no answer that is not 2xx. Also printed:
 * what else used the machine meanwhile (busy CPU outside this benchmark's processes, /proc/stat).
 *
 * BENCH_GATEWAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the gateway's process.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@parley/kit/testing';
import { repoRoot } from '../lib/paths.ts';
import { startPlatform } from '../lib/platform.ts';
import {
  cpuSeconds,
  listenerPid,
  machineBusySeconds,
  treeCpuSeconds,
  treeWithReapedCpuSeconds,
} from './_cpu.ts';
import { type LoadResult, paced, quantile, wrk, wrkBinary } from './_load.ts';
import { NGINX_INSTALL, type Nginx, nginxBinary, startNginx } from './_nginx.ts';

/** Set when a target is missed: the exit code says so (set at the very end, after the stop). */
let benchFailed = false;

const duration = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const loadCpus = process.env.BENCH_LOADGEN_CPUS ?? '1';
const TARGETS = { cpuVsBare: 1.3, ratio: 0.8, addedP99Ms: 2, loopP99Ms: 5 };
const load1 = () => loadavg()[0]?.toFixed(2) ?? '?';

const nginxBin = nginxBinary();
if (!nginxBin) {
  console.error(`nginx is not installed (neither on PATH nor /usr/sbin/nginx): ${NGINX_INSTALL}`);
  process.exit(1);
}
if (!wrkBinary()) {
  console.error('wrk is not installed: apt-get install -y wrk');
  process.exit(1);
}

/** The bare Node proxy as its own process (Node strips the file's types itself). */
async function startBare(
  upstream: string,
  port: number,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(repoRoot, 'scripts/bench/_bare-proxy.ts'), upstream, String(port)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the bare proxy exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const loadBefore = load1();
const metricsPort = await freePort();
const platform = await startPlatform({
  args: ['--distributed'],
  env: { PARLEY_SKIP_WEB_BUILD: 'true', METRICS_PORT: String(metricsPort) },
  // e.g. BENCH_GATEWAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof": the gateway's process only.
  nodeArgs: process.env.BENCH_GATEWAY_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
});
let nginx: Nginx | undefined;
let bare: Awaited<ReturnType<typeof startBare>> | undefined;
try {
  const upstreams = JSON.parse(readFileSync(join(platform.dataDir, 'upstreams.json'), 'utf8')) as Record<
    string,
    string
  >;
  const direct = upstreams.BOOKING_URL;
  if (!direct) throw new Error('booking upstream not found');
  const bookingPid = listenerPid(Number(new URL(direct).port));
  if (!bookingPid) throw new Error(`no process found listening at ${direct}`);
  nginx = await startNginx(nginxBin, direct, await freePort());
  bare = await startBare(direct, await freePort());
  if (loadCpus) {
    // This process (the paced client) and every wrk it starts from now on; the servers, started
    // above, keep both cores.
    const pinned = spawnSync('taskset', ['-a', '-p', '-c', loadCpus, String(process.pid)], {
      encoding: 'utf8',
    });
    if (pinned.status !== 0) throw new Error(`taskset failed: ${pinned.stderr}`);
  }

  // A weekday inside the booking window, so the handler does its real work (slot rules + query).
  let day = new Date(Date.now() + 2 * 86_400_000);
  while ([0, 6].includes(day.getUTCDay())) day = new Date(day.getTime() + 86_400_000);
  const slotsPath = `/api/bookings/available?date=${day.toISOString().slice(0, 10)}`;

  interface Target {
    name: 'direct' | 'gateway' | 'nginx' | 'bare';
    base: string;
    hop: string;
    /** CPU seconds of the proxy's process(es) so far; none for direct. */
    cpu?: () => number;
  }
  const targets: Target[] = [
    { name: 'direct', base: direct, hop: '/health/live' },
    { name: 'gateway', base: platform.url, hop: '/api/health/booking', cpu: () => cpuSeconds(platform.pid) },
    { name: 'nginx', base: nginx.url, hop: '/health/live', cpu: () => treeCpuSeconds(nginx?.pid as number) },
    { name: 'bare', base: bare.url, hop: '/health/live', cpu: () => cpuSeconds(bare?.pid as number) },
  ];
  const routes = [
    { name: 'slots', label: '`GET /api/bookings/available`', path: (_t: Target) => slotsPath },
    { name: 'hop', label: 'the hop (`/health/live`)', path: (t: Target) => t.hop },
  ] as const;
  for (const t of targets)
    for (const route of routes) {
      const url = t.base + route.path(t);
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

  interface Measured extends LoadResult {
    /** CPU µs per request of the proxy's process(es), of the booking service. */
    proxyUs: number | undefined;
    bookingUs: number;
    proxyCpu: number;
  }
  async function measured(t: Target, run: () => Promise<LoadResult>): Promise<Measured> {
    const p0 = t.cpu?.() ?? 0;
    const b0 = cpuSeconds(bookingPid as number);
    const r = await run();
    const proxyCpu = (t.cpu?.() ?? 0) - p0;
    const n = Math.max(1, r.requests);
    return {
      ...r,
      proxyCpu,
      proxyUs: t.cpu ? (proxyCpu * 1e6) / n : undefined,
      bookingUs: ((cpuSeconds(bookingPid as number) - b0) * 1e6) / n,
    };
  }

  const push = (runs: Record<string, Measured[]>, key: string, m: Measured) => {
    runs[key] = [...(runs[key] ?? []), m];
  };

  const busy0 = machineBusySeconds();
  const ours0 = treeWithReapedCpuSeconds(process.pid);
  const wall0 = performance.now();

  // 1. Maximum throughput, interleaved.
  for (const route of routes)
    for (const t of targets) await wrk({ url: t.base + route.path(t), duration: 2 });
  const max: Record<string, Measured[]> = {};
  for (let round = 0; round < rounds; round++)
    for (const route of routes)
      for (const t of targets) {
        const m = await measured(t, () => wrk({ url: t.base + route.path(t), duration }));
        push(max, `${route.name} ${t.name}`, m);
      }

  // 2. A quarter of direct's highest slots rate, paced, interleaved.
  const quarter = Math.max(1, Math.round(Math.max(...(max['slots direct'] ?? []).map((r) => r.rps)) / 4));
  const quarterRuns: Record<string, Measured[]> = {};
  // The proxies' hop at the same rate: CPU per request on both routes with the same number of
  // requests per second (and so per wake-up), to tell route work from rate.
  const quarterHop: Record<string, Measured[]> = {};
  const loopP99s: number[] = [];
  for (let round = 0; round < rounds; round++)
    for (const t of targets) {
      const url = t.base + slotsPath;
      // Each paced run follows its own paced warm-up at once: the client's first requests pay
      // its JIT and connection set-up, which an open model charges to every request due meanwhile.
      await paced({ url, duration: 2, rate: quarter });
      if (t.name === 'gateway') await loopDelayP99();
      const m = await measured(t, () => paced({ url, duration, rate: quarter }));
      if (t.name === 'gateway') loopP99s.push(await loopDelayP99());
      push(quarterRuns, t.name, m);
      if (!t.cpu) continue;
      await paced({ url: t.base + t.hop, duration: 1, rate: quarter });
      push(
        quarterHop,
        t.name,
        await measured(t, () => paced({ url: t.base + t.hop, duration, rate: quarter })),
      );
    }

  const wall = (performance.now() - wall0) / 1000;
  const others = machineBusySeconds() - busy0 - (treeWithReapedCpuSeconds(process.pid) - ours0);

  // Pooled figures: every run of a kind together (the runs are equally long).
  const pooled = (runs: Measured[] | undefined) => {
    const rs = runs ?? [];
    const requests = rs.reduce((n, r) => n + r.requests, 0);
    return {
      rps: rs.reduce((n, r) => n + r.rps, 0) / Math.max(1, rs.length),
      us: (rs.reduce((n, r) => n + r.proxyCpu, 0) * 1e6) / Math.max(1, requests),
      latencies: rs.flatMap((r) => r.latencies ?? []).sort((a, b) => a - b),
    };
  };
  const fmt = (n: number | undefined, digits = 0) =>
    n === undefined || Number.isNaN(n)
      ? '—'
      : n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const each = (runs: Measured[] | undefined, pick: (r: Measured) => number | undefined, digits = 0) =>
    (runs ?? []).map((r) => fmt(pick(r), digits)).join(' / ');

  const maxRows: string[][] = [];
  for (const route of routes) {
    const directRps = pooled(max[`${route.name} direct`]).rps;
    for (const t of targets) {
      const runs = max[`${route.name} ${t.name}`];
      maxRows.push([
        route.label,
        t.name,
        each(runs, (r) => r.rps),
        t.name === 'direct' ? '1' : (pooled(runs).rps / directRps).toFixed(2),
        t.cpu ? each(runs, (r) => r.proxyUs, 1) : '—',
        each(runs, (r) => r.bookingUs, 1),
        each(runs, (r) => r.p99, 1),
      ]);
    }
  }
  const quarterRows: string[][] = [];
  const directQ = pooled(quarterRuns.direct).latencies;
  for (const t of targets) {
    const runs = quarterRuns[t.name];
    const lat = pooled(runs).latencies;
    quarterRows.push([
      t.name,
      each(runs, (r) => r.p50, 1),
      each(runs, (r) => r.p99, 1),
      t.name === 'direct' ? '—' : (quantile(lat, 0.5) - quantile(directQ, 0.5)).toFixed(1),
      t.name === 'direct' ? '—' : (quantile(lat, 0.99) - quantile(directQ, 0.99)).toFixed(1),
      t.cpu ? each(runs, (r) => r.proxyUs, 1) : '—',
      t.cpu ? each(quarterHop[t.name], (r) => r.proxyUs, 1) : '—',
    ]);
  }
  const markdown = (head: string[], rows: string[][]) =>
    [
      `| ${head.join(' | ')} |`,
      `| ${head.map(() => '---').join(' | ')} |`,
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
  const rnd = Array.from({ length: rounds }, (_, i) => `round ${i + 1}`).join(' / ');
  console.log(
    `\nMaximum throughput: wrk -t1 -c64, ${duration} s a run, ${rounds} interleaved rounds (${rnd})${loadCpus ? `, load generator on CPU ${loadCpus}` : ''}\n`,
  );
  console.log(
    markdown(
      ['route', 'run', 'requests/s', '÷ direct', 'proxy CPU µs/request', 'booking CPU µs/request', 'p99 ms'],
      maxRows,
    ),
  );
  console.log(
    `\nA quarter of direct's highest slots rate: ${quarter} requests/s, paced, ${duration} s a run (${rnd})\n`,
  );
  console.log(
    markdown(
      [
        'run',
        'p50 ms',
        'p99 ms',
        'added p50 ms (pooled)',
        'added p99 ms (pooled)',
        'proxy CPU µs/request',
        'the hop at the same rate, µs/request',
      ],
      quarterRows,
    ),
  );

  const gwSlots = pooled(max['slots gateway']);
  const gwHop = pooled(max['hop gateway']);
  const bareSlots = pooled(max['slots bare']);
  const bareHop = pooled(max['hop bare']);
  const ngSlots = pooled(max['slots nginx']);
  const ngHop = pooled(max['hop nginx']);
  const ratio = gwSlots.rps / pooled(max['slots direct']).rps;
  const gwQ = pooled(quarterRuns.gateway).latencies;
  const addedP50 = quantile(gwQ, 0.5) - quantile(directQ, 0.5);
  const addedP99 = quantile(gwQ, 0.99) - quantile(directQ, 0.99);
  const loopP99 = Math.max(...loopP99s);
  const errors = [...Object.values(max), ...Object.values(quarterRuns), ...Object.values(quarterHop)]
    .flat()
    .reduce((n, r) => n + r.non2xx + r.errors, 0);
  console.log(
    `\nCPU µs per request, pooled: hop gateway ${gwHop.us.toFixed(1)}, bare ${bareHop.us.toFixed(1)}, nginx ${ngHop.us.toFixed(1)}; ` +
      `slots gateway ${gwSlots.us.toFixed(1)}, bare ${bareSlots.us.toFixed(1)}, nginx ${ngSlots.us.toFixed(1)}; ` +
      `slots minus hop: gateway ${(gwSlots.us - gwHop.us).toFixed(1)}, bare ${(bareSlots.us - bareHop.us).toFixed(1)}, nginx ${(ngSlots.us - ngHop.us).toFixed(1)}`,
  );
  const atRate = (name: string) => pooled(quarterRuns[name]).us - pooled(quarterHop[name]).us;
  const atRateRatio = (runs: Record<string, Measured[]>) =>
    (pooled(runs.gateway).us / pooled(runs.bare).us).toFixed(2);
  console.log(
    `at ${quarter} requests/s on both routes, slots minus hop: gateway ${atRate('gateway').toFixed(1)}, bare ${atRate('bare').toFixed(1)}, nginx ${atRate('nginx').toFixed(1)} µs per request; ` +
      `gateway CPU per request ÷ bare proxy's at that one rate (no target): slots ${atRateRatio(quarterRuns)}, hop ${atRateRatio(quarterHop)}`,
  );
  console.log(
    `hop throughput ÷ direct, pooled (no target): gateway ${(gwHop.rps / pooled(max['hop direct']).rps).toFixed(2)}, nginx ${(ngHop.rps / pooled(max['hop direct']).rps).toFixed(2)}, bare ${(bareHop.rps / pooled(max['hop direct']).rps).toFixed(2)}`,
  );
  const checks = [
    [
      `gateway CPU per request ÷ bare proxy's, hop: ${(gwHop.us / bareHop.us).toFixed(2)} (target ≤ ${TARGETS.cpuVsBare})`,
      gwHop.us / bareHop.us <= TARGETS.cpuVsBare,
    ],
    [
      `gateway CPU per request ÷ bare proxy's, slots: ${(gwSlots.us / bareSlots.us).toFixed(2)} (target ≤ ${TARGETS.cpuVsBare})`,
      gwSlots.us / bareSlots.us <= TARGETS.cpuVsBare,
    ],
    [
      `slots throughput gateway ÷ direct: ${ratio.toFixed(2)} (target ≥ ${TARGETS.ratio})`,
      ratio >= TARGETS.ratio,
    ],
    [
      `added p99 at ${quarter} requests/s: ${addedP99.toFixed(1)} ms (p50 ${addedP50.toFixed(1)} ms; target p99 ≤ ${TARGETS.addedP99Ms} ms)`,
      addedP99 <= TARGETS.addedP99Ms,
    ],
    [
      `gateway event-loop delay p99 at ${quarter} requests/s: ${loopP99.toFixed(1)} ms (target ≤ ${TARGETS.loopP99Ms} ms)`,
      loopP99 <= TARGETS.loopP99Ms,
    ],
    [`answers that were not 2xx: ${errors}`, errors === 0],
  ] as const;
  for (const [line, ok] of checks) console.log(`${line} ${ok ? 'PASS' : 'FAIL'}`);
  console.log(
    `other work on the machine during the runs: ${((100 * others) / (2 * wall)).toFixed(0)} % of the 2 cores ` +
      `(${others.toFixed(0)} CPU s in ${wall.toFixed(0)} s, outside this benchmark's processes); ` +
      `load average (1 min) ${loadBefore} before, ${load1()} after`,
  );
  benchFailed = !checks.every(([, ok]) => ok);
} finally {
  await bare?.stop();
  await nginx?.stop();
  const t0 = Date.now();
  await platform.stop();
  console.log(`platform stopped in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
process.exit(benchFailed ? 1 : 0);
