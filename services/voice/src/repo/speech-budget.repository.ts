import type pg from 'pg';

export type BudgetPeriod = 'minute' | 'day';

/** The characters a paid engine may speak per UTC minute and per UTC day, all replicas together. */
export interface BudgetLimits {
  minute: number;
  day: number;
}

export type Reservation =
  | { ok: true }
  /** `period` is the budget that would pass its limit; it starts again at `resetsAt`. */
  | { ok: false; period: BudgetPeriod; resetsAt: Date };

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The start of the UTC minute and of the UTC day `at` falls in. */
export function bucketsOf(at: Date): Record<BudgetPeriod, Date> {
  const t = at.getTime();
  return { minute: new Date(t - (t % MINUTE_MS)), day: new Date(t - (t % DAY_MS)) };
}

/**
 * The paid speech budget's counters (`speech_budget`): one row per period and bucket. Every
 * replica reserves through the same rows, so the budget holds however many run.
 */
export class SpeechBudgetRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Adds `chars` to the current minute and day, unless either would pass its limit: then
   * nothing is added. The upsert locks both rows (always minute first, then day, so two
   * replicas cannot deadlock) until the transaction ends, so concurrent reservations are
   * counted one after another and together never pass a limit.
   */
  async reserve(chars: number, at: Date, limits: BudgetLimits): Promise<Reservation> {
    const buckets = bucketsOf(at);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ period: BudgetPeriod; chars: number }>(
        `INSERT INTO "speech_budget" ("period", "starts_at", "chars") VALUES ('minute', $1, $3), ('day', $2, $3)
         ON CONFLICT ("period", "starts_at") DO UPDATE SET "chars" = "speech_budget"."chars" + EXCLUDED."chars"
         RETURNING "period", "chars"`,
        [buckets.minute, buckets.day, chars],
      );
      const over = rows.find((r) => r.chars > limits[r.period]);
      if (over) {
        await client.query('ROLLBACK');
        const length = over.period === 'minute' ? MINUTE_MS : DAY_MS;
        return {
          ok: false,
          period: over.period,
          resetsAt: new Date(buckets[over.period].getTime() + length),
        };
      }
      await client.query('COMMIT');
      return { ok: true };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** Gives back what a reservation took (the engine failed: nothing was billed). */
  async refund(chars: number, at: Date): Promise<void> {
    const buckets = bucketsOf(at);
    await this.pool.query(
      `UPDATE "speech_budget" SET "chars" = greatest("chars" - $3, 0)
        WHERE ("period" = 'minute' AND "starts_at" = $1) OR ("period" = 'day' AND "starts_at" = $2)`,
      [buckets.minute, buckets.day, chars],
    );
  }

  /** Drops buckets older than two days (the retention job). */
  async prune(at: Date): Promise<number> {
    const { rowCount } = await this.pool.query(`DELETE FROM "speech_budget" WHERE "starts_at" < $1`, [
      new Date(at.getTime() - 2 * DAY_MS),
    ]);
    return rowCount ?? 0;
  }
}
