import { randomUUID } from 'node:crypto';
import {
  type EventEnvelope,
  type EventPayload,
  type EventSubject,
  eventKey,
  eventPayloadProblem,
} from '@parley/contracts';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import { currentTraceparent } from '../telemetry.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelayMs } from './retry.ts';
import { BusUnavailableError, type EventBus } from './types.ts';

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

export interface EnqueueOptions {
  /** Fixed id (tests); default a fresh uuid. */
  id?: string;
  occurredAt?: Date;
}

/** An event that does not match the catalogue: a bug in the producer, refused before commit. */
export class EventContractError extends Error {
  override name = 'EventContractError';
}

/**
 * Writes an event row in the caller's transaction: it is published if and only if the
 * change commits. The payload is checked against the catalogue here, so a malformed event
 * fails the producer's transaction instead of reaching consumers. The relay picks the row up
 * right after the commit.
 */
export async function enqueueEvent<S extends EventSubject>(
  tx: SqlExecutor,
  subject: S,
  payload: EventPayload<S>,
  opts: EnqueueOptions = {},
): Promise<EventEnvelope<EventPayload<S>>> {
  const problem = eventPayloadProblem(subject, payload);
  if (problem) throw new EventContractError(problem);
  const traceparent = currentTraceparent();
  const key = eventKey(subject, payload);
  const envelope: EventEnvelope<EventPayload<S>> = {
    id: opts.id ?? randomUUID(),
    subject,
    occurredAt: (opts.occurredAt ?? new Date()).toISOString(),
    payload,
    key,
    ...(traceparent ? { traceparent } : {}),
  };
  await tx.$executeRawUnsafe(
    `INSERT INTO "outbox_events" ("id", "subject", "payload", "headers", "created_at", "aggregate_key")
     VALUES ($1::uuid, $2, $3::jsonb, $4::jsonb, $5::timestamptz, $6)`,
    envelope.id,
    subject,
    JSON.stringify(payload),
    JSON.stringify(traceparent ? { traceparent } : {}),
    envelope.occurredAt,
    key,
  );
  return envelope;
}

interface OutboxRow {
  id: string;
  subject: string;
  payload: unknown;
  headers: { traceparent?: string };
  created_at: Date;
  aggregate_key: string | null;
  attempts: number;
}

const BATCH = 200;
const POLL_MS = 1000;
const RETENTION_HOURS = 24;
/** A row that fails this often for its own reasons (not the bus's) becomes a dead letter. */
export const OUTBOX_MAX_ATTEMPTS = 10;
/** Row backoff: 1 s doubling to 5 min, so ten attempts span about 17 minutes. */
const ROW_RETRY: RetryPolicy = { ...DEFAULT_RETRY_POLICY, maxDelayMs: 5 * 60_000 };
/** While the bus is away the relay waits, doubling up to this, then tries again. */
const MAX_PAUSE_MS = 15_000;

export interface OutboxMetrics {
  published: Counter<string>;
  failed: Counter<string>;
  dead: Counter<string>;
}

/**
 * Publishes committed outbox rows. Woken by NOTIFY on insert (low latency) with a poll as a
 * fallback; rows are claimed with FOR UPDATE SKIP LOCKED so any number of replicas relay at
 * once, and published with msgID = event id (a crash between publish and mark is deduplicated).
 *
 * - Order is kept per aggregate, not globally: a row waits while an earlier unpublished row
 *   of its aggregate is not in the same batch (in backoff, or being relayed by a replica);
 *   rows of one aggregate are published one after another, aggregates in parallel.
 * - A row that fails for its own reasons (a payload the catalogue refuses, a message the bus
 *   rejects) backs off on its own (`attempts`, `next_attempt_at`) and becomes a dead letter
 *   (`dead_at`, `last_error`) after OUTBOX_MAX_ATTEMPTS; the other rows keep flowing.
 * - While the bus itself is unavailable nothing is counted against rows: the relay pauses
 *   with backoff and everything waits, committed, in the table.
 */
