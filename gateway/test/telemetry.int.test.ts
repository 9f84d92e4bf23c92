import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
// The producer is the real booking service (a test-only dependency of the gateway).
import { bookingService } from '@parley/booking/service';
import type { EventEnvelope } from '@parley/contracts';
import {
  BACKBONE_SCHEMA_SQL,
  busConsumer,
  createBus,
  createLogger,
  createPool,
  DeadLetters,
  type EventBus,
  type RunningService,
  type ServiceInstance,
  startService,
  startTelemetry,
  tracer,
} from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';

/**
 * Telemetry end to end: a booking made through the gateway yields ONE trace — the browser's
 * traceparent → gateway SERVER span → booking SERVER span → outbox row → NATS message header →
 * a consumer's CONSUMER span (parented on and linked to the producing span) — recorded by an
 * in-memory span exporter. Real PostgreSQL and NATS (global setup).
 */
const exporter = new InMemorySpanExporter();
// As every main.ts does: the kit is loaded first, then telemetry starts.
const telemetry = await startTelemetry({ serviceName: 'telemetry-e2e', exporter });

// The kit's tracer records once telemetry has started (it is looked up lazily).
const probe = tracer.startSpan('probe');
const kitTracerRecords = probe.isRecording();
probe.end();
const logger = createLogger('telemetry-e2e', 'silent');
const secret = randomBytes(32).toString('hex');
const natsUrl = process.env.NATS_URL;

let booking: RunningService;
let gateway: ServiceInstance;
let consumerBus: EventBus;
let base: string;
let bookingDb: string;
const consumed: { event: EventEnvelope; traceId?: string }[] = [];

// The "browser": a client span context of its own, sent as W3C traceparent.
const browserTraceId = randomBytes(16).toString('hex');
const browserSpanId = randomBytes(8).toString('hex');
const browserTraceparent = `00-${browserTraceId}-${browserSpanId}-01`;

