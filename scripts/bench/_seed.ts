/** Benchmark set-up: the platform for the email benches, and data made through the admin API as an admin would. */

import { freePort } from '@parley/kit/local';
import pg from 'pg';
import { partOf } from '../../services/email/src/features/delivery/domain/mime.ts';
import { type Platform, startPlatform } from '../lib/platform.ts';

/** The analytics rollups' triggers on email_tracking (ADR 0067): benches switch them off and on. */
export const ROLLUP_TRIGGERS = [
  'email_tracking_rollups_insert',
  'email_tracking_rollups_update',
  'email_tracking_rollups_delete',
] as const;

/** Switches the rollup triggers off or on (a seed written raw is rolled up by the rebuild after). */
export async function setRollupTriggers(db: pg.Pool, on: boolean): Promise<void> {
  for (const trigger of ROLLUP_TRIGGERS)
    await db.query(`ALTER TABLE "email_tracking" ${on ? 'ENABLE' : 'DISABLE'} TRIGGER "${trigger}"`);
}

/**
 * `pnpm start --distributed` with a bench admin, signed in, and a small pool on the email
 * service's own database (for benches that seed it in bulk or count what it stored).
 */
export async function startWithEmailDatabase(): Promise<{
  platform: Platform;
  db: pg.Pool;
  cookie: string;
  databaseUrl: string;
}> {
  const email = 'bench-admin@parley.test';
  const password = 'bench admin password';
  const pgPort = await freePort();
  const platform = await startPlatform({
    args: ['--distributed'],
    env: {
      PARLEY_ADMIN_EMAIL: email,
      PARLEY_ADMIN_PASSWORD: password,
      PARLEY_SKIP_WEB_BUILD: 'true',
      PARLEY_PG_PORT: String(pgPort),
      LOG_LEVEL: 'error',
    },
  });
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${pgPort}/parley_email`;
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    return { platform, db, cookie: await signInCookie(platform.url, email, password), databaseUrl };
  } catch (err) {
    await db.end();
    await platform.stop();
    throw err;
  }
}

/**
 * Sends `count` test-tracking mails (to reader<i>@bench.test) and returns each one's signed
 * open pixel and tracked link, taken from the sent MIME, with its tracking id.
 */
export async function trackedMails(
  base: string,
  cookie: string,
  count: number,
): Promise<Array<{ trackingId: string; open: string; click: string }>> {
  const out: Array<{ trackingId: string; open: string; click: string }> = [];
  for (let i = 0; i < count; i++) {
    const sent = await fetch(`${base}/api/admin/email/test-tracking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ email: `reader${i}@bench.test` }),
    });
    if (!sent.ok) throw new Error(`test-tracking answered ${sent.status}: ${await sent.text()}`);
    const { id, trackingId } = (await sent.json()) as { id: string; trackingId: string };
    const detail = (await (
      await fetch(`${base}/api/admin/email/outbox/${id}`, { headers: { cookie } })
    ).json()) as {
      raw: string;
    };
    const html = partOf(detail.raw, 'text/html') ?? '';
    const open = /src="https?:\/\/[^/"]+(\/api\/track\/open\/[^"]+)"/.exec(html)?.[1];
    const click = /href="https?:\/\/[^/"]+(\/api\/track\/click\/[^"]+)"/
      .exec(html)?.[1]
      ?.replace(/&amp;/g, '&');
    if (!open || !click) throw new Error('no tracked pixel or link in the sent mail');
    out.push({ trackingId, open, click });
  }
  return out;
}

/** Signs in and returns the session cookie. */
export async function signInCookie(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

/** Writes `count` posts with the platform's AI writer and publishes them. */
export async function seedPublishedPosts(base: string, cookie: string, count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const gen = await fetch(`${base}/api/admin/generate-blog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ topic: `Voice agents for busy front desks, part ${i}`, generateImage: false }),
    });
    if (!gen.ok) throw new Error(`generating a post answered ${gen.status}: ${await gen.text()}`);
    const { post } = (await gen.json()) as { post: Record<string, unknown> };
    const created = await fetch(`${base}/api/blog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ ...post, slug: `${post.slug}-${i}`, status: 'published' }),
    });
    if (created.status !== 201)
      throw new Error(`creating a post answered ${created.status}: ${await created.text()}`);
  }
}