export class OutboxRelay {
  private readonly pool: pg.Pool;
  private readonly bus: EventBus;
  private readonly logger: Logger;
  private readonly metrics: OutboxMetrics | undefined;
  private listener: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private draining: Promise<void> | null = null;
  private again = false;
  private lastCleanup = 0;
  private pausedUntil = 0;
  private pauseMs = 0;
  private readonly maxAttempts: number;
  private readonly rowRetry: RetryPolicy;

  constructor(opts: {
    pool: pg.Pool;
    bus: EventBus;
    logger: Logger;
    metrics?: OutboxMetrics;
    /** Attempts before a failing row is dead-lettered (default OUTBOX_MAX_ATTEMPTS). */
    maxAttempts?: number;
    /** Backoff between a failing row's attempts (default 1 s doubling to 5 min). */
    rowRetry?: RetryPolicy;
  }) {
    this.pool = opts.pool;
    this.bus = opts.bus;
    this.logger = opts.logger.child({ component: 'outbox-relay' });
    this.metrics = opts.metrics;
    this.maxAttempts = opts.maxAttempts ?? OUTBOX_MAX_ATTEMPTS;
    this.rowRetry = opts.rowRetry ?? ROW_RETRY;
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
    this.pausedUntil = 0;
    await this.drain().catch((err) => {
      // Ctrl-C reaches a local PostgreSQL too, which may already be going down: nothing is
      // lost, since unpublished events stay in the table for the next start to relay.
      if (isServerGoingAway(err)) {
        this.logger.warn(
          'final outbox flush skipped: the database is shutting down; unpublished events stay queued',
        );
      } else {
        this.logger.error({ err }, 'final outbox flush failed; unpublished events stay queued');
      }
    });
  }

