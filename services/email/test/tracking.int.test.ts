import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenSigner } from '../src/shared/tokens.ts';
import { type EmailUnderTest, startEmail } from './mail-peers.ts';

/**
 * Tracking through the service's real routes and the write-behind buffer, on real
 * PostgreSQL: opens and clicks counted once written, privacy-proxy opens flagged and not
 * counted, forged or altered tokens refused without a trace, no open redirect, and every hit
 * answered before a shutdown is written by the shutdown.
 */

let t: EmailUnderTest;
let db: pg.Pool;

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const GMAIL = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

beforeAll(async () => {
  t = await startEmail('email_tracking', { TRACKING_FLUSH_MS: '50' });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
});

afterAll(async () => {
  await db?.end();
  await t?.stop();
});

/** Sends a tracking test mail and returns the pixel and click URLs as they are in the stored HTML. */
async function trackedMail(target: EmailUnderTest, pool: pg.Pool, email: string) {
  const r = await target.call('POST', '/api/admin/email/test-tracking', { email }, await target.admin());
  expect(r.status).toBe(200);
  const { rows } = await pool.query(`SELECT "html" FROM "mail_messages" WHERE "id" = $1`, [r.json.id]);
  const html: string = rows[0].html;
  const pixel = /<img src="https:\/\/parley\.test(\/api\/track\/open\/[^"]+)"/.exec(html)?.[1];
  const click = /href="https:\/\/parley\.test(\/api\/track\/click\/[^"]+)"/
    .exec(html)?.[1]
    ?.replace(/&amp;/g, '&');
  if (!pixel || !click) throw new Error('no tracked pixel or link in the stored HTML');
  return { trackingId: r.json.trackingId as string, pixel, click };
}

const row = async (trackingId: string) =>
  (await db.query(`SELECT * FROM "email_tracking" WHERE "tracking_id" = $1`, [trackingId])).rows[0];
const events = async (trackingId: string) =>
  (await db.query(`SELECT * FROM "email_events" WHERE "tracking_id" = $1 ORDER BY "id"`, [trackingId])).rows;

