import type { EventEnvelope } from '@parley/contracts';
import type pg from 'pg';
import type { Logger } from 'pino';

/**
 * A service's dead letters, in its own database: consumed events that still failed after the
 * retry policy (or never matched the catalogue), and outbox rows that could not be published.
 * Both are listed and replayed by `events` (main.ts of each service, `pnpm events` for the
 * embedded platform) and counted in the metrics; nothing is dropped.
 */

export interface DeadLetter {
  /** `consumer` = a consumer's dead letter; `outbox` = an event this service could not publish. */
  kind: 'consumer' | 'outbox';
  id: string;
  consumer: string | null;
  eventId: string;
  subject: string;
  error: string;
  deliveries: number;
  createdAt: string;
  replayRequested: boolean;
}

interface ConsumerRow {
  id: string;
  consumer: string;
  event_id: string;
  subject: string;
  error: string;
  deliveries: number;
  created_at: Date;
  replay_requested_at: Date | null;
}

interface OutboxRow {
  id: string;
  subject: string;
  last_error: string | null;
  attempts: number;
  dead_at: Date;
}

export class DeadLetters {
  constructor(private readonly pool: pg.Pool) {}

  /** Keeps a consumer's failed event (again, if it failed again after a replay). */
  async record(consumer: string, event: EventEnvelope, error: string, deliveries: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO "dead_letters" ("consumer", "event_id", "subject", "envelope", "error", "deliveries")
       VALUES ($1, $2::uuid, $3, $4::jsonb, $5, $6)
       ON CONFLICT ("consumer", "event_id") DO UPDATE SET "error" = EXCLUDED."error",
         "deliveries" = "dead_letters"."deliveries" + EXCLUDED."deliveries", "created_at" = now(),
         "replay_requested_at" = NULL, "replay_lease_until" = NULL, "replayed_at" = NULL`,
      [consumer, event.id, event.subject, JSON.stringify(event), error.slice(0, 4000), deliveries],
    );
  }

  /** Dead letters waiting (not replayed), newest first: consumers' and the outbox's. */
  async list(limit = 500): Promise<DeadLetter[]> {
    const [consumed, outbox] = await Promise.all([
      this.pool.query<ConsumerRow>(
        `SELECT "id", "consumer", "event_id", "subject", "error", "deliveries", "created_at", "replay_requested_at"
           FROM "dead_letters" WHERE "replayed_at" IS NULL ORDER BY "created_at" DESC LIMIT $1`,
        [limit],
      ),
      this.pool.query<OutboxRow>(
        `SELECT "id", "subject", "last_error", "attempts", "dead_at" FROM "outbox_events"
          WHERE "dead_at" IS NOT NULL AND "published_at" IS NULL ORDER BY "dead_at" DESC LIMIT $1`,
        [limit],
      ),
    ]);
    return [
      ...consumed.rows.map(
        (r): DeadLetter => ({
          kind: 'consumer',
          id: r.id,
          consumer: r.consumer,
          eventId: r.event_id,
          subject: r.subject,
          error: r.error,
          deliveries: r.deliveries,
          createdAt: r.created_at.toISOString(),
          replayRequested: r.replay_requested_at !== null,
        }),
      ),
      ...outbox.rows.map(
        (r): DeadLetter => ({
          kind: 'outbox',
          id: r.id,
          consumer: null,
          eventId: r.id,
          subject: r.subject,
          error: r.last_error ?? '',
          deliveries: r.attempts,
          createdAt: r.dead_at.toISOString(),
          replayRequested: false,
        }),
      ),
    ];
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM "dead_letters" WHERE "replayed_at" IS NULL)
            + (SELECT count(*) FROM "outbox_events" WHERE "dead_at" IS NOT NULL AND "published_at" IS NULL) AS n`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Asks for a replay of the given dead letters (ids from `list`), or of all when `ids` is
   * 'all'. A consumer's dead letter is run again by a running replica of its service; an
   * outbox row goes back into the relay's queue with its attempts reset. Returns how many.
   */
  async requestReplay(ids: readonly string[] | 'all'): Promise<number> {
    const all = ids === 'all';
    const list = all ? [] : [...ids];
    const consumed = await this.pool.query(
      `UPDATE "dead_letters" SET "replay_requested_at" = now(), "replay_lease_until" = NULL
        WHERE "replayed_at" IS NULL AND ($1 OR "id" = ANY($2::uuid[]))`,
      [all, list],
    );
    const outbox = await this.pool.query(
      `UPDATE "outbox_events" SET "dead_at" = NULL, "attempts" = 0, "next_attempt_at" = now(), "last_error" = NULL
        WHERE "dead_at" IS NOT NULL AND "published_at" IS NULL AND ($1 OR "id" = ANY($2::uuid[]))`,
      [all, list],
    );
    return (consumed.rowCount ?? 0) + (outbox.rowCount ?? 0);
  }

  /** Claims consumer dead letters asked to be replayed (a lease, so one replica runs each). */
  async claimReplays(
    consumers: readonly string[],
    limit = 20,
  ): Promise<Array<{ id: string; consumer: string; envelope: EventEnvelope; deliveries: number }>> {
    if (!consumers.length) return [];
    const { rows } = await this.pool.query<{
      id: string;
      consumer: string;
      envelope: EventEnvelope;
      deliveries: number;
    }>(
      `UPDATE "dead_letters" d SET "replay_lease_until" = now() + interval '5 minutes'
        WHERE d."id" IN (
          SELECT "id" FROM "dead_letters"
           WHERE "replay_requested_at" IS NOT NULL AND "replayed_at" IS NULL AND "consumer" = ANY($1)
             AND ("replay_lease_until" IS NULL OR "replay_lease_until" < now())
           ORDER BY "created_at" LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING d."id", d."consumer", d."envelope", d."deliveries"`,
      [consumers, limit],
    );
    return rows;
  }

  async markReplayed(id: string): Promise<void> {
    await this.pool.query(
      `UPDATE "dead_letters" SET "replayed_at" = now(), "replay_lease_until" = NULL WHERE "id" = $1::uuid`,
      [id],
    );
  }

  async markReplayFailed(id: string, error: string): Promise<void> {
    await this.pool.query(
      `UPDATE "dead_letters" SET "error" = $2, "deliveries" = "deliveries" + 1, "replay_requested_at" = NULL,
              "replay_lease_until" = NULL WHERE "id" = $1::uuid`,
      [id, error.slice(0, 4000)],
    );
  }

  /** Forgets dead letters for good (after an operator decided they must not be applied). */
  async discard(ids: readonly string[]): Promise<number> {
    const a = await this.pool.query('DELETE FROM "dead_letters" WHERE "id" = ANY($1::uuid[])', [[...ids]]);
    const b = await this.pool.query(
      'DELETE FROM "outbox_events" WHERE "dead_at" IS NOT NULL AND "published_at" IS NULL AND "id" = ANY($1::uuid[])',
      [[...ids]],
    );
    return (a.rowCount ?? 0) + (b.rowCount ?? 0);
  }
}

/**
 * Runs the replays asked for with `events replay`: polls this service's dead letters for the
 * consumers registered in this process, runs each through the same delivery path (checks,
 * handler, inbox), and records the outcome.
 */
export class DeadLetterReplayer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly runners = new Map<string, (event: EventEnvelope) => Promise<string | null>>();

  constructor(
    private readonly deadLetters: DeadLetters,
    private readonly logger: Logger,
    private readonly intervalMs = 2000,
  ) {}

  /** `run` resolves null on success, or the error text. */
  register(consumer: string, run: (event: EventEnvelope) => Promise<string | null>): void {
    this.runners.set(consumer, run);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.pass(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass (also called by tests). */
  pass(): Promise<void> {
    this.running ??= (async () => {
      try {
        const claimed = await this.deadLetters.claimReplays([...this.runners.keys()]);
        for (const row of claimed) {
          const run = this.runners.get(row.consumer);
          if (!run) continue;
          const error = await run(row.envelope);
          if (error === null) {
            await this.deadLetters.markReplayed(row.id);
            this.logger.info({ consumer: row.consumer, eventId: row.envelope.id }, 'dead letter replayed');
          } else {
            await this.deadLetters.markReplayFailed(row.id, error);
            this.logger.warn(
              { consumer: row.consumer, eventId: row.envelope.id, error },
              'dead letter replay failed',
            );
          }
        }
      } catch (err) {
        this.logger.warn({ err }, 'dead-letter replay pass failed; will retry');
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
