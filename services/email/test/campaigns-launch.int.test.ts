import { createLogger, HttpError, migrate } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LaunchService } from '../src/features/campaigns/launch.service.ts';
import type { SettingsCopy } from '../src/features/delivery/settings-copy.repository.ts';

/**
 * The launch service alone (src/campaigns/launch.service.ts), on the email service's
 * migrated schema with no service and no worker running: a launch writes one recipient per
 * address less suppressions (with tracking rows and the content kept on the send), the
 * hourly limit holds live launches and not test sends, a scheduled launch resolves its
 * recipients at dispatch, and pause, resume and cancel move the campaign and its send.
 */

const MIGRATIONS = new URL('../prisma/migrations', import.meta.url).pathname;
let pool: pg.Pool;
let settings: Map<string, string>;
let kicks = 0;
let completions = 0;
let book: number;
let other: number;

const service = (liveSendsPerHour: number) =>
  new LaunchService({
    pool,
    logger: createLogger('launch-test', 'silent'),
    settings: {
      fresh: async () => ({ get: (k: string) => settings.get(k), values: settings }),
    } as unknown as SettingsCopy,
    liveSendsPerHour,
    workerId: 'test-worker',
    kick: () => {
      kicks++;
    },
    completeFinished: async () => {
      completions++;
    },
  });

beforeAll(async () => {
  const url = await createTestDatabase('email_launch');
  await migrate(url, MIGRATIONS);
  pool = new pg.Pool({ connectionString: url, max: 4 });
  settings = new Map();
  book = (
    await pool.query<{ id: number }>(`INSERT INTO "address_books" ("name") VALUES ('Launch') RETURNING "id"`)
  ).rows[0]?.id as number;
  other = (
    await pool.query<{ id: number }>(`INSERT INTO "address_books" ("name") VALUES ('Other') RETURNING "id"`)
  ).rows[0]?.id as number;
  // a, b, c (suppressed) in the book; B again (another case) and d in the other book.
  await pool.query(
    `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name")
     VALUES ($1, 'a@x.test', 'A'), ($1, 'b@x.test', 'B'), ($1, 'c@x.test', 'C'), ($2, 'B@x.test', 'B2'), ($2, 'd@x.test', 'D')`,
    [book, other],
  );
  await pool.query(
    `INSERT INTO "email_suppressions" ("address", "reason", "source") VALUES ('c@x.test', 'bounced', 'test')`,
  );
}, 60_000);

afterAll(async () => {
  await pool?.end();
});

let campaigns = 0;
async function campaign(scheduledAt: Date | null = null): Promise<number> {
  const tag = `l${++campaigns}`;
  return (
    await pool.query<{ id: number }>(
      `INSERT INTO "email_campaigns" ("name", "subject", "from_name", "from_email", "html_content", "tracking_id", "scheduled_at")
       VALUES ($1, 'Hello', 'Parley', 'news@parley.test', '<p>Hi</p>', $1, $2) RETURNING "id"`,
      [tag, scheduledAt],
    )
  ).rows[0]?.id as number;
}

const everyone = () => ({ addressBookIds: [book, other], contactIds: [] as number[] });
const status = async (id: number) =>
  (await pool.query<{ status: string }>(`SELECT "status"::text FROM "email_campaigns" WHERE "id" = $1`, [id]))
    .rows[0]?.status;
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => (err instanceof HttpError ? err.statusCode : err),
  );

