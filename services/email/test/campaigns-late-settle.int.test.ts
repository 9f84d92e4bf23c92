import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmailUnderTest, type SmtpSink, startEmail, startSmtpSink } from './mail-peers.ts';

/**
 * A worker whose lease runs out while its SMTP server is slow: the reaper calls its rows
 * unknown, the send completes on those counts, then the server answers and the worker settles
 * what really happened (sent). The send's counts, and so the campaign's progress and reports,
 * follow the rows: no mail counted unknown that the database knows went out. The same for a
 * send cancelled while its mails were in flight (they were counted as nothing), and Sent mail
 * keeps the worker's outcome over the reaper's.
 */
let t: EmailUnderTest;
let smtp: SmtpSink;
let db: pg.Pool;
// The cancel case: leases long enough that nothing is reaped while the server is slow.
let t2: EmailUnderTest;
let smtp2: SmtpSink;
let db2: pg.Pool;

const until = async <T>(fn: () => Promise<T | null | undefined | false>, ms: number, label: string) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

beforeAll(async () => {
  // Each message is answered after 5 s; a lease lasts 0.3 s and the reaper looks every 0.1 s.
  smtp = await startSmtpSink({ delayMs: 5000 });
  t = await startEmail('email_late_settle', {
    CAMPAIGN_TICK_MS: '100',
    CAMPAIGN_POLL_MS: '30',
    CAMPAIGN_BATCH_SIZE: '5',
    CAMPAIGN_CONCURRENCY: '1',
    CAMPAIGN_LEASE_SECONDS: '0.3',
  });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 3 });
  await t.setting('smtp_host', '127.0.0.1', 1);
  await t.setting('smtp_port', String(smtp.port), 1);
  await until(
    async () => (await db.query(`SELECT 1 FROM "mail_settings" WHERE "key" = 'smtp_port'`)).rowCount,
    10_000,
    'settings copy',
  );
  smtp2 = await startSmtpSink({ delayMs: 3000 });
  t2 = await startEmail('email_cancel_in_flight', {
    CAMPAIGN_TICK_MS: '100',
    CAMPAIGN_POLL_MS: '30',
    CAMPAIGN_BATCH_SIZE: '5',
    CAMPAIGN_CONCURRENCY: '5',
    CAMPAIGN_LEASE_SECONDS: '60',
  });
  db2 = new pg.Pool({ connectionString: t2.databaseUrl, max: 3 });
  await t2.setting('smtp_host', '127.0.0.1', 1);
  await t2.setting('smtp_port', String(smtp2.port), 1);
  await until(
    async () => (await db2.query(`SELECT 1 FROM "mail_settings" WHERE "key" = 'smtp_port'`)).rowCount,
    10_000,
    'settings copy',
  );
}, 90_000);

afterAll(async () => {
  await db?.end();
  await t?.stop();
  await smtp?.close();
  await db2?.end();
  await t2?.stop();
  await smtp2?.close();
});

/** A campaign to five contacts of a new book, launched; answers its id. */
async function launchFive(u: EmailUnderTest, pool: pg.Pool, name: string): Promise<number> {
  const admin = await u.admin();
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO "address_books" ("name") VALUES ($1) RETURNING "id"`,
    [name],
  );
  const book = rows[0]?.id as number;
  for (let i = 0; i < 5; i++)
    await pool.query(
      `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name") VALUES ($1, $2, 'Late')`,
      [book, `${name.toLowerCase()}${i}@example.com`],
    );
  const c = await u.call(
    'POST',
    '/api/admin/email/campaigns',
    {
      name,
      subject: 'Late {{firstName}}',
      fromName: 'Parley',
      fromEmail: 'news@parley.test',
      htmlContent: '<p>Hi {{firstName}}</p>',
      targetAddressBooks: [book],
    },
    admin,
  );
  expect(c.status, c.text).toBe(201);
  const id = c.json.id as number;
  const launched = await u.call(
    'POST',
    `/api/admin/email/campaigns/${id}/send`,
    { confirmSend: true },
    admin,
  );
  expect(launched.status, launched.text).toBe(200);
  return id;
}

