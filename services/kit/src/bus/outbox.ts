import { randomUUID } from 'node:crypto';
import type { EventEnvelope, EventPayload, EventSubject } from '@parley/contracts';
import pg from 'pg';
import type { Logger } from 'pino';
import { currentTraceparent } from '../telemetry.ts';
import type { EventBus } from './types.ts';

/** Anything that runs SQL inside the caller's transaction: a Prisma transaction client, or a pg client via pgExecutor. */
export interface SqlExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

export function pgExecutor(client: pg.ClientBase): SqlExecutor {
  return {
    async $executeRawUnsafe(query, ...values) {
      const res = await client.query(query, values);
      return res.rowCount ?? 0;
    },
  };
}

/** The tables every service's first migration creates (kept in its schema.prisma too). */
export const OUTBOX_SQL = `
CREATE TABLE IF NOT EXISTS "outbox_events" (
  "id" UUID NOT NULL PRIMARY KEY,
  "subject" TEXT NOT NULL,
  "payload" JSONB NOT NULL,
  "headers" JSONB NOT NULL DEFAULT '{}',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "published_at" TIMESTAMPTZ(3),
  "attempts" INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS "outbox_events_unpublished_idx" ON "outbox_events"("created_at");`;

export const INBOX_SQL = `
CREATE TABLE IF NOT EXISTS "inbox_events" (
  "consumer" TEXT NOT NULL,
  "event_id" UUID NOT NULL,
  "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY ("consumer", "event_id")
);`;

/** Wakes the relay as soon as an event row commits (the relay LISTENs on parley_outbox). */
export const OUTBOX_NOTIFY_SQL = `
CREATE OR REPLACE FUNCTION "parley_outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('parley_outbox', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER "outbox_events_notify" AFTER INSERT ON "outbox_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "parley_outbox_notify"();`;

export interface EnqueueOptions {
  /** Fixed id (tests); default a fresh uuid. */
  id?: string;
  occurredAt?: Date;
}

/**
 * Writes an event row in the caller's transaction: it is published if and only if the
 * change commits. The relay picks it up right after the commit.
 */
export async function enqueueEvent<S extends EventSubject>(
  tx: SqlExecutor,
  subject: S,
  payload: EventPayload<S>,
  opts: EnqueueOptions = {},
): Promise<EventEnvelope<EventPayload<S>>> {
  const traceparent = currentTraceparent();
  const envelope: EventEnvelope<EventPayload<S>> = {
    id: opts.id ?? randomUUID(),
    subject,
    occurredAt: (opts.occurredAt ?? new Date()).toISOString(),
    payload,
    ...(traceparent ? { traceparent } : {}),
  };
  await tx.$executeRawUnsafe(
    'INSERT INTO "outbox_events" ("id", "subject", "payload", "headers", "created_at") VALUES ($1::uuid, $2, $3::jsonb, $4::jsonb, $5::timestamptz)',
    envelope.id,
    subject,
    JSON.stringify(payload),
    JSON.stringify(traceparent ? { traceparent } : {}),
    envelope.occurredAt,
  );
  return envelope;
}

interface OutboxRow {
  id: string;
  subject: string;
  payload: unknown;
  headers: { traceparent?: string };
  created_at: Date;
}

const BATCH = 100;
const POLL_MS = 1000;
const RETENTION_HOURS = 24;

/**
 * Publishes committed outbox rows. Woken by NOTIFY on insert (low latency) with a poll
 * as a fallback; rows are claimed with FOR UPDATE SKIP LOCKED so any number of
 * replicas can relay at once without publishing a row twice (and JetStream's msgID
 * dedupe covers a crash between publish and commit).
 */
export class OutboxRelay {
  private readonly pool: pg.Pool;
  private readonly bus: EventBus;
  private readonly logger: Logger;
  private listener: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private draining: Promise<void> | null = null;
  private again = false;
  private lastCleanup = 0;

