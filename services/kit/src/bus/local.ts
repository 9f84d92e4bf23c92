import { fileURLToPath } from 'node:url';
import { type EventEnvelope, producerOf, STREAM_LIMITS, streamOf } from '@parley/contracts';
import pg from 'pg';
import type { Logger } from 'pino';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { Dispatcher } from './dispatcher.ts';
import {
  type BusConsumer,
  BusUnavailableError,
  type EventBus,
  type PublishResult,
  type Responder,
  type Subscription,
} from './types.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/bus', import.meta.url));
/** Guards consumer registration against publishes in flight (shared: publish, exclusive: register). */
const REGISTRATION_LOCK = 7_301_001;
/** Held for the bus's lifetime: one process owns a bus database (its leases are its own). */
const OWNER_LOCK = 7_301_002;
const LEASE_MS = 60_000;
const POLL_MS = 1000;

export interface LocalBusOptions {
  /** The bus's own database (`parley_bus` in the embedded PostgreSQL). */
  databaseUrl: string;
  logger: Logger;
}

/**
 * The embedded mode's bus: the same promise as JetStream, kept in PostgreSQL. Each publish is
 * committed to a log (`bus_events`, the id deduplicates) together with one queue row per
 * durable consumer of its subject (`bus_pending`); a durable registered later starts from the
 * beginning of the log, as a new JetStream durable does. A delivery is leased, acknowledged by
 * deleting its queue row and retried by moving its due time, so a crash (even SIGKILL) loses
 * nothing that was published, whatever order services start in. Consumers run with the same
 * bounded, per-aggregate ordered concurrency as on NATS. Request/reply stays in memory.
 */
