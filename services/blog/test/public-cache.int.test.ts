import { fileURLToPath } from 'node:url';
import { migrate } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicCache } from '../src/repo/public-cache.ts';

// The public cache's LISTEN connection against a real PostgreSQL that kills it and refuses
// new connections for a while (as during a database restart or failover).
let url: string;
let database: string;
let pool: pg.Pool;
let admin: pg.Client;
let cache: PublicCache;
const warnings: string[] = [];

const until = async (cond: () => boolean | Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};
let computed = 0;
const read = async () => (await cache.get('list', async () => ({ body: `answer ${++computed}` }))).body;
const listenerBackends = async () =>
  Number(
    (
      await admin.query(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND query = 'LISTEN "parley_blog_changed"'`,
        [database],
      )
    ).rows[0].n,
  );

beforeAll(async () => {
  url = await createTestDatabase('blog_cache');
  database = new URL(url).pathname.slice(1);
  await migrate(url, fileURLToPath(new URL('../prisma/migrations', import.meta.url)));
  pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  admin = new pg.Client({ connectionString: process.env.PARLEY_TEST_PG_URL });
  await admin.connect();
  cache = new PublicCache({
    pool,
    ttlMs: 10 * 60_000,
    retry: { initialMs: 20, maxMs: 200 },
    logger: { warn: (_o, msg) => void warnings.push(msg), info: () => {} },
  });
  await cache.start();
});
afterAll(async () => {
  await cache?.stop();
  await admin?.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
  await admin?.end();
  await pool?.end();
});

describe('public cache invalidation (LISTEN parley_blog_changed)', () => {
  it('keeps answers until a change is notified', async () => {
    expect(cache.listening).toBe(true);
    const first = await read();
    expect(await read()).toBe(first);
    await pool.query(`NOTIFY parley_blog_changed`);
    await until(async () => (await read()) !== first);
  });

  it('outlives a database that drops its connection and refuses it several times, and hears changes again', async () => {
    const before = await read();
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query = 'LISTEN "parley_blog_changed"'`,
      [database],
    );
    await until(() => !cache.listening);
    // While changes cannot be heard, nothing is kept: every read is computed afresh.
    const a = await read();
    expect(a).not.toBe(before);
    expect(await read()).not.toBe(a);
    // Several reconnection attempts fail; the cache does not give up.
    const failuresBefore = warnings.filter((w) => /LISTEN connection failed/.test(w)).length;
    await until(
      () => warnings.filter((w) => /LISTEN connection failed/.test(w)).length >= failuresBefore + 3,
    );
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    await until(async () => cache.listening && (await listenerBackends()) === 1);
    // Listening again: answers are kept, and a committed change drops them at once.
    const kept = await read();
    expect(await read()).toBe(kept);
    await pool.query(
      `INSERT INTO blog_posts (id, title, slug, content, author, status, updated_at)
       VALUES (gen_random_uuid(), 'T', 'listen-again', 'C', 'A', 'draft', now())`,
    );
    await until(async () => (await read()) !== kept);
  });
});