const sentRows = async (pool: pg.Pool, id: number) =>
  Number(
    (
      await pool.query(
        `SELECT count(*) FROM "email_campaign_recipients" r JOIN "email_campaign_sends" s ON s."id" = r."send_id"
         WHERE s."campaign_id" = $1 AND r."status" = 'sent'`,
        [id],
      )
    ).rows[0].count,
  );

describe('a send completed while its rows were unknown', () => {
  it('recounts when the worker settles them late', async () => {
    const id = await launchFive(t, db, 'Late');

    // The race happened: the send was completed while its rows were unknown.
    const early = await until(
      async () =>
        (
          await db.query<{ status: string; unknown_count: number }>(
            `SELECT "status", "unknown_count" FROM "email_campaign_sends" WHERE "campaign_id" = $1 AND "status" = 'done'`,
            [id],
          )
        ).rows[0],
      20_000,
      'the send completed on unknown rows',
    );
    expect(early.unknown_count).toBeGreaterThan(0);

    // The server answers; the worker settles what went out.
    await until(async () => (await sentRows(db, id)) === 5, 30_000, 'the late settle');
    const progress = await t.call(
      'GET',
      `/api/admin/email/campaigns/${id}/progress`,
      undefined,
      await t.admin(),
    );
    expect(progress.json).toMatchObject({ total: 5, sent: 5, unknown: 0, failed: 0 });
    // The campaign's own total (its card, its rates) follows too.
    const campaign = await t.call('GET', `/api/admin/email/campaigns/${id}`, undefined, await t.admin());
    expect(campaign.json).toMatchObject({ status: 'sent', sentCount: 5 });

    // Sent mail lists the rows: the worker's outcome, dated by its claim, so each renders
    // again as the bytes the server received.
    const admin = await t.admin();
    const outbox = await t.call('GET', `/api/admin/email/outbox?campaignId=${id}`, undefined, admin);
    expect(outbox.json.items).toHaveLength(5);
    for (const m of outbox.json.items as Array<{ id: string; to: string; status: string }>) {
      expect(m, m.to).toMatchObject({ status: 'sent', transport: 'smtp' });
      const detail = await t.call('GET', `/api/admin/email/outbox/${m.id}`, undefined, admin);
      const received = smtp.received.find((x) => x.envelope.to.includes(m.to));
      expect(detail.json.raw, m.to).toBe(received?.raw.toString('utf8'));
    }
  }, 90_000);
});

describe('a send cancelled while its mails are in flight', () => {
  it('counts the mails settled after the cancel, in the send and the campaign', async () => {
    const id = await launchFive(t2, db2, 'Stopped');
    // All five handed to the slow server (3 s), none answered yet.
    await until(
      async () =>
        Number(
          (
            await db2.query(
              `SELECT count(*) FROM "email_campaign_recipients" r JOIN "email_campaign_sends" s ON s."id" = r."send_id"
               WHERE s."campaign_id" = $1 AND r."status" = 'sending'`,
              [id],
            )
          ).rows[0].count,
        ) === 5,
      20_000,
      'five mails in flight',
    );
    const admin = await t2.admin();
    const cancelled = await t2.call('POST', `/api/admin/email/campaigns/${id}/cancel`, {}, admin);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json).toMatchObject({ status: 'cancelled' });

    await until(async () => (await sentRows(db2, id)) === 5, 30_000, 'the settle after the cancel');
    await until(
      async () =>
        (
          await db2.query(
            `SELECT 1 FROM "email_campaign_sends" WHERE "campaign_id" = $1 AND "sent_count" = 5`,
            [id],
          )
        ).rowCount,
      10_000,
      "the send's count",
    );
    const campaign = await t2.call('GET', `/api/admin/email/campaigns/${id}`, undefined, admin);
    expect(campaign.json).toMatchObject({ status: 'cancelled', sentCount: 5 });
    expect(campaign.json.progress).toMatchObject({ status: 'cancelled', sent: 5, failed: 0, unknown: 0 });
  }, 90_000);
});
