import { simpleParser } from 'mailparser';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenSigner } from '../src/shared/tokens.ts';
import { type EmailUnderTest, type SmtpSink, startEmail, startSmtpSink } from './mail-peers.ts';

/**
 * Every mail accounted for (issue 35, item 4). With SMTP as the transport, Sent mail listed
 * no campaign mail (only the local mailbox kept any), although it says "Every message the
 * platform sent". Now every campaign mail is in Sent mail whatever the transport, listed from
 * its recipient row (no row more a mail) and rendered again on view (the same bytes the SMTP
 * peer received), searchable by recipient, campaign and kind, and bounded by a stated
 * retention rule (a job prunes stored messages in batches; campaign mail older is not listed).
 * Each campaign has a delivery log (outcome, opens, clicks, unsubscribe per recipient),
 * filterable, paged by keyset, exportable as CSV with formulas neutralised.
 */

let t: EmailUnderTest;
let sink: SmtpSink;
let db: pg.Pool;
let admin: Record<string, string>;
let campaignId: number;
const RECIPIENTS = [
  'ada@example.com',
  'bad@example.com',
  'bob@example.com',
  'cy@example.com',
  '+cmd@example.com',
];

const until = async <T>(fn: () => Promise<T | null | undefined | false>, label: string, ms = 30_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const get = async (path: string) => {
  const r = await t.call('GET', path, undefined, admin);
  expect(r.status, r.text).toBe(200);
  return r.json;
};

beforeAll(async () => {
  sink = await startSmtpSink();
  // The address the server does not know is refused at RCPT TO: a bounce at send time.
  sink.rcpt = (address) => (address.startsWith('bad@') ? { code: 550, message: '5.1.1 No such user' } : null);
  t = await startEmail('email_sent_mail', {
    CAMPAIGN_TICK_MS: '150',
    CAMPAIGN_POLL_MS: '30',
    CAMPAIGN_BATCH_SIZE: '2',
    CAMPAIGN_CONCURRENCY: '2',
    SENT_MAIL_RETENTION_DAYS: '7',
    SENT_MAIL_PRUNE_MS: '200',
    SENT_MAIL_PRUNE_BATCH: '2',
    TRACKING_FLUSH_MS: '20',
  });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
  admin = await t.admin();
  await t.setting('smtp_host', '127.0.0.1', 1);
  await t.setting('smtp_port', String(sink.port), 1);
  await until(
    async () => (await db.query(`SELECT 1 FROM "mail_settings" WHERE "key" = 'smtp_port'`)).rowCount,
    'the SMTP settings copied',
  );
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "address_books" ("name") VALUES ('Readers') RETURNING "id"`,
  );
  for (const email of RECIPIENTS)
    await db.query(
      `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "company") VALUES ($1, $2, $3, 'Acme')`,
      [rows[0]?.id, email, email.split('@')[0]?.replace('+', '').toUpperCase()],
    );
  const created = await t.call(
    'POST',
    '/api/admin/email/campaigns',
    {
      name: 'Autumn offer',
      subject: 'Hello {{firstName}}',
      fromName: 'Parley',
      fromEmail: 'news@parley.test',
      htmlContent: '<p>Hi {{firstName}} of {{company}}</p><a href="https://parley.test/offer">Offer</a>',
      targetAddressBooks: [rows[0]?.id],
    },
    admin,
  );
  expect(created.status, created.text).toBe(201);
  campaignId = created.json.id;
  const sent = await t.call(
    'POST',
    `/api/admin/email/campaigns/${campaignId}/send`,
    { confirmSend: true },
    admin,
  );
  expect(sent.status, sent.text).toBe(200);
  await until(
    async () => (await get(`/api/admin/email/campaigns/${campaignId}`)).status === 'sent',
    'campaign sent',
  );
}, 90_000);

afterAll(async () => {
  await db?.end();
  await t?.stop();
  await sink?.close();
});

describe('Sent mail', () => {
  it('lists every campaign mail the SMTP transport took, by campaign, recipient and kind', async () => {
    const page = await get(`/api/admin/email/outbox?campaignId=${campaignId}`);
    expect(page).toMatchObject({ retentionDays: 7, total: 5, totalExact: true, transport: 'smtp' });
    expect(page.campaigns).toContainEqual({ id: campaignId, name: 'Autumn offer', kind: 'campaign' });
    const byTo = new Map(page.items.map((m: { to: string }) => [m.to, m]));
    expect([...byTo.keys()].sort()).toEqual([...RECIPIENTS].sort());
    expect(byTo.get('ada@example.com')).toMatchObject({
      kind: 'campaign',
      subject: 'Hello ADA',
      status: 'sent',
      transport: 'smtp',
      campaignId,
      rendered: true,
      marketing: true,
    });
    expect(byTo.get('bad@example.com')).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('550'),
    });

    // Recipient: an address or its beginning, any case; kind; keyset pages.
    expect((await get('/api/admin/email/outbox?to=ADA@')).items.map((m: { to: string }) => m.to)).toEqual([
      'ada@example.com',
    ]);
    expect((await get('/api/admin/email/outbox?to=b')).total).toBe(2);
    expect((await get('/api/admin/email/outbox?kind=campaign')).total).toBe(5);
    expect((await get('/api/admin/email/outbox?kind=booking_confirmation')).total).toBe(0);
    const first = await get(`/api/admin/email/outbox?campaignId=${campaignId}&limit=2`);
    expect(first.items).toHaveLength(2);
    const second = await get(
      `/api/admin/email/outbox?campaignId=${campaignId}&limit=2&before=${first.nextCursor}`,
    );
    const third = await get(
      `/api/admin/email/outbox?campaignId=${campaignId}&limit=2&before=${second.nextCursor}`,
    );
    expect(third.nextCursor).toBeNull();
    const seen = [...first.items, ...second.items, ...third.items].map((m: { id: string }) => m.id);
    expect(new Set(seen).size).toBe(5);
  });

  it('shows a campaign mail rendered again: the very bytes the SMTP server received', async () => {
    const { items } = await get('/api/admin/email/outbox?to=ada@example.com');
    const detail = await get(`/api/admin/email/outbox/${items[0].id}`);
    const received = sink.received.find((m) => m.envelope.to.includes('ada@example.com'));
    expect(received).toBeDefined();
    expect(detail.raw).toBe(received?.raw.toString('utf8'));
    const parsed = await simpleParser(detail.raw);
    expect(parsed.messageId).toBe(`<${detail.tracking.trackingId}@parley.test>`);
    expect(detail).toMatchObject({ rendered: true, contentNote: null, subject: 'Hello ADA' });
    expect(detail.html).toContain('Hi ADA of Acme');
    // Viewing is not reading: no open pixel, the link points at its destination.
    expect(detail.html).not.toContain('/api/track/');
    expect(detail.html).toContain('href="https://parley.test/offer"');
    expect(detail).toMatchObject({ id: items[0].id, messageId: parsed.messageId?.slice(1, -1) });
    // Listed from its recipient row: the send stored no message, no bytes, for Sent mail.
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM "mail_messages" WHERE "campaign_id" = $1`,
      [String(campaignId)],
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('keeps every message for the stated days: a job prunes older ones in batches', async () => {
    await db.query(
      `INSERT INTO "mail_messages" ("message_id", "kind", "from_address", "to_address", "subject", "raw", "size_bytes",
         "status", "created_at")
       SELECT 'old-' || i || '@parley.test', 'test', 'a@parley.test', 'old@example.com', 'Old', '\\x00', 1, 'sent',
              now() - interval '8 days'
       FROM generate_series(1, 5) i`,
    );
    await db.query(
      `INSERT INTO "mail_messages" ("message_id", "kind", "from_address", "to_address", "subject", "raw", "size_bytes",
         "status", "created_at")
       VALUES ('recent@parley.test', 'test', 'a@parley.test', 'old@example.com', 'Recent', '\\x00', 1, 'sent',
               now() - interval '6 days')`,
    );
    await until(
      async () =>
        (await db.query(`SELECT 1 FROM "mail_messages" WHERE "message_id" LIKE 'old-%'`)).rowCount === 0,
      'mail older than 7 days pruned',
    );
    expect(
      (await get('/api/admin/email/outbox?to=old@')).items.map((m: { subject: string }) => m.subject),
    ).toEqual(['Recent']);
    expect((await get(`/api/admin/email/outbox?campaignId=${campaignId}`)).total).toBe(5);

    // Campaign mail composed longer ago than the rule is not listed (its row stays: it is the
    // campaign's report).
    const { rows } = await db.query<{ sending_at: Date }>(
      `UPDATE "email_campaign_recipients" SET "sending_at" = now() - interval '8 days'
       WHERE "email_key" = 'bob@example.com' RETURNING old."sending_at"`,
    );
    expect((await get(`/api/admin/email/outbox?campaignId=${campaignId}`)).total).toBe(4);
    expect((await get('/api/admin/email/outbox?to=bob@')).items).toEqual([]);
    await db.query(
      `UPDATE "email_campaign_recipients" SET "sending_at" = $1 WHERE "email_key" = 'bob@example.com'`,
      [rows[0]?.sending_at],
    );

    // Stored messages and campaign mail in one newest-first order, paged by keyset across both.
    const all = await get('/api/admin/email/outbox?limit=200');
    const paged: string[] = [];
    let before: string | null = null;
    do {
      const page = await get(`/api/admin/email/outbox?limit=2${before ? `&before=${before}` : ''}`);
      paged.push(...page.items.map((m: { id: string }) => m.id));
      before = page.nextCursor;
    } while (before);
    expect(paged).toEqual(all.items.map((m: { id: string }) => m.id));
    expect(all.total).toBe(6);
    const times = all.items.map((m: { createdAt: string }) => m.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe("a campaign's delivery log", () => {
  const log = (query = '') => get(`/api/admin/email/campaigns/${campaignId}/delivery-log${query}`);

  it('lists each recipient with its outcome, opens, clicks and unsubscribe, by address', async () => {
    const signer = new TokenSigner(t.signingSecret);
    const tracking = async (email: string) =>
      (
        await db.query<{ tracking_id: string }>(
          `SELECT "tracking_id" FROM "email_tracking" WHERE "email" = $1`,
          [email],
        )
      ).rows[0]?.tracking_id as string;
    const ada = await tracking('ada@example.com');
    expect((await t.call('GET', `/api/track/open/${signer.sign('open', ada)}`)).status).toBe(200);
    const cy = await tracking('cy@example.com');
    expect((await t.call('POST', `/api/unsubscribe/${signer.sign('unsubscribe', cy)}`, {})).status).toBe(200);
    await until(async () => (await log('?opened=true')).items.length === 1, 'the open recorded');

    const all = await log();
    expect(all.send).toMatchObject({ kind: 'send', testMode: false, total: 5 });
    expect(all.sends).toHaveLength(1);
    expect(all.counts).toEqual({
      total: 5,
      queued: 0,
      sent: 4,
      failed: 0,
      unknown: 0,
      bounced: 1,
      complained: 0,
      opened: 1,
      clicked: 0,
      unsubscribed: 1,
    });
    // Those figures are what the finished send keeps, not a pass over its rows per page ...
    const sendId = all.send.id;
    await db.query(`UPDATE "email_campaign_sends" SET "sent_count" = "sent_count" + 1000 WHERE "id" = $1`, [
      sendId,
    ]);
    expect((await log()).counts).toMatchObject({ sent: 1004 });
    await db.query(`UPDATE "email_campaign_sends" SET "sent_count" = "sent_count" - 1000 WHERE "id" = $1`, [
      sendId,
    ]);
    // ... and, while a send is not finished, a count by outcome on its index: the same.
    await db.query(`UPDATE "email_campaign_sends" SET "status" = 'paused' WHERE "id" = $1`, [sendId]);
    expect((await log()).counts).toEqual(all.counts);
    await db.query(`UPDATE "email_campaign_sends" SET "status" = 'done' WHERE "id" = $1`, [sendId]);

    expect(all.items.map((i: { email: string }) => i.email)).toEqual([
      '+cmd@example.com',
      'ada@example.com',
      'bad@example.com',
      'bob@example.com',
      'cy@example.com',
    ]);
    expect(all.items[1]).toMatchObject({ status: 'sent', opens: 1, clicks: 0, openedAt: expect.any(String) });
    expect(all.items[2]).toMatchObject({ status: 'bounced', lastError: expect.stringContaining('550') });
    expect(all.items[4]).toMatchObject({ status: 'sent', unsubscribedAt: expect.any(String) });

    // Filters, each alone and together.
    const emails = (page: { items: Array<{ email: string }> }) => page.items.map((i) => i.email);
    expect(emails(await log('?status=bounced'))).toEqual(['bad@example.com']);
    expect(emails(await log('?status=sent&opened=false'))).toEqual([
      '+cmd@example.com',
      'bob@example.com',
      'cy@example.com',
    ]);
    expect(emails(await log('?unsubscribed=true'))).toEqual(['cy@example.com']);
    expect(emails(await log('?q=B'))).toEqual(['bad@example.com', 'bob@example.com']);
    expect((await log('?status=complained')).items).toEqual([]);

    // Keyset pages: the figures come with the first page only.
    const one = await log('?limit=2');
    const two = await log(`?limit=2&after=${one.nextCursor}`);
    const three = await log(`?limit=2&after=${two.nextCursor}`);
    expect(two.counts).toBeNull();
    expect([...emails(one), ...emails(two), ...emails(three)]).toEqual(emails(all));
    expect(three.nextCursor).toBeNull();
  });

  it('exports the filtered log as CSV, every cell quoted, formulas neutralised', async () => {
    const r = await t.call(
      'GET',
      `/api/admin/email/campaigns/${campaignId}/delivery-log/export`,
      undefined,
      admin,
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toMatch(
      /filename="autumn-offer-delivery-log-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = r.text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe(
      'Email,Status,Sent (UTC),Attempts,Opens,Proxy opens,Clicks,First opened (UTC),First clicked (UTC),Unsubscribed (UTC),Error',
    );
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(/^"'\+cmd@example\.com","sent",/);
    expect(lines[3]).toMatch(/^"bad@example\.com","bounced",/);
    const bounced = await t.call(
      'GET',
      `/api/admin/email/campaigns/${campaignId}/delivery-log/export?status=bounced`,
      undefined,
      admin,
    );
    expect(bounced.text.trimEnd().split('\n')).toHaveLength(2);
    expect(
      (await t.call('GET', '/api/admin/email/campaigns/999999/delivery-log', undefined, admin)).status,
    ).toBe(404);
  });
});
