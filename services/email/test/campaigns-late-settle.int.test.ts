import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmailUnderTest, type SmtpSink, startEmail, startSmtpSink } from './mail-peers.ts';

/**
 * A worker whose lease runs out while its SMTP server is slow: the reaper calls its rows
 * unknown, the send completes on those counts, then the server answers and the worker settles
 * what really happened (sent). The send's counts, and so the campaign's progress and reports,
 * follow the rows: no mail counted unknown that the database knows went out.
 */
let t: EmailUnderTest;
let smtp: SmtpSink;
let db: pg.Pool;

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
}, 60_000);

afterAll(async () => {
  await db?.end();
  await t?.stop();
  await smtp?.close();
});

describe('a send completed while its rows were unknown', () => {
  it('recounts when the worker settles them late', async () => {
    const admin = await t.admin();
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "address_books" ("name") VALUES ('Late') RETURNING "id"`,
    );
    const book = rows[0]?.id as number;
    for (let i = 0; i < 5; i++)
      await db.query(
        `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name") VALUES ($1, $2, 'Late')`,
        [book, `late${i}@example.com`],
      );
    const c = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Late',
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
    const launched = await t.call(
      'POST',
      `/api/admin/email/campaigns/${id}/send`,
      { confirmSend: true },
      admin,
    );
    expect(launched.status, launched.text).toBe(200);

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
    await until(
      async () =>
        Number(
          (
            await db.query(
              `SELECT count(*) FROM "email_campaign_recipients" r JOIN "email_campaign_sends" s ON s."id" = r."send_id"
               WHERE s."campaign_id" = $1 AND r."status" = 'sent'`,
              [id],
            )
          ).rows[0].count,
        ) === 5,
      30_000,
      'the late settle',
    );
    const progress = await t.call(
      'GET',
      `/api/admin/email/campaigns/${id}/progress`,
      undefined,
      await t.admin(),
    );
    expect(progress.json).toMatchObject({ total: 5, sent: 5, unknown: 0, failed: 0 });
  }, 90_000);
});