  /** Events committed but not yet published (dead letters excluded). */
  async backlog(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM "outbox_events" WHERE "published_at" IS NULL AND "dead_at" IS NULL',
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
      this.logger.debug({ err }, 'outbox LISTEN unavailable; polling');
      await client.end().catch(() => {});
      if (this.running) setTimeout(() => void this.listen(), 5 * POLL_MS).unref();
    }
  }

  /** Publishes every due row, batch by batch. */
  private async drain(): Promise<void> {
    if (Date.now() < this.pausedUntil) return;
    for (;;) {
      const { claimed, stop } = await this.relayBatch();
      if (stop || claimed < BATCH) break;
    }
    if (Date.now() - this.lastCleanup > 3600_000) {
      this.lastCleanup = Date.now();
      await this.pool.query(
        `DELETE FROM "outbox_events" WHERE "published_at" < now() - interval '${RETENTION_HOURS} hours'`,
      );
    }
  }

  private pause(err: unknown): void {
    this.pauseMs = Math.min(MAX_PAUSE_MS, this.pauseMs ? this.pauseMs * 2 : 500);
    this.pausedUntil = Date.now() + this.pauseMs;
    this.logger.warn(
      { err, retryInMs: this.pauseMs },
      'the event bus is unavailable; outbox events wait in the database',
    );
  }

  private async relayBatch(): Promise<{ claimed: number; stop: boolean }> {
    const client = await this.pool.connect();
    // A checked-out client has no pool error listener; while we wait on the bus its
    // connection may drop, which must fail this pass, not crash the process.
    let broken: Error | null = null;
    const onError = (err: Error) => {
      broken = err;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const { rows: candidates } = await client.query<OutboxRow>(
        `SELECT "id", "subject", "payload", "headers", "created_at", "aggregate_key", "attempts"
           FROM "outbox_events"
          WHERE "published_at" IS NULL AND "dead_at" IS NULL AND "next_attempt_at" <= now()
          ORDER BY "created_at", "id" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      if (!candidates.length) {
        await client.query('COMMIT');
        return { claimed: 0, stop: true };
      }
      // Aggregate order: a row whose aggregate has an earlier unpublished row outside this
      // batch (backing off, or locked by another relay) waits for it.
      const blocked = new Set(
        (
          await client.query<{ id: string }>(
            `SELECT c."id" FROM unnest($1::uuid[]) AS c(id)
               JOIN "outbox_events" r ON r."id" = c.id
              WHERE r."aggregate_key" IS NOT NULL AND EXISTS (
                SELECT 1 FROM "outbox_events" e
                 WHERE e."aggregate_key" = r."aggregate_key" AND e."published_at" IS NULL AND e."dead_at" IS NULL
                   AND (e."created_at", e."id") < (r."created_at", r."id") AND NOT (e."id" = ANY($1::uuid[])))`,
            [candidates.map((r) => r.id)],
          )
        ).rows.map((r) => r.id),
      );
      const rows = candidates.filter((r) => !blocked.has(r.id));

      const published: string[] = [];
      const failed: Array<{ row: OutboxRow; error: string }> = [];
      let unavailable: unknown = null;
      // One chain per aggregate keeps its order; aggregates go in parallel.
      const chains = new Map<string, OutboxRow[]>();
      for (const row of rows) {
        const k = row.aggregate_key ?? row.id;
        chains.set(k, [...(chains.get(k) ?? []), row]);
      }
      // In waves: the first row of every aggregate together, then the second, ...; an
      // aggregate whose row failed stops there (its later rows wait behind it).
      let live = [...chains.values()];
      for (let wave = 0; live.length && !unavailable; wave++) {
        const ready: OutboxRow[] = [];
        for (const chain of live) {
          const row = chain[wave] as OutboxRow;
          const problem = eventPayloadProblem(row.subject, row.payload);
          if (problem) failed.push({ row, error: problem });
          else ready.push(row);
        }
        const results = await this.bus.publishBatch(ready.map(envelopeOf));
        const stopped = new Set<string>(failed.map((f) => f.row.id));
        for (const [i, row] of ready.entries()) {
          const result = results[i];
          if (result?.ok) {
            published.push(row.id);
            continue;
          }
          const error = result?.error;
          stopped.add(row.id);
          if (error instanceof BusUnavailableError || !this.bus.isConnected()) unavailable = error ?? true;
          else failed.push({ row, error: error?.message ?? 'publish failed' });
        }
        live = live.filter((chain) => !stopped.has((chain[wave] as OutboxRow).id) && chain.length > wave + 1);
      }

      if (published.length) {
        await client.query('UPDATE "outbox_events" SET "published_at" = now() WHERE "id" = ANY($1::uuid[])', [
          published,
        ]);
        this.metrics?.published.inc(published.length);
      }
      for (const { row, error } of failed) {
        const attempts = row.attempts + 1;
        const dead = attempts >= this.maxAttempts;
        await client.query(
          `UPDATE "outbox_events" SET "attempts" = $2, "last_error" = $3,
                  "next_attempt_at" = now() + $4 * interval '1 millisecond',
                  "dead_at" = CASE WHEN $5 THEN now() ELSE NULL END
            WHERE "id" = $1::uuid`,
          [row.id, attempts, error.slice(0, 4000), retryDelayMs(this.rowRetry, attempts), dead],
        );
        this.metrics?.failed.inc();
        if (dead) {
          this.metrics?.dead.inc();
          this.logger.error(
            { eventId: row.id, subject: row.subject, attempts, error },
            'outbox event moved to the dead letters (list and replay with `events`)',
          );
        } else {
          this.logger.warn(
            { eventId: row.id, subject: row.subject, attempts, error },
            'outbox event could not be published; it will be retried',
          );
        }
      }
      await client.query('COMMIT');
      if (unavailable) {
        this.pause(unavailable);
        return { claimed: candidates.length, stop: true };
      }
      this.pauseMs = 0;
      // Rows held back for their aggregate are picked up by the next pass.
      return { claimed: candidates.length, stop: published.length === 0 };
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

function envelopeOf(row: OutboxRow): EventEnvelope {
  return {
    id: row.id,
    subject: row.subject,
    occurredAt: new Date(row.created_at).toISOString(),
    payload: row.payload,
    ...(row.aggregate_key ? { key: row.aggregate_key } : {}),
    ...(row.headers?.traceparent ? { traceparent: row.headers.traceparent } : {}),
  };
}

/** PostgreSQL refusing work because it is stopping (57P01 admin shutdown, 57P03 cannot connect now) or gone. */
function isServerGoingAway(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '57P01' || code === '57P03' || code === 'ECONNREFUSED' || code === 'ECONNRESET';
}
