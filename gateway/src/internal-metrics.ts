import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ServiceMetrics } from '@parley/kit';
import type { Logger } from 'pino';

type Registry = ServiceMetrics['registry'];
type Metric = Parameters<Registry['registerMetric']>[0];

/** How often the loop is sampled (ms): one timer per interval. */
const LOOP_SAMPLE_MS = 10;

/**
 * Node's loop-delay histogram records each whole interval between two samples, the sampling
 * period included (an idle loop sampled every 10 ms reads ~10 ms, as Node's own docs show);
 * the delay is what exceeds the period.
 */
export function loopDelayNs(intervalNs: number, sampleMs: number): number {
  return Math.max(0, intervalNs - sampleMs * 1e6);
}

/**
 * The gateway's event-loop delay, as Prometheus gauges of the interval since the previous
 * scrape (the convention of prom-client's own nodejs_eventloop_lag_* metrics): a scrape reads
 * p50, p99 and max, then starts a new interval. A proxy whose loop stalls adds that stall to
 * every request in flight, so this is the first figure to read when the tail grows.
 */
export function eventLoopDelayGauge(registry: Registry): { stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
  histogram.enable();
  const name = 'gateway_event_loop_delay_seconds';
  const help = 'Event-loop delay of the gateway since the previous scrape';
  // A gauge read at scrape time (the registry's metric interface; the gateway does not
  // depend on prom-client itself).
  const metric = {
    name,
    help,
    type: 'gauge',
    aggregator: 'max',
    async get() {
      const s = (ns: number) =>
        Number.isFinite(ns) && histogram.count > 0 ? loopDelayNs(ns, LOOP_SAMPLE_MS) / 1e9 : 0;
      const values = [
        { labels: { quantile: '0.5' }, value: s(histogram.percentile(50)) },
        { labels: { quantile: '0.99' }, value: s(histogram.percentile(99)) },
        { labels: { quantile: '1' }, value: s(histogram.max) },
      ];
      histogram.reset();
      return { name, help, type: 'gauge', aggregator: 'max', values };
    },
    reset() {
      histogram.reset();
    },
  };
  registry.registerMetric(metric as unknown as Metric);
  return {
    stop: () => {
      histogram.disable();
      registry.removeSingleMetric(name);
    },
  };
}

/**
 * The internal listener: `GET /metrics` and nothing else, on its own port, so the public
 * entry never serves the (large, revealing) per-route figures. Kubernetes scrapes this port;
 * the public Service and the ingress never route to it.
 */
export class MetricsListener {
  private server: Server | null = null;

  constructor(
    private readonly registry: Registry,
    private readonly logger: Logger,
  ) {}

  async listen(port: number, host: string): Promise<AddressInfo | null> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'Not Found', message: 'Only GET /metrics is served here.' }));
        return;
      }
      this.registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': this.registry.contentType });
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        (err: Error) => {
          this.logger.error({ err }, 'metrics collection failed');
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'Internal Server Error', message: 'Metrics collection failed.' }));
        },
      );
    });
    // Scrapers reconnect every interval; nothing is worth keeping a connection for.
    server.keepAliveTimeout = 5_000;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      // Another process holds the port (two local platforms at once): the gateway still serves
      // its users; only its metrics are missing, and this says so loudly.
      this.logger.error({ err, port }, 'the metrics port is taken: metrics are not served');
      return null;
    }
    this.server = server;
    return server.address() as AddressInfo;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

/** One series of the fast path's request metrics: a count per duration bucket (not cumulative), sum, total. */
interface FastSeries {
  method: string;
  route: string;
  status: number;
  statusCode: string;
  buckets: number[];
  sum: number;
  count: number;
}

type MetricValue = { labels: Record<string, string | number>; value: number; metricName?: string };
type MetricData = { name: string; help: string; type: string; aggregator: string; values: MetricValue[] };

