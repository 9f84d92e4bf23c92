import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersOf } from '../src/features/delivery/domain/mime.ts';
import { TokenSigner } from '../src/shared/tokens.ts';
import { type EmailUnderTest, startEmail } from './mail-peers.ts';

/**
 * Unsubscribe (RFC 8058) on the real service: the page never unsubscribes on GET; the
 * page's form post and a provider's one-click post take effect at once; tokens are per
 * recipient and signed; a repeat changes nothing.
 */

let t: EmailUnderTest;
let db: pg.Pool;

beforeAll(async () => {
  t = await startEmail('email_unsubscribe');
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
});

afterAll(async () => {
  await db?.end();
  await t?.stop();
});

async function marketingMail(email: string) {
  const r = await t.call('POST', '/api/admin/email/test-tracking', { email }, await t.admin());
  expect(r.status).toBe(200);
  const { rows } = await db.query(`SELECT "raw" FROM "mail_messages" WHERE "id" = $1`, [r.json.id]);
  const header = headersOf(rows[0].raw).find((h) => h.name === 'List-Unsubscribe')!.value;
  const url = /<(https:[^>]+)>/.exec(header)![1]!;
  return { trackingId: r.json.trackingId as string, path: new URL(url).pathname };
}

const state = async (trackingId: string, email: string) => ({
  tracking: (
    await db.query(`SELECT "status", "unsubscribed_at" FROM "email_tracking" WHERE "tracking_id" = $1`, [
      trackingId,
    ])
  ).rows[0],
  address: (
    await db.query(`SELECT "unsubscribed_at" FROM "mail_address_states" WHERE "address" = $1`, [email])
  ).rows[0],
  events: (
    await db.query(`SELECT "event_type", "event_data" FROM "email_events" WHERE "tracking_id" = $1`, [
      trackingId,
    ])
  ).rows,
});

describe('unsubscribe page', () => {
  it('shows a confirm page on GET (accessible, script-free, strict CSP) and changes nothing', async () => {
    const m = await marketingMail('reader@example.com');
    for (let i = 0; i < 3; i++) {
      const page = await t.call('GET', m.path, undefined, { accept: 'text/html' });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.text).toContain('<html lang="en">');
      expect(page.text).toContain('<h1>Unsubscribe</h1>');
      expect(page.text).toContain('r*****@example.com');
      expect(page.text).not.toContain('reader@example.com');
      expect(page.text).toContain(`<form method="post" action="${m.path}">`);
      expect(page.text).toContain('<button type="submit">Unsubscribe</button>');
      expect(page.text).not.toMatch(/<script/i);
    }
    const s = await state(m.trackingId, 'reader@example.com');
    expect(s.tracking).toMatchObject({ status: 'sent', unsubscribed_at: null });
    expect(s.address).toBeUndefined();
    expect(s.events).toHaveLength(0);

    // The page's form post (a browser: form-encoded, wants HTML).
    const done = await t.call('POST', m.path, 'confirm=1', {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain('<h1>You are unsubscribed</h1>');
    const after = await state(m.trackingId, 'reader@example.com');
    expect(after.tracking.status).toBe('unsubscribed');
    expect(after.address.unsubscribed_at).toBeInstanceOf(Date);
    expect(after.events).toEqual([
      { event_type: 'unsubscribe', event_data: expect.objectContaining({ source: 'unsubscribe-page' }) },
    ]);
    const again = await t.call('GET', m.path, undefined, { accept: 'text/html' });
    expect(again.text).toContain('<h1>You are unsubscribed</h1>');
    expect(again.text).not.toContain('<form');
  });

  it('takes a one-click POST (List-Unsubscribe=One-Click) at once; a repeat is harmless', async () => {
    const m = await marketingMail('oneclick@example.com');
    const r = await t.call('POST', m.path, 'List-Unsubscribe=One-Click', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ success: true, message: 'Unsubscribed' });
    const multipart = await t.call(
      'POST',
      m.path,
      '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n',
      { 'content-type': 'multipart/form-data; boundary=b' },
    );
    expect(multipart.status).toBe(200);
    const s = await state(m.trackingId, 'oneclick@example.com');
    expect(s.tracking.status).toBe('unsubscribed');
    expect(s.events).toEqual([
      { event_type: 'unsubscribe', event_data: expect.objectContaining({ source: 'one-click' }) },
    ]);
  });

  it('refuses forged and cross-purpose tokens with 404 and records nothing', async () => {
    const m = await marketingMail('safe@example.com');
    const id = m.trackingId;
    const signer = new TokenSigner(t.signingSecret);
    for (const token of [
      `${id}.${'A'.repeat(22)}`,
      new TokenSigner('y'.repeat(64)).sign('unsubscribe', id),
      signer.sign('open', id),
      // A well-signed token for a message that does not exist.
      signer.sign('unsubscribe', 'B'.repeat(22)),
      'garbage',
    ]) {
      const post = await t.call('POST', `/api/unsubscribe/${token}`, 'List-Unsubscribe=One-Click', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(post.status, token).toBe(404);
      expect(post.json).toMatchObject({ error: 'Not Found' });
      const page = await t.call('GET', `/api/unsubscribe/${token}`, undefined, { accept: 'text/html' });
      expect(page.status).toBe(404);
      expect(page.text).toContain('This unsubscribe link is not valid');
    }
    expect((await state(id, 'safe@example.com')).tracking.status).toBe('sent');
  });
});
