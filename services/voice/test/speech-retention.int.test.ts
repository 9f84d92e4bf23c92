import { randomBytes } from 'node:crypto';
import { createLogger, migrate, type RunningService, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SpeechRepository } from '../src/repo/speech.repository.ts';
import { voiceService } from '../src/service.ts';

const MIGRATIONS = new URL('../prisma/migrations', import.meta.url).pathname;
const KB = 1024;
const MB = 1024 * KB;
let databaseUrl: string;
let db: pg.Pool;

const until = async (cond: () => Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** A clip of `size` bytes, last hit `hitAgo` ago (and created `createdAgo` ago). */
async function clip(key: string, size: number, hitAgo: string, createdAgo = hitAgo) {
  await db.query(
    `INSERT INTO speech_clips (key, engine, voice, bytes, size, created_at, last_hit_at)
     VALUES ($1, 'local', 'v', $2, $3, now() - $4::interval, now() - $5::interval)`,
    [key, randomBytes(size), size, createdAgo, hitAgo],
  );
}
const keys = async () =>
  (await db.query<{ key: string }>('SELECT key FROM speech_clips ORDER BY key')).rows.map((r) => r.key);

beforeAll(async () => {
  databaseUrl = await createTestDatabase('voice_retention');
  await migrate(databaseUrl, MIGRATIONS);
  db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
});
afterAll(async () => {
  await db?.end();
});

describe('speech cache retention (repository)', () => {
  let repo: SpeechRepository;
  beforeAll(() => {
    repo = new SpeechRepository(db);
  });
  beforeEach(async () => {
    await db.query('DELETE FROM speech_clips');
  });

  it('drops clips not hit within the age limit, whenever they were made', async () => {
    await clip('a-stale', 1000, '31 days');
    await clip('b-fresh', 1000, '29 days');
    await clip('c-old-but-hit', 1000, '1 hour', '400 days');
    const result = await repo.prune({ maxBytes: 256 * MB, maxAgeDays: 30 });
    expect(result).toEqual({ skipped: false, expired: 1, evicted: 0 });
    expect(await keys()).toEqual(['b-fresh', 'c-old-but-hit']);
  });

  it('keeps the total under the size limit, evicting the least recently hit first', async () => {
    // 6 × 300 KB; the limit (1 MB) holds three. Creation order is the reverse of hit order.
    for (let i = 0; i < 6; i++) await clip(`clip-${i}`, 300 * KB, `${60 - i * 10} minutes`, `${i + 1} days`);
    const result = await repo.prune({ maxBytes: 1 * MB, maxAgeDays: 30 });
    expect(result).toEqual({ skipped: false, expired: 0, evicted: 3 });
    expect(await keys()).toEqual(['clip-3', 'clip-4', 'clip-5']);
    // Nothing more to do once it fits.
    expect(await repo.prune({ maxBytes: 1 * MB, maxAgeDays: 30 })).toEqual({
      skipped: false,
      expired: 0,
      evicted: 0,
    });
  });

  it('evicts in batches until the excess is freed, no more', async () => {
    // 1,200 clips of 1 KB (more than one batch) against a 200 KB limit: exactly 1,000 go.
    await db.query(
      `INSERT INTO speech_clips (key, engine, voice, bytes, size, last_hit_at)
       SELECT 'k' || lpad(i::text, 5, '0'), 'local', 'v', decode(repeat('00', 1024), 'hex'), 1024,
              now() - (1200 - i) * interval '1 second'
       FROM generate_series(1, 1200) AS i`,
    );
    const result = await repo.prune({ maxBytes: 200 * KB, maxAgeDays: 30 });
    expect(result).toEqual({ skipped: false, expired: 0, evicted: 1000 });
    const left = await keys();
    expect(left).toHaveLength(200);
    expect(left[0]).toBe('k01001');
  });

  it('lets one replica prune at a time: the others skip their turn, nothing is lost', async () => {
    for (let i = 0; i < 4; i++) await clip(`clip-${i}`, 300 * KB, `${40 - i * 10} minutes`);
    // Another replica's pass under way (it holds the pruning lock).
    const other = await db.connect();
    await other.query('SELECT pg_advisory_lock(7201002)');
    try {
      expect(await repo.prune({ maxBytes: 1 * MB, maxAgeDays: 30 })).toEqual({
        skipped: true,
        expired: 0,
        evicted: 0,
      });
      expect(await keys()).toHaveLength(4);
    } finally {
      await other.query('SELECT pg_advisory_unlock(7201002)');
      other.release();
    }
    // Two replicas at once (separate pools): exactly the excess goes.
    const pools = [0, 1].map(() => new pg.Pool({ connectionString: databaseUrl, max: 2 }));
    try {
      const results = await Promise.all(
        pools.map((p) => new SpeechRepository(p).prune({ maxBytes: 1 * MB, maxAgeDays: 30 })),
      );
      expect(results.reduce((n, r) => n + r.evicted, 0)).toBe(1);
      expect(await keys()).toEqual(['clip-1', 'clip-2', 'clip-3']);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });
});

describe('speech cache retention (the service job)', () => {
  let svc: RunningService;
  afterAll(async () => {
    await svc?.stop();
  });

  it('prunes the shared cache by age and size on its own, keeping what is used', async () => {
    await db.query('DELETE FROM speech_clips');
    await clip('stale', 2 * KB, '45 days');
    for (let i = 0; i < 5; i++) await clip(`big-${i}`, 340 * KB, `${50 - i * 10} minutes`);
    svc = await startService(voiceService, {
      env: {
        DATABASE_URL: databaseUrl,
        NATS_URL: process.env.NATS_URL,
        INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'silent',
        TTS_WORKERS: '1',
        TTS_CACHE_MAX_MB: '1',
        TTS_CACHE_MAX_AGE_DAYS: '30',
        TTS_CACHE_PRUNE_SECONDS: '1',
      },
      logger: createLogger('voice-retention-test', 'silent'),
      listen: { host: '127.0.0.1', port: 0 },
    });
    await until(async () => (await keys()).length === 3);
    expect(await keys()).toEqual(['big-2', 'big-3', 'big-4']);
    // A line spoken now is the most recently hit: the next passes keep it and evict the oldest big clip.
    const res = await fetch(`${svc.url}/api/voice/text-to-speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'A freshly spoken line stays in the cache.' }),
    });
    expect(res.status).toBe(200);
    await until(async () => !(await keys()).includes('big-2'));
    const left = await keys();
    expect(left.filter((k) => k.startsWith('big-'))).toEqual(['big-3', 'big-4']);
    expect(left).toHaveLength(3);
  });
});
