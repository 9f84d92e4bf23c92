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

export function table(rows: Array<Record<string, string | number>>): void {
  console.table(rows);
}
