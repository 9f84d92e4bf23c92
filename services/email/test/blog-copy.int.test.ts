import type { BlogPost } from '@parley/contracts';
import { createLogger, type RunningService, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emailService } from '../src/service.ts';
import { type EmailUnderTest, startEmail } from './mail-peers.ts';

/**
 * The email service's copy of the blog's posts (newsletters are made from it): kept from the
 * blog events on a real NATS, the newest event per post winning whatever the order of
 * arrival, a deletion kept as a tombstone, and the whole copy rebuilt from the stream by an
 * instance on a fresh database.
 */

let t: EmailUnderTest;
let db: pg.Pool;
const others: RunningService[] = [];

beforeAll(async () => {
  t = await startEmail('email_blog_copy');
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
}, 60_000);

afterAll(async () => {
  for (const s of others) await s.stop();
  await db?.end();
  await t?.stop();
});

const post = (id: string, over: Partial<BlogPost> = {}): BlogPost => ({
  id,
  title: `Post ${id}`,
  slug: `post-${id}`,
  excerpt: 'An excerpt',
  content: '<p>Body</p>',
  author: 'Parley Team',
  featuredImage: '/api/blog/images/cover.png',
  tags: ['voice'],
  status: 'published',
  metaTitle: null,
  metaDescription: null,
  publishedAt: '2026-11-20T10:00:00.000Z',
  createdAt: '2026-11-20T09:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute));

async function copyOf(pool: pg.Pool, id: string) {
  const { rows } = await pool.query(
    `SELECT "title", "status", "deleted", "tags" FROM "newsletter_blog_posts" WHERE "id" = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** The blog copy's durable of `svc` has nothing left to deliver or acknowledge, and post z is in. */
async function caughtUp(svc: RunningService, pool: pg.Pool): Promise<void> {
  await until(async () => {
    if (!(await copyOf(pool, 'z'))) return false;
    const lag = Object.entries(await svc.bus.lag()).filter(([d]) => d.startsWith('email-blog-copy-'));
    return lag.length === 1 && lag[0]?.[1] === 0;
  }, 'the blog copy to catch up');
}

async function until<T>(fn: () => Promise<T | null | undefined | false>, label: string): Promise<T> {
  const end = Date.now() + 20_000;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('keeps the newest state of each post, whatever order the events arrive in', async () => {
  await t.publish('blog.post.published', { post: post('a') }, { occurredAt: at(0) });
  await t.publish('blog.post.updated', { post: post('a', { title: 'Renamed' }) }, { occurredAt: at(2) });
  // An older update delivered late (another replica's slow outbox): it must not win.
  await t.publish('blog.post.updated', { post: post('a', { title: 'Stale' }) }, { occurredAt: at(1) });
  await t.publish('blog.post.published', { post: post('b') }, { occurredAt: at(0) });
  await t.publish('blog.post.unpublished', { post: post('b', { status: 'draft' }) }, { occurredAt: at(3) });
  await t.publish('blog.post.published', { post: post('c') }, { occurredAt: at(0) });
  await t.publish('blog.post.deleted', { id: 'c', slug: 'post-c' }, { occurredAt: at(4) });
  // A redelivered (older) publication of the deleted post does not bring it back.
  await t.publish('blog.post.published', { post: post('c') }, { occurredAt: at(1) });
  // Events of different posts may be applied in any order (only a post's own events keep
  // theirs): wait until the copy's durable has acknowledged every one of them.
  await t.publish('blog.post.published', { post: post('z') }, { occurredAt: at(9) });
  await caughtUp(t.svc, db);

  expect(await copyOf(db, 'a')).toEqual({
    title: 'Renamed',
    status: 'published',
    deleted: false,
    tags: ['voice'],
  });
  expect(await copyOf(db, 'b')).toMatchObject({ status: 'draft', deleted: false });
  expect(await copyOf(db, 'c')).toMatchObject({ deleted: true });
}, 60_000);

it('is rebuilt from the stream by an instance on a fresh database', async () => {
  const fresh = await createTestDatabase('email_blog_copy_fresh');
  const second = await startService(emailService, {
    env: {
      DATABASE_URL: fresh,
      NATS_URL: t.natsUrl,
      INTERNAL_AUTH_SECRET: t.secret,
      SETTINGS_ENCRYPTION_KEY: t.encryptionKey,
      EMAIL_SIGNING_SECRET: t.signingSecret,
      PUBLIC_ORIGIN: 'https://parley.test',
      LOG_LEVEL: 'silent',
      CAMPAIGN_WORKER: 'false',
    },
    logger: createLogger('email-test', 'silent'),
    listen: { host: '127.0.0.1', port: 0 },
  });
  others.push(second);
  const pool = new pg.Pool({ connectionString: fresh, max: 2 });
  try {
    await caughtUp(second, pool);
    const dump = async (p: pg.Pool) =>
      (
        await p.query(
          `SELECT "id", "title", "status", "deleted", "version_at" FROM "newsletter_blog_posts" ORDER BY "id"`,
        )
      ).rows;
    expect(await dump(pool)).toEqual(await dump(db));
  } finally {
    await pool.end();
  }
}, 60_000);