it('a launch writes one recipient per address less suppressions, then the hourly limit holds live launches', async () => {
  const launches = service(2);
  const id = await campaign();
  const kicked = kicks;
  const r = await launches.launch(id, { kind: 'send', ...everyone(), testRequested: false });
  expect(r).toMatchObject({ scheduled: false, testMode: false, recipients: 3, originalRecipients: 3 });
  expect(kicks).toBe(kicked + 1);
  const rows = await pool.query<{ email_key: string; tracked: boolean }>(
    `SELECT r."email_key", EXISTS (SELECT 1 FROM "email_tracking" t WHERE t."tracking_id" = r."tracking_id"
       AND t."campaign_id" = $2 AND NOT t."test_mode") AS tracked
     FROM "email_campaign_recipients" r WHERE r."send_id" = $1 ORDER BY 1`,
    [r.sendId, String(id)],
  );
  expect(rows.rows).toEqual([
    { email_key: 'a@x.test', tracked: true },
    { email_key: 'b@x.test', tracked: true },
    { email_key: 'd@x.test', tracked: true },
  ]);
  const send = await pool.query(
    `SELECT "status"::text, "total", "subject" FROM "email_campaign_sends" WHERE "id" = $1`,
    [r.sendId],
  );
  expect(send.rows[0]).toEqual({ status: 'sending', total: 3, subject: 'Hello' });
  expect(await status(id)).toBe('sending');
  expect(await refusal(launches.launch(id, { kind: 'send', ...everyone(), testRequested: false }))).toBe(409);

  // The second live launch of the hour goes, the third waits; a test send still goes.
  await launches.launch(await campaign(), { kind: 'send', ...everyone(), testRequested: false });
  const third = await campaign();
  expect(await refusal(launches.launch(third, { kind: 'send', ...everyone(), testRequested: false }))).toBe(
    429,
  );
  settings.set('test_email_addresses', JSON.stringify(['qa@x.test', 'QA@x.test', 'ops@x.test']));
  const test = await launches.launch(third, { kind: 'send', ...everyone(), testRequested: true });
  expect(test).toMatchObject({ testMode: true, recipients: 2, originalRecipients: 3 });
  expect(await status(third)).toBe('draft');
});

it('a scheduled launch resolves its recipients when the scheduler dispatches it', async () => {
  const launches = service(100);
  const id = await campaign(new Date(Date.now() + 3_600_000));
  const r = await launches.launch(id, { kind: 'send', ...everyone(), testRequested: false });
  expect(r).toMatchObject({ scheduled: true, recipients: 3 });
  expect(await status(id)).toBe('scheduled');
  const count = async () =>
    (
      await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "email_campaign_recipients" WHERE "send_id" = $1`,
        [r.sendId],
      )
    ).rows[0]?.n;
  expect(await count()).toBe(0);
  expect(await launches.dispatchDue()).toBe(0);
  await pool.query(
    `UPDATE "email_campaign_sends" SET "scheduled_at" = now() - interval '1 second' WHERE "id" = $1`,
    [r.sendId],
  );
  settings.delete('test_email_addresses');
  const kicked = kicks;
  expect(await launches.dispatchDue()).toBe(1);
  expect(kicks).toBe(kicked + 1);
  expect(await count()).toBe(3);
  expect(await status(id)).toBe('sending');
  expect(await launches.dispatchDue()).toBe(0);
});

it('pause, resume and cancel move the campaign and its send', async () => {
  const launches = service(100);
  const id = await campaign();
  const { sendId } = await launches.launch(id, { kind: 'send', ...everyone(), testRequested: false });
  const sendStatus = async () =>
    (
      await pool.query<{ status: string }>(
        `SELECT "status"::text FROM "email_campaign_sends" WHERE "id" = $1`,
        [sendId],
      )
    ).rows[0]?.status;
  expect(await refusal(launches.resume(id))).toBe(409);
  await launches.pause(id);
  expect([await status(id), await sendStatus()]).toEqual(['paused', 'paused']);
  const completed = completions;
  await launches.resume(id);
  expect([await status(id), await sendStatus()]).toEqual(['sending', 'sending']);
  expect(completions).toBe(completed + 1);
  await pool.query(
    `UPDATE "email_campaign_recipients" SET "status" = 'sent' WHERE "id" IN (
    SELECT "id" FROM "email_campaign_recipients" WHERE "send_id" = $1 ORDER BY "id" LIMIT 1)`,
    [sendId],
  );
  await launches.cancel(id);
  expect([await status(id), await sendStatus()]).toEqual(['cancelled', 'cancelled']);
  const counts = await pool.query(
    `SELECT s."sent_count" AS send_sent, c."sent_count" AS campaign_sent, c."total_recipients"
     FROM "email_campaign_sends" s JOIN "email_campaigns" c ON c."id" = s."campaign_id" WHERE s."id" = $1`,
    [sendId],
  );
  expect(counts.rows[0]).toEqual({ send_sent: 1, campaign_sent: 1, total_recipients: 3 });
  expect(await refusal(launches.cancel(id))).toBe(409);
});
