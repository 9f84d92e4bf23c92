import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmailUnderTest, startEmail } from './mail-peers.ts';

/**
 * With no SMTP or SES configured, campaign mail goes to the local mailbox: the admin sees what
 * each recipient got in Sent mail (personalised, linked to its tracking): every mail, as with
 * any transport (sent-mail.int.test.ts), rendered again from its send's content.
 */

let t: EmailUnderTest;
let db: pg.Pool;

const until = async <T>(fn: () => Promise<T | null | undefined | false>, label: string, ms = 30_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

beforeAll(async () => {
  t = await startEmail('email_campaigns_local', {
    CAMPAIGN_TICK_MS: '150',
    CAMPAIGN_POLL_MS: '30',
    CAMPAIGN_BATCH_SIZE: '2',
    CAMPAIGN_CONCURRENCY: '2',
  });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
}, 60_000);

afterAll(async () => {
  await db?.end();
  await t?.stop();
});

describe('campaign mail through the local transport', () => {
  it('is kept in Sent mail, every mail, each linked to its tracking', async () => {
    const admin = await t.admin();
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "address_books" ("name") VALUES ('Local readers') RETURNING "id"`,
    );
    const bookId = rows[0]?.id as number;
    for (const name of ['ada', 'bob', 'cy', 'dee', 'eve'])
      await db.query(
        `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "company") VALUES ($1, $2, $3, 'Acme')`,
        [bookId, `${name}@example.com`, name.toUpperCase()],
      );
    const created = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Local launch',
        subject: 'Hello {{firstName}}',
        fromName: 'Parley',
        fromEmail: 'news@parley.test',
        htmlContent: '<p>Hi {{firstName}} of {{company}}</p><a href="https://parley.test/offer">Offer</a>',
        targetAddressBooks: [bookId],
      },
      admin,
    );
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: number }).id;
    const sent = await t.call('POST', `/api/admin/email/campaigns/${id}/send`, { confirmSend: true }, admin);
    expect(sent.status, sent.text).toBe(200);
    await until(async () => {
      const r = await t.call('GET', `/api/admin/email/campaigns/${id}`, undefined, admin);
      return r.json?.status === 'sent' ? r.json : null;
    }, 'campaign sent');

    const outbox = await t.call('GET', '/api/admin/email/outbox?kind=campaign', undefined, admin);
    expect(outbox.status).toBe(200);
    const items = (outbox.json as { items: Array<{ id: string; to: string; subject: string; kind: string }> })
      .items;
    // Five went out; Sent mail has the five.
    expect(items).toHaveLength(5);
    expect(items.every((m) => m.kind === 'campaign')).toBe(true);
    const { rows: counted } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM "email_tracking" WHERE "campaign_id" = $1 AND "status" = 'sent'`,
      [id],
    );
    expect(Number(counted[0]?.n)).toBe(5);

    const first = items[0] as { id: string; to: string; subject: string };
    const name = first.to.split('@')[0]?.toUpperCase();
    expect(first.subject).toBe(`Hello ${name}`);
    const detail = await t.call('GET', `/api/admin/email/outbox/${first.id}`, undefined, admin);
    expect(detail.status).toBe(200);
    const d = detail.json as {
      html: string;
      transport: string;
      status: string;
      tracking: { trackingId: string } | null;
      headers: Record<string, string>;
    };
    expect(d.transport).toBe('local');
    expect(d.status).toBe('sent');
    expect(d.html).toContain(`Hi ${name} of Acme`);
    // Viewing is not reading: no open pixel, the link points at its destination.
    expect(d.html).not.toContain('/api/track/');
    expect(d.html).toContain('href="https://parley.test/offer"');
    expect(d.tracking?.trackingId).toBeTruthy();
  });
  it("fills each recipient's {{attr.key}} from its contact's attributes as the send wrote them, fallbacks for the rest", async () => {
    const admin = await t.admin();
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "address_books" ("name") VALUES ('Attribute readers') RETURNING "id"`,
    );
    const bookId = rows[0]?.id as number;
    await db.query(
      `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "custom_fields") VALUES
         ($1, 'pro@attrs.example.com', 'Pat', '{"plan": "Pro <team>", "seats": 12}'),
         ($1, 'plain@attrs.example.com', 'Lee', '{}')`,
      [bookId],
    );
    const created = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Attributes launch',
        subject: 'Your {{attr.plan|free}} plan',
        fromName: 'Parley',
        fromEmail: 'news@parley.test',
        htmlContent: '<p>{{attr.plan|Free}} plan, {{attr.seats|1}} seats</p>',
        targetAddressBooks: [bookId],
      },
      admin,
    );
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: number }).id;
    // Edited after the launch: the mail keeps what the send wrote.
    const sent = await t.call('POST', `/api/admin/email/campaigns/${id}/send`, { confirmSend: true }, admin);
    expect(sent.status, sent.text).toBe(200);
    await db.query(
      `UPDATE "email_contacts" SET "custom_fields" = '{"plan": "Changed"}' WHERE "email" = 'pro@attrs.example.com'`,
    );
    await until(async () => {
      const r = await t.call('GET', `/api/admin/email/campaigns/${id}`, undefined, admin);
      return r.json?.status === 'sent' ? r.json : null;
    }, 'campaign sent');
    const { rows: stored } = await db.query<{ email: string; attributes: unknown }>(
      `SELECT r."email", r."attributes" FROM "email_campaign_recipients" r JOIN "email_campaign_sends" s ON s."id" = r."send_id"
       WHERE s."campaign_id" = $1 ORDER BY r."email"`,
      [id],
    );
    expect(stored).toEqual([
      { email: 'plain@attrs.example.com', attributes: null },
      { email: 'pro@attrs.example.com', attributes: { plan: 'Pro <team>', seats: 12 } },
    ]);
    const outbox = await t.call('GET', '/api/admin/email/outbox?kind=campaign', undefined, admin);
    const items = (outbox.json as { items: Array<{ id: string; to: string; subject: string }> }).items.filter(
      (m) => m.to.endsWith('@attrs.example.com'),
    );
    const byTo = Object.fromEntries(items.map((m) => [m.to, m]));
    expect(byTo['pro@attrs.example.com']?.subject).toBe('Your Pro <team> plan');
    expect(byTo['plain@attrs.example.com']?.subject).toBe('Your free plan');
    const pro = await t.call(
      'GET',
      `/api/admin/email/outbox/${byTo['pro@attrs.example.com']?.id}`,
      undefined,
      admin,
    );
    expect((pro.json as { html: string }).html).toContain('Pro &lt;team&gt; plan, 12 seats');
    const plain = await t.call(
      'GET',
      `/api/admin/email/outbox/${byTo['plain@attrs.example.com']?.id}`,
      undefined,
      admin,
    );
    expect((plain.json as { html: string }).html).toContain('Free plan, 1 seats');
  });
});