export async function createLocalBus(opts: LocalBusOptions): Promise<EventBus> {
  await migrate(opts.databaseUrl, MIGRATIONS_DIR);
  const log = opts.logger.child({ bus: 'local' });
  const pool = createPool(opts.databaseUrl, 10);

  const owner = new pg.Client({ connectionString: opts.databaseUrl });
  await owner.connect();
  owner.on('error', () => {});
  const { rows } = await owner.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [OWNER_LOCK]);
  if (!rows[0]?.ok) {
    await owner.end();
    await pool.end();
    throw new Error('another process already runs the event bus on this database');
  }
  // Leases of a previous run (killed mid-delivery) are void: this process is the only owner.
  await pool.query('UPDATE "bus_pending" SET "leased_until" = NULL WHERE "leased_until" IS NOT NULL');

  const wakers = new Map<string, { subjects: readonly string[]; wake: () => void }>();
  const subscriptions = new Set<Subscription>();
  const responders = new Map<string, Responder[]>();
  let closed = false;
  let lastPrune = 0;

  async function publishBatch(events: readonly EventEnvelope[]): Promise<PublishResult[]> {
    if (closed) return events.map(() => ({ ok: false, error: new BusUnavailableError('bus is closed') }));
    if (!events.length) return [];
    let client: pg.PoolClient | null = null;
    try {
      client = await pool.connect();
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock_shared($1)', [REGISTRATION_LOCK]);
      const inserted = await client.query<{ seq: string; subject: string }>(
        `INSERT INTO "bus_events" ("id", "subject", "stream", "envelope")
         SELECT e.id, e.subject, e.stream, e.envelope::jsonb
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS e(id, subject, stream, envelope, n)
          ORDER BY e.n
         ON CONFLICT ("id") DO NOTHING RETURNING "seq", "subject"`,
        [
          events.map((e) => e.id),
          events.map((e) => e.subject),
          events.map((e) => streamOf(producerOf(e.subject))),
          events.map((e) => JSON.stringify(e)),
        ],
      );
      if (inserted.rows.length) {
        await client.query(
          `INSERT INTO "bus_pending" ("durable", "seq")
           SELECT c."durable", e.seq FROM unnest($1::bigint[], $2::text[]) AS e(seq, subject)
             JOIN "bus_consumers" c ON e.subject = ANY(c."subjects")`,
          [inserted.rows.map((r) => r.seq), inserted.rows.map((r) => r.subject)],
        );
      }
      await client.query('COMMIT');
      const subjects = new Set(inserted.rows.map((r) => r.subject));
      for (const w of wakers.values()) if (w.subjects.some((s) => subjects.has(s))) w.wake();
      return events.map(() => ({ ok: true }));
    } catch (err) {
      await client?.query('ROLLBACK').catch(() => {});
      const error = new BusUnavailableError(
        `the event log could not take the events: ${(err as Error).message}`,
      );
      return events.map(() => ({ ok: false, error }));
    } finally {
      client?.release();
    }
  }

  async function register(consumer: BusConsumer): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [REGISTRATION_LOCK]);
      const { rows: created } = await client.query<{ created: boolean }>(
        `INSERT INTO "bus_consumers" ("durable", "subjects") VALUES ($1, $2)
         ON CONFLICT ("durable") DO UPDATE SET "subjects" = EXCLUDED."subjects"
         RETURNING (xmax = 0) AS created`,
        [consumer.durable, [...consumer.subjects]],
      );
      if (created[0]?.created) {
        // A new durable starts at the beginning of the log (DeliverPolicy.All on NATS).
        await client.query(
          `INSERT INTO "bus_pending" ("durable", "seq")
           SELECT $1, "seq" FROM "bus_events" WHERE "subject" = ANY($2) ON CONFLICT DO NOTHING`,
          [consumer.durable, [...consumer.subjects]],
        );
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  function run(consumer: BusConsumer): Subscription {
    const dispatcher = new Dispatcher(consumer.concurrency);
    const inFlight = new Set<string>();
    let active = true;
    let wake: (() => void) | null = null;
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(done, ms);
        function done() {
          clearTimeout(t);
          wake = null;
          resolve();
        }
        wake = done;
      });
    wakers.set(consumer.durable, { subjects: consumer.subjects, wake: () => wake?.() });

    // Long deliveries keep their lease.
    const heartbeat = setInterval(() => {
      if (!inFlight.size) return;
      void pool
        .query(
          `UPDATE "bus_pending" SET "leased_until" = now() + $3 * interval '1 millisecond'
            WHERE "durable" = $1 AND "seq" = ANY($2::bigint[])`,
          [consumer.durable, [...inFlight], LEASE_MS],
        )
        .catch(() => {});
    }, LEASE_MS / 3);
    heartbeat.unref();

    const settle = async (seq: string, outcome: Awaited<ReturnType<BusConsumer['deliver']>>) => {
      if ('ack' in outcome) {
        await pool.query('DELETE FROM "bus_pending" WHERE "durable" = $1 AND "seq" = $2', [
          consumer.durable,
          seq,
        ]);
      } else {
        await pool.query(
          `UPDATE "bus_pending" SET "leased_until" = NULL,
                  "due_at" = now() + $3 * interval '1 millisecond'
            WHERE "durable" = $1 AND "seq" = $2`,
          [consumer.durable, seq, outcome.retryInMs],
        );
      }
    };

    const done = (async () => {
      while (active) {
        await dispatcher.slot();
        if (!active) break;
        let claimed: Array<{ seq: string; deliveries: number; envelope: EventEnvelope }> = [];
        try {
          const free = dispatcher.limit - dispatcher.running;
          const { rows: got } = await pool.query<{
            seq: string;
            deliveries: number;
            envelope: EventEnvelope;
          }>(
            `WITH due AS (
               SELECT "durable", "seq" FROM "bus_pending"
                WHERE "durable" = $1 AND "due_at" <= now() AND ("leased_until" IS NULL OR "leased_until" < now())
                ORDER BY "seq" LIMIT $2 FOR UPDATE SKIP LOCKED),
             leased AS (
               UPDATE "bus_pending" p SET "deliveries" = p."deliveries" + 1,
                      "leased_until" = now() + $3 * interval '1 millisecond'
                 FROM due WHERE p."durable" = due."durable" AND p."seq" = due."seq"
               RETURNING p."seq", p."deliveries")
             SELECT l."seq", l."deliveries", e."envelope" FROM leased l JOIN "bus_events" e ON e."seq" = l."seq"
              ORDER BY l."seq"`,
            [consumer.durable, free, LEASE_MS],
          );
          claimed = got;
        } catch (err) {
          if (active) log.warn({ err, durable: consumer.durable }, 'reading the event log failed; retrying');
        }
        if (!claimed.length) {
          if (active) await sleep(POLL_MS);
          continue;
        }
        for (const row of claimed) {
          inFlight.add(row.seq);
          dispatcher.run(row.envelope.key, async () => {
            try {
              const outcome = await consumer.deliver(row.envelope, row.deliveries);
              // If this write fails the lease runs out and the event is delivered again.
              await settle(row.seq, outcome).catch((err) =>
                log.warn({ err, durable: consumer.durable }, 'could not record a delivery outcome'),
              );
            } finally {
              inFlight.delete(row.seq);
            }
          });
        }
      }
    })();

    const sub: Subscription = {
      async stop() {
        active = false;
        wake?.();
        wakers.delete(consumer.durable);
        subscriptions.delete(sub);
        await done;
        await dispatcher.idle();
        clearInterval(heartbeat);
      },
    };
    subscriptions.add(sub);
    return sub;
  }

  async function prune(): Promise<void> {
    if (Date.now() - lastPrune < 3600_000) return;
    lastPrune = Date.now();
    for (const [service, limits] of Object.entries(STREAM_LIMITS)) {
      if (!limits.maxAgeDays) continue;
      await pool.query(
        `DELETE FROM "bus_events" e WHERE e."stream" = $1 AND e."stored_at" < now() - $2 * interval '1 day'
            AND NOT EXISTS (SELECT 1 FROM "bus_pending" p WHERE p."seq" = e."seq")`,
        [streamOf(service as keyof typeof STREAM_LIMITS), limits.maxAgeDays],
      );
    }
  }
  const pruneTimer = setInterval(() => void prune().catch(() => {}), 60_000);
  pruneTimer.unref();

  return {
    kind: 'in-process',
    async publish(event) {
      const [result] = await publishBatch([event]);
      if (result && !result.ok) throw result.error;
    },
    publishBatch,
    async subscribe(consumer) {
      if (closed) throw new BusUnavailableError('bus is closed');
      if (wakers.has(consumer.durable)) throw new Error(`durable ${consumer.durable} is already subscribed`);
      await register(consumer);
      return run(consumer);
    },
    async request(subject, payload, requestOpts = {}) {
      const list = responders.get(subject);
      const responder = list?.[0];
      if (!list || !responder) throw new BusUnavailableError(`no answer on ${subject}: nobody responds`);
      list.push(list.shift() as Responder); // round robin among replicas
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          responder(structuredClone(payload)),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new BusUnavailableError(`no answer on ${subject}: timed out`)),
              requestOpts.timeoutMs ?? 5000,
            );
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    async respond(subject, _group, responder) {
      responders.set(subject, [...(responders.get(subject) ?? []), responder]);
      return {
        async stop() {
          responders.set(
            subject,
            (responders.get(subject) ?? []).filter((r) => r !== responder),
          );
        },
      };
    },
    isConnected() {
      return !closed;
    },
    async lag() {
      const { rows: lagRows } = await pool.query<{ durable: string; n: string }>(
        'SELECT "durable", count(*) AS n FROM "bus_pending" GROUP BY "durable"',
      );
      return Object.fromEntries(lagRows.map((r) => [r.durable, Number(r.n)]));
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(pruneTimer);
      await Promise.all([...subscriptions].map((s) => s.stop()));
      await owner.end().catch(() => {});
      await pool.end();
    },
  };
}
