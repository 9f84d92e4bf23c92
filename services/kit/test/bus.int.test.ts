import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@parley/contracts';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimEvent } from '../src/bus/inbox.ts';
import { createNatsBus } from '../src/bus/nats.ts';
import {
  enqueueEvent,
  INBOX_SQL,
  OUTBOX_NOTIFY_SQL,
  OUTBOX_SQL,
  OutboxRelay,
  pgExecutor,
} from '../src/bus/outbox.ts';
import type { EventBus } from '../src/bus/types.ts';
import { createPool } from '../src/db/pool.ts';
import { createLogger } from '../src/logger.ts';
import { type NatsServer, startNatsServer } from '../src/testing/nats.ts';
import { createTestDatabase } from '../src/testing/postgres.ts';

const logger = createLogger('bus-int', 'silent');
const uniq = () => randomUUID().slice(0, 8);

const until = async (cond: () => boolean | Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const envelope = (subject = 'booking.booking.created'): EventEnvelope => ({
  id: randomUUID(),
  subject,
  occurredAt: new Date().toISOString(),
  payload: { at: Date.now() },
});

async function outboxDatabase(prefix: string): Promise<pg.Pool> {
  const pool = createPool(await createTestDatabase(prefix), 8);
  await pool.query(OUTBOX_SQL + INBOX_SQL + OUTBOX_NOTIFY_SQL);
  await pool.query('CREATE TABLE effects (event_id uuid NOT NULL, n int NOT NULL)');
  return pool;
}

/** Commits `n` events, each in its own transaction, like a service's writes. */
async function commitEvents(pool: pg.Pool, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const e = await enqueueEvent(pgExecutor(client), 'booking.contact.submitted', { i } as never);
      ids.push(e.id);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }
  return ids;
}

describe('NATS JetStream bus', () => {
  let bus: EventBus;
  beforeAll(async () => {
    bus = await createNatsBus({ url: process.env.NATS_URL as string, name: 'bus-int', logger });
  });
  afterAll(() => bus?.close());

  it('delivers a published event once, with its trace context, despite a duplicate publish', async () => {
    const got: EventEnvelope[] = [];
    const sub = await bus.subscribe({
      durable: `t-dedupe-${uniq()}`,
      subjects: ['booking.booking.status_changed'],
      handler: async (e) => void got.push(e),
    });
    const e = {
      ...envelope('booking.booking.status_changed'),
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    };
    // A new durable replays the stream: only count this test's event.
    await bus.publish(e);
    await bus.publish(e);
    await until(() => got.some((g) => g.id === e.id));
    await new Promise((r) => setTimeout(r, 300));
    const mine = got.filter((g) => g.id === e.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.traceparent).toBe(e.traceparent);
    expect(mine[0]?.payload).toEqual(e.payload);
    await sub.stop();
  });

  it('naks a failing event for redelivery and terminates it after maxDeliver', async () => {
    const counts: number[] = [];
    const e = envelope('booking.booking.status_changed');
    const sub = await bus.subscribe({
      durable: `t-poison-${uniq()}`,
      subjects: ['booking.booking.status_changed'],
      maxDeliver: 3,
      retryDelayMs: 50,
      handler: async (got, { deliveryCount }) => {
        if (got.id !== e.id) return;
        counts.push(deliveryCount);
        throw new Error('poison');
      },
    });
    await bus.publish(e);
    await until(() => counts.length === 3);
    await new Promise((r) => setTimeout(r, 500));
    expect(counts).toEqual([1, 2, 3]);
    await sub.stop();
  });

  it('shares a durable between replicas: each event is handled by exactly one of them', async () => {
    const durable = `t-shared-${uniq()}`;
    const seen = new Map<string, number>();
    const ids = new Set<string>();
    const handler = async (e: EventEnvelope) => {
      if (ids.has(e.id)) seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
    };
    const other = await createNatsBus({ url: process.env.NATS_URL as string, name: 'bus-int-2', logger });
    const subA = await bus.subscribe({ durable, subjects: ['booking.booking.created'], handler });
    const subB = await other.subscribe({ durable, subjects: ['booking.booking.created'], handler });
    const events = Array.from({ length: 50 }, () => envelope());
    for (const e of events) ids.add(e.id);
    await Promise.all(events.map((e) => bus.publish(e)));
    await until(() => seen.size === 50);
    await new Promise((r) => setTimeout(r, 300));
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(await bus.lag()).toHaveProperty(durable);
    await subA.stop();
    await subB.stop();
    await other.close();
  });
});

