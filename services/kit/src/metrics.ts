import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one service: HTTP, database pool, outbox backlog, consumer lag. */
export interface ServiceMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  httpRequests: Counter<'method' | 'route' | 'status_code'>;
  /** The event backbone: deliveries by outcome, outbox publishes, failures and dead letters. */
  events: {
    deliveries: Counter<'consumer' | 'outcome'>;
    outbox: { published: Counter<string>; failed: Counter<string>; dead: Counter<string> };
  };
}

let defaultsRegistered = false;

/** Upper bounds (seconds) of http_server_request_duration_seconds. */
export const HTTP_DURATION_BUCKETS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

export function createServiceMetrics(
  service: string,
  sources: {
    pool?: pg.Pool;
    outboxBacklog?: () => Promise<number>;
    consumerLag?: () => Promise<Record<string, number>>;
    /** Dead letters waiting (consumers' and the outbox's). */
    deadLetters?: () => Promise<number>;
    busConnected?: () => boolean;
  } = {},
): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // Process metrics once per process (the embedded mode runs every service in one).
  if (!defaultsRegistered) {
    collectDefaultMetrics({ register: registry });
    defaultsRegistered = true;
  }
  const httpDuration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [...HTTP_DURATION_BUCKETS],
    registers: [registry],
  });
  const httpRequests = new Counter({
    name: 'http_server_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const { pool, outboxBacklog, consumerLag, deadLetters, busConnected } = sources;
  const events: ServiceMetrics['events'] = {
    deliveries: new Counter({
      name: 'bus_deliveries_total',
      help: 'Event deliveries handled, by consumer and outcome (ack, retry, dead_lettered)',
      labelNames: ['consumer', 'outcome'] as const,
      registers: [registry],
    }),
    outbox: {
      published: new Counter({
        name: 'outbox_published_total',
        help: 'Outbox events published',
        registers: [registry],
      }),
      failed: new Counter({
        name: 'outbox_publish_failures_total',
        help: 'Outbox events that failed to publish for their own reasons (retried with backoff)',
        registers: [registry],
      }),
      dead: new Counter({
        name: 'outbox_dead_lettered_total',
        help: 'Outbox events moved to the dead letters',
        registers: [registry],
      }),
    },
  };
  if (deadLetters) {
    new Gauge({
      name: 'dead_letters_waiting',
      help: 'Dead letters (consumers and outbox) waiting for a replay or a decision',
      registers: [registry],
      async collect() {
        this.set(await deadLetters().catch(() => -1));
      },
    });
  }
  if (busConnected) {
    new Gauge({
      name: 'bus_connected',
      help: '1 while the event bus takes publishes, 0 while it is away (the outbox keeps events)',
      registers: [registry],
      collect() {
        this.set(busConnected() ? 1 : 0);
      },
    });
  }
  if (pool) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }
  if (outboxBacklog) {
    new Gauge({
      name: 'outbox_backlog_events',
      help: 'Outbox events not yet published',
      registers: [registry],
      async collect() {
        this.set(await outboxBacklog().catch(() => -1));
      },
    });
  }
  if (consumerLag) {
    new Gauge({
      name: 'bus_consumer_lag_messages',
      help: 'Messages pending per durable consumer',
      labelNames: ['consumer'] as const,
      registers: [registry],
      async collect() {
        const lag = await consumerLag().catch(() => ({}) as Record<string, number>);
        for (const [consumer, n] of Object.entries(lag)) this.set({ consumer }, n);
      },
    });
  }
  return { registry, httpDuration, httpRequests, events };
}