  constructor(opts: { pool: pg.Pool; bus: EventBus; logger: Logger }) {
    this.pool = opts.pool;
    this.bus = opts.bus;
    this.logger = opts.logger.child({ component: 'outbox-relay' });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.listen();
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  /** Stops relaying after publishing what is already committed (graceful shutdown). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => {});
    await this.draining;
    await this.drain().catch((err) => {
      // Ctrl-C reaches a local PostgreSQL too, which may already be going down: nothing is
      // lost, since unpublished events stay in the table for the next start to relay.
      if (isServerGoingAway(err)) {
        this.logger.warn(
          'final outbox flush skipped: the database is shutting down; unpublished events stay queued',
        );
      } else {
        this.logger.error({ err }, 'final outbox flush failed');
      }
    });
  }

  /** Events committed but not yet published. */
  async backlog(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM "outbox_events" WHERE "published_at" IS NULL',
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Runs a drain now, or once more after the current one. */
  kick(): void {
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        await this.drain().catch((err) => this.logger.warn({ err }, 'outbox relay pass failed; will retry'));
      } while (this.again && this.running);
    })().finally(() => {
      this.draining = null;
    });
  }

  private async listen(): Promise<void> {
    const client = new pg.Client(this.pool.options);
    client.on('error', () => {
      // Connection lost: fall back to polling and reconnect shortly.
      if (this.listener === client) this.listener = null;
      if (this.running) setTimeout(() => void this.listen(), POLL_MS).unref();
    });
    try {
      await client.connect();
      client.on('notification', () => this.kick());
      await client.query('LISTEN parley_outbox');
      if (!this.running) {
        await client.end();
        return;
      }
      this.listener = client;
    } catch (err) {
      this.logger.warn({ err }, 'outbox LISTEN unavailable; polling');
      await client.end().catch(() => {});
      if (this.running) setTimeout(() => void this.listen(), 5 * POLL_MS).unref();
    }
  }

  /** Publishes every unpublished row, batch by batch. */
  private async drain(): Promise<void> {
    for (;;) {
      const published = await this.relayBatch();
      if (published < BATCH) break;
    }
    if (Date.now() - this.lastCleanup > 3600_000) {
      this.lastCleanup = Date.now();
      await this.pool.query(
        `DELETE FROM "outbox_events" WHERE "published_at" < now() - interval '${RETENTION_HOURS} hours'`,
      );
    }
  }

  private async relayBatch(): Promise<number> {
    const client = await this.pool.connect();
    // A checked-out client has no pool error listener; while we wait on the bus its
    // connection may drop, which must fail this pass, not crash the process.
    let broken: Error | null = null;
    const onError = (err: Error) => {
      broken = err;
    };
    client.on('error', onError);
    const done: string[] = [];
    let failed: string | null = null;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<OutboxRow>(
        `SELECT "id", "subject", "payload", "headers", "created_at" FROM "outbox_events"
          WHERE "published_at" IS NULL ORDER BY "created_at", "id" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      for (const row of rows) {
        const envelope: EventEnvelope = {
          id: row.id,
          subject: row.subject,
          occurredAt: new Date(row.created_at).toISOString(),
          payload: row.payload,
          ...(row.headers?.traceparent ? { traceparent: row.headers.traceparent } : {}),
        };
        try {
          await this.bus.publish(envelope);
          done.push(row.id);
        } catch (err) {
          // Keep order: stop at the first failure and retry from there later.
          failed = row.id;
          this.logger.warn({ err, eventId: row.id, subject: row.subject }, 'publish failed; will retry');
          break;
        }
      }
      if (done.length)
        await client.query('UPDATE "outbox_events" SET "published_at" = now() WHERE "id" = ANY($1::uuid[])', [
          done,
        ]);
      if (failed)
        await client.query('UPDATE "outbox_events" SET "attempts" = "attempts" + 1 WHERE "id" = $1::uuid', [
          failed,
        ]);
      await client.query('COMMIT');
      return failed ? 0 : rows.length;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.removeListener('error', onError);
      // A broken connection is destroyed instead of going back to the pool.
      client.release(broken ?? undefined);
    }
  }
}

/** PostgreSQL refusing work because it is stopping (57P01 admin shutdown, 57P03 cannot connect now) or gone. */
function isServerGoingAway(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '57P01' || code === '57P03' || code === 'ECONNREFUSED' || code === 'ECONNRESET';
}
