import { randomBytes } from 'node:crypto';
import { createLogger, type RunningService, signAssertion, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogService } from '../src/service.ts';

// The editor's load (GET /api/admin/blog/:id) reads one post, not every post: PostgreSQL's own
// per-table counters tell how many rows the service read to answer it.
const secret = randomBytes(32).toString('hex');
let svc: RunningService;
let db: pg.Pool;
let admin: Record<string, string>;
const POSTS = 300;

const until = async (cond: () => Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
};
/** Scans and rows read on blog_posts, as flushed to the statistics by every backend. */
async function reads(): Promise<{ scans: number; rows: number }> {
  const client = await db.connect();
  try {
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query(
      `SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS scans,
              coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS rows
       FROM pg_stat_user_tables WHERE relname = 'blog_posts'`,
    );
    return { scans: Number(rows[0].scans), rows: Number(rows[0].rows) };
  } finally {
    client.release();
  }
}

beforeAll(async () => {
  const databaseUrl = await createTestDatabase('blog_admin_post');
  svc = await startService(blogService, {
    env: {
      DATABASE_URL: databaseUrl,
      NATS_URL: process.env.NATS_URL,
      INTERNAL_AUTH_SECRET: secret,
      LOG_LEVEL: 'silent',
    },
    logger: createLogger('blog-admin-post-test', 'silent'),
    listen: { host: '127.0.0.1', port: 0 },
  });
  admin = { 'x-parley-assertion': await signAssertion(secret, { adminId: 'admin-1', role: 'admin' }) };
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
});
afterAll(async () => {
  await db?.end();
  await svc?.stop();
});

describe('GET /api/admin/blog/:id', () => {
  it('answers one post (any status) and 404 for an unknown id, reading that post only', async () => {
    // Inserted with ids chosen here, so nothing but the service ever reads the table.
    const ids = Array.from({ length: POSTS }, () => crypto.randomUUID());
    await db.query(
      `INSERT INTO blog_posts (id, title, slug, content, author, status, updated_at)
       SELECT id, 'Post ' || i, 'post-' || i, repeat('Lorem ipsum dolor sit amet. ', 40),
              'Parley', (CASE WHEN i % 2 = 0 THEN 'published' ELSE 'draft' END)::"BlogStatus", now()
       FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, i)`,
      [ids],
    );
    const id = ids[136] as string;
    // Earlier scans (start-up, migrations) met an empty table: no row was ever read.
    const before = await reads();
    expect(before.rows).toBe(0);

    const res = await fetch(`${svc.url}/api/admin/blog/${id}`, { headers: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, slug: 'post-137', status: 'draft' });
    // The service's connection reports its reads once idle (within about a second); the
    // answer needed at least the one row.
    await until(async () => (await reads()).rows > 0);
    const after = await reads();
    expect(after.rows).toBeLessThanOrEqual(2);

    const missing = await fetch(`${svc.url}/api/admin/blog/${crypto.randomUUID()}`, { headers: admin });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toBe('Blog post not found');
  });
});