beforeAll(async () => {
  if (!natsUrl) throw new Error('NATS_URL is not set (integration global setup)');
  bookingDb = await createTestDatabase('telemetry_booking');
  booking = await startService(bookingService, {
    env: { INTERNAL_AUTH_SECRET: secret, LOG_LEVEL: 'silent', DATABASE_URL: bookingDb, NATS_URL: natsUrl },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  gateway = await buildGateway(
    { INTERNAL_AUTH_SECRET: secret, BOOKING_URL: booking.url, WEB_DIST_DIR: '/nonexistent' },
    { logger },
  );
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  const addr = gateway.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  // Another service's consumer, on its own NATS connection.
  consumerBus = await createBus({ natsUrl, name: 'telemetry-consumer', logger });
  const consumerDb = createPool(await createTestDatabase('telemetry_consumer'), 2);
  await consumerDb.query(BACKBONE_SCHEMA_SQL);
  await consumerBus.subscribe(
    busConsumer(
      {
        durable: `telemetry-e2e-${randomBytes(4).toString('hex')}`,
        subjects: ['booking.booking.created'],
        handler: async (event) => {
          consumed.push({ event, traceId: trace.getActiveSpan()?.spanContext().traceId });
        },
      },
      { logger, deadLetters: new DeadLetters(consumerDb) },
    ),
  );
});

afterAll(async () => {
  await gateway?.close();
  await booking?.stop();
  await consumerBus?.close();
  await telemetry.shutdown();
});

async function waitFor<T>(what: string, fn: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const hex = (span: ReadableSpan) => span.spanContext().spanId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('one trace from the browser to the consumer', () => {
  it('the kit tracer records spans once startTelemetry ran', () => {
    expect(kitTracerRecords).toBe(true);
  });

  it('links gateway, booking, outbox, NATS and the consumer with one trace id', async () => {
    // A free slot (untraced lookups have their own traces; only the booking carries ours).
    let slot: string | undefined;
    for (let day = 0; day < 20 && !slot; day++) {
      const date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
      const r = await fetch(`${base}/api/bookings/available?date=${date}`);
      expect(r.status).toBe(200);
      slot = ((await r.json()) as { availableSlots: string[] }).availableSlots[0];
    }
    expect(slot, 'a free slot in the booking window').toBeTruthy();

    const res = await fetch(`${base}/api/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: browserTraceparent },
      body: JSON.stringify({
        name: 'Trace Test',
        email: 'trace@example.com',
        company: 'Traces Inc',
        timeSlot: slot,
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const bookingId = ((await res.json()) as { id: string }).id;

    // The consumer got the event, running inside our trace.
    const delivery = await waitFor('the consumer', () =>
      consumed.find((c) => (c.event.payload as { id?: string }).id === bookingId),
    );
    expect(delivery.traceId).toBe(browserTraceId);

    const spans = await waitFor('the consumer span', () => {
      const all = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === browserTraceId);
      return all.some((s) => s.kind === SpanKind.CONSUMER) ? all : undefined;
    });
    const servers = spans.filter((s) => s.kind === SpanKind.SERVER);
    // Gateway's server span: the browser's span is its parent.
    const gatewaySpan = servers.find((s) => parentOf(s) === browserSpanId);
    expect(gatewaySpan, spans.map((s) => `${s.name} ${hex(s)}<-${parentOf(s)}`).join('\n')).toBeTruthy();
    expect(gatewaySpan!.name).toMatch(/^POST /);
    // Booking's server span: a child of the gateway's (traceparent forwarded by the proxy).
    const bookingSpan = servers.find((s) => parentOf(s) === hex(gatewaySpan!));
    expect(bookingSpan, 'booking server span under the gateway span').toBeTruthy();
    expect(bookingSpan!.name).toMatch(/^POST /);
    expect(bookingSpan!.attributes['http.response.status_code']).toBe(201);
    expect(gatewaySpan!.attributes['http.response.status_code']).toBe(201);

    // Outbox: the event row written in the booking's transaction carries the booking span's context.
    const client = new pg.Client({ connectionString: bookingDb });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string; headers: { traceparent?: string } }>(
        `SELECT "id", "headers" FROM "outbox_events" WHERE "subject" = 'booking.booking.created' AND "headers"->>'traceparent' LIKE $1`,
        [`00-${browserTraceId}-%`],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.headers.traceparent).toBe(`00-${browserTraceId}-${hex(bookingSpan!)}-01`);
      expect(delivery.event.id).toBe(rows[0]!.id);
    } finally {
      await client.end();
    }

    // NATS: the published message carries the same traceparent in its headers.
    const nc = await connect({ servers: natsUrl! });
    try {
      const jsm = await jetstreamManager(nc);
      const msg = await jsm.streams.getMessage('BOOKING', { last_by_subj: 'booking.booking.created' });
      expect(msg?.header?.get('traceparent')).toBe(`00-${browserTraceId}-${hex(bookingSpan!)}-01`);
      expect(msg?.header?.get('Nats-Msg-Id')).toBe(delivery.event.id);
    } finally {
      await nc.close();
    }

    // Consumer: continues the trace under the producing span, and links to it.
    const consumer = spans.find((s) => s.kind === SpanKind.CONSUMER)!;
    expect(consumer.name).toBe('booking.booking.created process');
    expect(parentOf(consumer)).toBe(hex(bookingSpan!));
    expect(consumer.links.map((l) => l.context.spanId)).toEqual([hex(bookingSpan!)]);
    expect(consumer.links[0]!.context.traceId).toBe(browserTraceId);
    expect(consumer.attributes['messaging.message.id']).toBe(delivery.event.id);
    expect(consumer.attributes['parley.delivery_count']).toBe(1);

    // Everything in the trace descends from the browser's span (no orphan roots).
    const ids = new Set([browserSpanId, ...spans.map(hex)]);
    for (const s of spans)
      expect(ids.has(parentOf(s) ?? ''), `${s.name} has a parent in the trace`).toBe(true);
  });

  it('requests without a traceparent start their own trace at the gateway', async () => {
    exporter.reset();
    const r = await fetch(`${base}/health/live`);
    expect(r.status).toBe(200);
    const res = await fetch(`${base}/api/bookings/available?date=2000-01-01`);
    await res.text();
    const spans = await waitFor('spans', () => {
      const s = exporter.getFinishedSpans().filter((x) => x.kind === SpanKind.SERVER);
      return s.length >= 2 ? s : undefined;
    });
    const roots = spans.filter((s) => !parentOf(s));
    expect(roots.length).toBeGreaterThanOrEqual(1);
    for (const s of spans) expect(s.spanContext().traceId).not.toBe(browserTraceId);
  });
});