describe('transactional outbox', () => {
  let nats: NatsServer;
  let pool: pg.Pool;
  beforeAll(async () => {
    nats = await startNatsServer();
    pool = await outboxDatabase('outbox');
  });
  afterAll(async () => {
    await pool?.end();
    await nats?.dispose();
  });

  it('delivers every event committed while NATS was down exactly once when it is back', async () => {
    const producer = await createNatsBus({ url: nats.url, name: 'producer', logger });
    const consumer = await createNatsBus({ url: nats.url, name: 'consumer', logger });
    const received = new Map<string, number>();
    await consumer.subscribe({
      durable: 'outbox-test',
      subjects: ['booking.contact.submitted'],
      handler: async (e) => void received.set(e.id, (received.get(e.id) ?? 0) + 1),
    });
    const relay = new OutboxRelay({ pool, bus: producer, logger });
    relay.start();

    await nats.stop();
    const ids = await commitEvents(pool, 20);
    await new Promise((r) => setTimeout(r, 1500)); // the relay tries and fails meanwhile
    expect(await relay.backlog()).toBe(20);

    await nats.start();
    await until(() => received.size === 20, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect([...received.keys()].sort()).toEqual([...ids].sort());
    expect([...received.values()].every((n) => n === 1)).toBe(true);
    expect(await relay.backlog()).toBe(0);

    await relay.stop();
    await producer.close();
    await consumer.close();
  });

  it('publishes each row once with two relays running at the same time', async () => {
    const published = new Map<string, number>();
    // A real bus underneath; the wrapper only counts what each relay publishes.
    const real = await createNatsBus({ url: nats.url, name: 'relays', logger });
    const counting: EventBus = {
      ...real,
      kind: real.kind,
      publish: async (e) => {
        published.set(e.id, (published.get(e.id) ?? 0) + 1);
        await real.publish(e);
      },
    };
    const relays = [
      new OutboxRelay({ pool, bus: counting, logger }),
      new OutboxRelay({ pool, bus: counting, logger }),
    ];
    for (const r of relays) r.start();
    const ids = await Promise.all(Array.from({ length: 4 }, () => commitEvents(pool, 50))).then((x) =>
      x.flat(),
    );
    await until(async () => (await relays[0]?.backlog()) === 0, 30_000);
    await Promise.all(relays.map((r) => r.stop()));
    for (const id of ids) expect(published.get(id), id).toBe(1);
    await real.close();
  });

  it('flushes committed events on stop', async () => {
    const got: string[] = [];
    const bus = await createNatsBus({ url: nats.url, name: 'flush', logger });
    const relay = new OutboxRelay({
      pool,
      bus: { ...bus, kind: bus.kind, publish: async (e) => void got.push(e.id) },
      logger,
    });
    const ids = await commitEvents(pool, 5);
    relay.start();
    await relay.stop();
    expect(got).toEqual(expect.arrayContaining(ids));
    await bus.close();
  });
});

describe('inbox', () => {
  let pool: pg.Pool;
  let bus: EventBus;
  beforeAll(async () => {
    pool = await outboxDatabase('inbox');
    bus = await createNatsBus({ url: process.env.NATS_URL as string, name: 'inbox-int', logger });
  });
  afterAll(async () => {
    await bus?.close();
    await pool?.end();
  });

  it('gives a redelivered event one effect', async () => {
    const e = envelope('booking.contact.submitted');
    let deliveries = 0;
    await bus.subscribe({
      durable: `t-inbox-${uniq()}`,
      subjects: ['booking.contact.submitted'],
      retryDelayMs: 50,
      handler: async (got, { deliveryCount }) => {
        if (got.id !== e.id) return;
        deliveries++;
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          if (await claimEvent(pgExecutor(client), 'inbox-test', got.id)) {
            await client.query('INSERT INTO effects (event_id, n) VALUES ($1, $2)', [got.id, deliveryCount]);
          }
          await client.query('COMMIT');
        } finally {
          client.release();
        }
        // The first delivery commits its effect, then "crashes" before the ack.
        if (deliveryCount === 1) throw new Error('lost ack');
      },
    });
    await bus.publish(e);
    await until(() => deliveries >= 2);
    const { rows } = await pool.query('SELECT n FROM effects WHERE event_id = $1', [e.id]);
    expect(rows).toEqual([{ n: 1 }]);
  });
});
