import { createServiceMetrics, HTTP_DURATION_BUCKETS } from '@parley/kit';
import { describe, expect, it } from 'vitest';
import { FastRequestMetrics } from '../src/internal-metrics.ts';

/** The fast path's request metrics feed the same series as the kit's prom-client ones. */
describe('FastRequestMetrics', () => {
  it('adds its series to the kit’s at each scrape, as prom-client would have counted them', async () => {
    const metrics = createServiceMetrics('gateway-test');
    const fast = new FastRequestMetrics(HTTP_DURATION_BUCKETS);
    fast.mergeInto(metrics);
    // The Fastify path (prom-client) and the fast path on one series, the fast path alone on another.
    const labels = { method: 'GET', route: '/api/health/booking', status_code: '200' };
    metrics.httpDuration.observe(labels, 0.002);
    metrics.httpRequests.inc(labels);
    fast.record('GET', '/api/health/booking', 200, 0.0004);
    fast.record('GET', '/api/health/booking', 200, 0.03);
    fast.record('HEAD', '/api/health/booking', 503, 7);

    // The same observations straight into prom-client, for comparison.
    const expected = createServiceMetrics('gateway-test');
    for (const [method, status, seconds] of [
      ['GET', '200', 0.002],
      ['GET', '200', 0.0004],
      ['GET', '200', 0.03],
      ['HEAD', '503', 7],
    ] as const) {
      const l = { method, route: '/api/health/booking', status_code: status };
      expected.httpDuration.observe(l, seconds);
      expected.httpRequests.inc(l);
    }
    const lines = async (m: typeof metrics) =>
      (await m.registry.metrics())
        .split('\n')
        .filter((l) => l.startsWith('http_server_request'))
        // Label order within a line is not part of the format.
        .map((l) => {
          const [, name, body, value] = /^(\w+)\{(.*)\} (\S+)$/.exec(l) ?? [];
          return `${name}{${(body ?? '').split(',').sort().join(',')}} ${Number(value).toFixed(6)}`;
        })
        .sort();
    const got = await lines(metrics);
    expect(got).toEqual(await lines(expected));
    expect(got).toContain(
      'http_server_requests_total{method="GET",route="/api/health/booking",service="gateway-test",status_code="200"} 3.000000',
    );

    metrics.registry.resetMetrics();
    expect(await lines(metrics)).toEqual([]);
  });
});
