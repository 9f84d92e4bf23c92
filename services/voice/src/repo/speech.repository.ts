import type pg from 'pg';

/** Bounds of the shared speech cache (TTS_CACHE_MAX_MB, TTS_CACHE_MAX_AGE_DAYS). */
export interface SpeechCacheLimits {
  /** Total bytes of audio kept; beyond it the least recently hit clips go first. */
  maxBytes: number;
  /** Clips not hit for this many days go. */
  maxAgeDays: number;
}

export interface PruneResult {
  /** Another replica was pruning: this one did nothing. */
  skipped: boolean;
  expired: number;
  evicted: number;
}

/** Session advisory lock: one replica prunes at a time (the others skip their turn). */
const LOCK_SPEECH_PRUNE = 7_201_002;
/** Rows per DELETE, so no statement holds many rows (or the table) for long. */
const PRUNE_BATCH = 500;

/** The shared speech cache table (every replica reads what any replica synthesised). */
export class SpeechRepository {
  constructor(private readonly pool: pg.Pool) {}

  async find(key: string): Promise<Uint8Array | null> {
    const { rows } = await this.pool.query<{ bytes: Buffer }>({
      name: 'voice_find_clip',
      text: `UPDATE "speech_clips" SET "hits" = "hits" + 1, "last_hit_at" = now() WHERE "key" = $1 RETURNING "bytes"`,
      values: [key],
    });
    return rows[0] ? new Uint8Array(rows[0].bytes) : null;
  }

  async save(key: string, engine: string, voice: string, bytes: Uint8Array): Promise<void> {
    await this.pool.query(
      `INSERT INTO "speech_clips" ("key", "engine", "voice", "bytes", "size") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("key") DO NOTHING`,
      [key, engine, voice, Buffer.from(bytes), bytes.length],
    );
  }

  /**
   * Bounds the cache: drops clips not hit for `maxAgeDays`, then, while the total size is over
   * `maxBytes`, the least recently hit clips (by `last_hit_at`, its index) until it fits.
   * Safe from any number of replicas at once: one prunes, the others skip.
   */
  async prune(limits: SpeechCacheLimits): Promise<PruneResult> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        LOCK_SPEECH_PRUNE,
      ]);
      if (!rows[0]?.ok) return { skipped: true, expired: 0, evicted: 0 };
      try {
        let expired = 0;
        for (;;) {
          const { rowCount } = await client.query(
            `DELETE FROM "speech_clips" WHERE "key" IN (
               SELECT "key" FROM "speech_clips" WHERE "last_hit_at" < now() - $1 * interval '1 day'
               ORDER BY "last_hit_at" LIMIT $2)`,
            [limits.maxAgeDays, PRUNE_BATCH],
          );
          expired += rowCount ?? 0;
          if ((rowCount ?? 0) < PRUNE_BATCH) break;
        }
        const total = await client.query<{ bytes: string }>(
          'SELECT coalesce(sum("size"), 0)::bigint AS bytes FROM "speech_clips"',
        );
        let excess = Number(total.rows[0]?.bytes ?? 0) - limits.maxBytes;
        let evicted = 0;
        while (excess > 0) {
          // The least recently hit clips, just as many as free the excess (a running sum).
          const { rows: gone } = await client.query<{ size: number }>(
            `DELETE FROM "speech_clips" WHERE "key" IN (
               SELECT "key" FROM (
                 SELECT "key", "size",
                        sum("size") OVER (ORDER BY "last_hit_at", "key" ROWS UNBOUNDED PRECEDING) AS freed
                 FROM "speech_clips" ORDER BY "last_hit_at", "key" LIMIT $2
               ) oldest WHERE oldest.freed - oldest."size" < $1)
             RETURNING "size"`,
            [excess, PRUNE_BATCH],
          );
          if (!gone.length) break;
          evicted += gone.length;
          excess -= gone.reduce((sum, r) => sum + r.size, 0);
        }
        return { skipped: false, expired, evicted };
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [LOCK_SPEECH_PRUNE]);
      }
    } catch (err) {
      broken = err as Error;
      throw err;
    } finally {
      // A failed connection is discarded, and with it any lock it still held.
      client.release(broken);
    }
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM "speech_clips"');
    return Number(rows[0]?.n ?? 0);
  }
}