/**
 * The kit's two request metrics (http_server_request_duration_seconds and
 * http_server_requests_total) as the fast path records them: plain numbers per series, merged
 * with what prom-client holds for the Fastify path when a scrape reads them, so both paths still
 * feed the same series. prom-client's own observe and inc label, validate and hash every call
 * (the largest of the gateway's own functions in its profile, docs/benchmarks.md); a series here
 * is found by route, then method and status, with no string built.
 */
export class FastRequestMetrics {
  private readonly routes = new Map<string, FastSeries[]>();

  constructor(private readonly bounds: readonly number[]) {}

  record(method: string, route: string, status: number, seconds: number): void {
    let list = this.routes.get(route);
    if (!list) {
      list = [];
      this.routes.set(route, list);
    }
    let series: FastSeries | undefined;
    for (const s of list)
      if (s.status === status && s.method === method) {
        series = s;
        break;
      }
    if (!series) {
      series = {
        method,
        route,
        status,
        statusCode: String(status),
        buckets: this.bounds.map(() => 0),
        sum: 0,
        count: 0,
      };
      list.push(series);
    }
    series.count++;
    series.sum += seconds;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++)
      if (seconds <= (bounds[i] as number)) {
        series.buckets[i] = (series.buckets[i] as number) + 1;
        break;
      }
  }

  *series(): Generator<FastSeries> {
    for (const list of this.routes.values()) yield* list;
  }

  reset(): void {
    this.routes.clear();
  }

  /**
   * Puts this recorder behind the registry's two request metrics: each is replaced by one that
   * reads prom-client's (public get()) and adds this recorder's series to it.
   */
  mergeInto(metrics: ServiceMetrics): void {
    const { registry, httpDuration, httpRequests } = metrics;
    const labelsOf = (s: FastSeries) => ({ method: s.method, route: s.route, status_code: s.statusCode });
    const keyOf = (metricName: string, labels: Record<string, string | number>) =>
      `${metricName}|${labels.method}|${labels.route}|${labels.status_code}|${labels.le ?? ''}`;
    const merged = (data: MetricData, add: (s: FastSeries, put: (v: MetricValue) => void) => void) => {
      const values = data.values.map((v) => ({ ...v, labels: { ...v.labels } }));
      const index = new Map(values.map((v) => [keyOf(v.metricName ?? data.name, v.labels), v]));
      for (const s of this.series())
        add(s, (v) => {
          const known = index.get(keyOf(v.metricName ?? data.name, v.labels));
          if (known) known.value += v.value;
          else {
            values.push(v);
            index.set(keyOf(v.metricName ?? data.name, v.labels), v);
          }
        });
      return { ...data, values };
    };
    // prom-client keeps each metric's name and help as plain fields (not in its typings).
    const about = (m: unknown) => m as { name: string; help: string };
    const duration = {
      name: about(httpDuration).name,
      help: about(httpDuration).help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () =>
        merged((await httpDuration.get()) as unknown as MetricData, (s, put) => {
          const name = duration.name;
          let acc = 0;
          this.bounds.forEach((le, i) => {
            acc += s.buckets[i] as number;
            put({ labels: { le, ...labelsOf(s) }, value: acc, metricName: `${name}_bucket` });
          });
          put({ labels: { le: '+Inf', ...labelsOf(s) }, value: s.count, metricName: `${name}_bucket` });
          put({ labels: labelsOf(s), value: s.sum, metricName: `${name}_sum` });
          put({ labels: labelsOf(s), value: s.count, metricName: `${name}_count` });
        }),
      reset: () => {
        httpDuration.reset();
        this.reset();
      },
    };
    const requests = {
      name: about(httpRequests).name,
      help: about(httpRequests).help,
      type: 'counter',
      aggregator: 'sum',
      get: async () =>
        merged((await httpRequests.get()) as unknown as MetricData, (s, put) =>
          put({ labels: labelsOf(s), value: s.count }),
        ),
      reset: () => {
        httpRequests.reset();
        this.reset();
      },
    };
    for (const metric of [duration, requests]) {
      registry.removeSingleMetric(metric.name);
      registry.registerMetric(metric as unknown as Metric);
    }
  }
}
