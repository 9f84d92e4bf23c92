import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** Every latency (ms, ascending): paced runs only, so runs can be pooled. */
  latencies?: number[];
}

/** One bounded autocannon run, summarised. */
export async function load(opts: autocannon.Options): Promise<LoadResult> {
  // A run is bounded by `amount` (requests) when given, else by `duration` (default 10 s).
  const result = await autocannon({ connections: 50, ...(opts.amount ? {} : { duration: 10 }), ...opts });
  const statusCodes: Record<string, number> = {};
  for (const [code, n] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = (n as { count: number }).count;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
  };
}

/**
 * An open-model load at a constant arrival rate (requests evenly spaced, like k6's
 * constant-arrival-rate or wrk2): what "half load" means. autocannon's `overallRate` is not
 * that: each connection sends as fast as answers come until its quota for the second is
 * used, then waits for the next second, so a half-rate run is full-speed bursts and pauses.
 * Latency runs from when a request was due, not when a free connection sent it (no
 * coordinated omission: a stall delays every request due meanwhile, and each one counts it).
 */
export async function paced(opts: {
  url: string;
  /** Requests per second. */
  rate: number;
  /** Seconds. */
  duration: number;
  /** Keep-alive connections (requests due while all are busy wait for one). */
  connections?: number;
}): Promise<LoadResult> {
  const url = new URL(opts.url);
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections ?? 50 });
  const total = Math.round(opts.rate * opts.duration);
  const interval = 1000 / opts.rate;
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let settled = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    if (total === 0) return resolve();
    const settle = () => {
      if (++settled === total) resolve();
    };
    const send = (due: number) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            const code = String(res.statusCode);
            statusCodes[code] = (statusCodes[code] ?? 0) + 1;
            if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) non2xx++;
            settle();
          });
        },
      );
      req.on('error', () => {
        errors++;
        settle();
      });
      req.end();
    };
    // Every millisecond, send what has fallen due (timers cannot pace finer than that).
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor((performance.now() - start) / interval) + 1);
      for (; sent < due; sent++) send(start + sent * interval);
      if (sent === total) clearInterval(timer);
    }, 1);
  });
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    requests: latencies.length,
    non2xx,
    errors,
    statusCodes,
    latencies,
  };
}

/** The q-quantile (ms, one decimal) of ascending latencies. */
export function quantile(sorted: readonly number[], q: number): number {
  return Math.round(10 * (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0)) / 10;
}

/** wrk's binary, or null (`apt-get install -y wrk`). */
export function wrkBinary(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean))
    if (existsSync(`${dir}/wrk`)) return `${dir}/wrk`;
  return existsSync('/usr/bin/wrk') ? '/usr/bin/wrk' : null;
}

const WRK_UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/**
 * One closed-model run of wrk (C, one thread: a few µs of CPU per request, where autocannon
 * costs tens): `connections` keep-alive connections, each sending its next request as soon as
 * the answer arrives, for `duration` seconds. `cpus` pins it (taskset -c) when given.
 */
export async function wrk(opts: {
  url: string;
  duration: number;
  connections?: number;
  cpus?: string;
}): Promise<LoadResult> {
  const bin = wrkBinary();
  if (!bin) throw new Error('wrk is not installed: apt-get install -y wrk');
  const args = ['-t1', `-c${opts.connections ?? 64}`, `-d${opts.duration}s`, '--latency', opts.url];
  const [cmd, argv] = opts.cpus ? ['taskset', ['-c', opts.cpus, bin, ...args]] : [bin, args];
  const child = spawn(cmd as string, argv as string[], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`wrk exited with ${code}:\n${out}`);
  const ms = (q: string) => {
    const m = new RegExp(`^\\s*${q}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return m ? Math.round(10 * Number(m[1]) * (WRK_UNITS[m[2] as string] ?? 1)) / 10 : Number.NaN;
  };
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
  const requests = num(/(\d+) requests in/);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = socketErrors ? socketErrors.slice(1).reduce((n, v) => n + Number(v), 0) : 0;
  return {
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50: ms('50'),
    p99: ms('99'),
    requests,
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
    errors,
    statusCodes: {},
  };
}

export function table(rows: Array<Record<string, string | number>>): void {
  console.table(rows);
}
