import type pg from 'pg';

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

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM "speech_clips"');
    return Number(rows[0]?.n ?? 0);
  }
}
