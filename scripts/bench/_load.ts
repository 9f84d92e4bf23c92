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
  const at = (q: number) =>
    Math.round(10 * (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0)) / 10;
  return {
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    requests: latencies.length,
    non2xx,
    errors,
    statusCodes,
  };
}

export function table(rows: Array<Record<string, string | number>>): void {
  console.table(rows);
}