describe('open pixel and click redirect', () => {
  it('counts a human open and a click, flags a proxy open, and redirects to the signed URL only', async () => {
    const m = await trackedMail(t, db, 'reader@example.com');
    const open = await t.call('GET', m.pixel, undefined, { 'user-agent': IPHONE });
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toBe('image/gif');
    expect(open.headers.get('cache-control')).toContain('no-store');
    expect((await t.call('GET', m.pixel, undefined, { 'user-agent': GMAIL })).status).toBe(200);
    expect((await t.call('GET', m.pixel, undefined, { 'user-agent': 'Mozilla/5.0' })).status).toBe(200);
    const click = await t.call('GET', m.click, undefined, { 'user-agent': IPHONE });
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe('https://parley.test');

    await expect.poll(async () => (await events(m.trackingId)).length).toBe(4);
    const r = await row(m.trackingId);
    expect(r).toMatchObject({
      open_count: 1,
      proxy_open_count: 2,
      click_count: 1,
      status: 'clicked',
      device_type: 'mobile',
      browser_type: 'Apple Mail',
      user_agent: IPHONE,
      last_click_url: 'https://parley.test',
    });
    expect(r.opened_at).toBeInstanceOf(Date);
    expect(r.clicked_at).toBeInstanceOf(Date);
    const ev = await events(m.trackingId);
    expect(ev.map((e) => [e.event_type, e.proxy])).toEqual([
      ['open', null],
      ['open', 'gmail-proxy'],
      ['open', 'apple-mpp'],
      ['click', null],
    ]);

    // A HEAD (a link checker) is answered but not counted.
    const head = await fetch(`${t.svc.url}${m.pixel}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    // The same pixel again is another (human) open: people reopen mail.
    await t.call('GET', m.pixel, undefined, { 'user-agent': IPHONE });
    await expect.poll(async () => (await row(m.trackingId)).open_count).toBe(2);
    // Hits are written in the order they came: the GET after the HEAD is stored, so the HEAD
    // would be too. Five events: the HEAD was not counted.
    expect(await events(m.trackingId)).toHaveLength(5);
  });

  it('refuses forged, altered and cross-purpose tokens, and never redirects elsewhere', async () => {
    const m = await trackedMail(t, db, 'victim@example.com');
    const other = await trackedMail(t, db, 'other@example.com');
    const [, , , , token] = m.pixel.split('/');
    const [id, sig] = token!.split('.') as [string, string];
    const forgedSigner = new TokenSigner('x'.repeat(64));
    const refusedOpens = [
      `/api/track/open/${id}.${'A'.repeat(22)}`,
      `/api/track/open/${forgedSigner.sign('open', id)}`,
      `/api/track/open/${new TokenSigner(t.signingSecret).sign('unsubscribe', id)}`,
      `/api/track/open/${id}`,
      `/api/track/open/${other.pixel.split('/').pop()!.split('.')[0]}.${sig}`,
    ];
    for (const path of refusedOpens) {
      const r = await t.call('GET', path);
      expect(r.status, path).toBe(404);
      expect(r.json).toMatchObject({ error: 'Not Found' });
    }
    const q = new URLSearchParams(m.click.split('?')[1]);
    const clickBase = m.click.split('?')[0]!;
    const evil = new URLSearchParams({ u: 'https://evil.example/login', s: q.get('s')! });
    const otherSig = new URLSearchParams(other.click.split('?')[1]).get('s')!;
    const refusedClicks = [
      `${clickBase}?${evil}`,
      `${clickBase}?u=${encodeURIComponent(q.get('u')!)}&s=${otherSig}`,
      `${clickBase}?u=${encodeURIComponent(q.get('u')!)}`,
      `${clickBase}?${new URLSearchParams({ u: 'javascript:alert(1)', s: new TokenSigner(t.signingSecret).signClick(id, 'javascript:alert(1)') })}`,
      `/api/track/click/${other.trackingId}?${q}`,
    ];
    for (const path of refusedClicks) {
      const r = await t.call('GET', path);
      expect(r.status, path).toBe(400);
      expect(r.headers.get('location')).toBeNull();
    }
    // Nothing of that was recorded. A valid hit sent after them is written in order, so once
    // it is stored, anything refused above would be stored too.
    expect((await t.call('GET', other.pixel)).status).toBe(200);
    await expect.poll(async () => (await events(other.trackingId)).length).toBe(1);
    expect(await events(m.trackingId)).toHaveLength(0);
    expect(await events(other.trackingId)).toHaveLength(1);
  });
});

describe('write-behind buffer', () => {
  it('writes every answered hit when the service stops, though its timer never fired', async () => {
    const s = await startEmail('email_tracking_flush', {
      TRACKING_FLUSH_MS: '60000',
      TRACKING_BATCH_SIZE: '10000',
    });
    const pool = new pg.Pool({ connectionString: s.databaseUrl, max: 2 });
    try {
      const m = await trackedMail(s, pool, 'flush@example.com');
      const N = 300;
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          s.call('GET', i % 3 ? m.pixel : m.click, undefined, { 'user-agent': IPHONE }),
        ),
      );
      expect(answers.filter((a) => a.status === 200 || a.status === 302)).toHaveLength(N);
      // Buffered, not yet written: the batch is neither full nor due.
      const before = await pool.query(`SELECT count(*)::int AS n FROM "email_events"`);
      expect(before.rows[0].n).toBe(0);
      await s.svc.stop();
      const after = await pool.query(
        `SELECT count(*)::int AS n FROM "email_events" WHERE "tracking_id" = $1`,
        [m.trackingId],
      );
      expect(after.rows[0].n).toBe(N);
      const counters = await pool.query(
        `SELECT "open_count", "click_count" FROM "email_tracking" WHERE "tracking_id" = $1`,
        [m.trackingId],
      );
      expect(counters.rows[0]).toEqual({ open_count: 200, click_count: 100 });
    } finally {
      await pool.end();
      await s.stop();
    }
  });
});
