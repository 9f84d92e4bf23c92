import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EmailUnderTest, type SmtpSink, startEmail, startSmtpSink } from './mail-peers.ts';

/**
 * Test-mode sends kept apart from live ones (issue 35, item 2), on real PostgreSQL, NATS and
 * a real SMTP server: a test-mode send leaves its campaign (or newsletter) as it was, a draft
 * that can still be edited and launched, its send is listed apart, and analytics, advanced
 * analytics, the comparison, deliverability and the engagement reports count live mail only
 * unless test mail is asked for.
 */

let t: EmailUnderTest;
let smtp: SmtpSink;
let db: pg.Pool;
let admin: Record<string, string>;
let bookId: number;
let version = 10;

const ENV = {
  CAMPAIGN_TICK_MS: '150',
  CAMPAIGN_POLL_MS: '30',
  CAMPAIGN_BATCH_SIZE: '10',
  CAMPAIGN_CONCURRENCY: '2',
};
const TEST_ADDRESSES = ['qa1@test.example', 'qa2@test.example'];

const until = async <T>(
  fn: () => Promise<T | null | undefined | false>,
  ms = 20_000,
  label = 'condition',
) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

async function setting(key: string, value: string) {
  await t.setting(key, value, ++version);
  await until(
    async () =>
      (await db.query(`SELECT 1 FROM "mail_settings" WHERE "key" = $1 AND "value" = $2`, [key, value]))
        .rowCount,
    10_000,
    `${key} = ${value}`,
  );
}

const get = async (path: string) => {
  const r = await t.call('GET', path, undefined, admin);
  expect(r.status, r.text).toBe(200);
  return r.json;
};

/** Waits until the newest test-mode send of a campaign (or newsletter) is done; answers the item. */
const testSendDone = (path: string, count: number) =>
  until(
    async () => {
      const c = await get(path);
      return c.testSends.count === count && c.testSends.last?.status === 'done' ? c : null;
    },
    20_000,
    `test send ${count} of ${path} done`,
  );

/** Opens (and clicks) every mail of a campaign, as a reader would: the test mails too. */
const openAll = (campaignId: number) =>
  db.query(
    `UPDATE "email_tracking" SET "opened_at" = now(), "open_count" = 1, "clicked_at" = now(), "click_count" = 1
     WHERE "campaign_id" = $1`,
    [String(campaignId)],
  );

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startEmail('email_test_mode', ENV);
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 3 });
  admin = await t.admin();
  await t.setting('smtp_host', '127.0.0.1', 1);
  await t.setting('smtp_port', String(smtp.port), 2);
  await setting('test_email_addresses', JSON.stringify(TEST_ADDRESSES));
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "address_books" ("name") VALUES ('Clinics') RETURNING "id"`,
  );
  bookId = rows[0]?.id as number;
  for (const e of ['ann@clinic.example', 'bob@clinic.example', 'cy@clinic.example'])
    await db.query(
      `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "company") VALUES ($1, $2, 'Ann', 'Clinic')`,
      [bookId, e],
    );
}, 60_000);

beforeEach(async () => {
  admin = await t.admin();
});

afterAll(async () => {
  await db?.end();
  await t?.stop();
  await smtp?.close();
});

describe('a test-mode campaign send', () => {
  it('leaves the campaign a draft, is listed apart, and counts in no report unless asked', async () => {
    const created = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Receptionist launch',
        subject: 'Never miss a call',
        fromName: 'Parley',
        fromEmail: 'news@parley.test',
        htmlContent: '<p>Hi {{firstName|there}}</p><a href="https://parley.test/offer">Offer</a>',
        targetAddressBooks: [bookId],
      },
      admin,
    );
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as number;
    const path = `/api/admin/email/campaigns/${id}`;

    const r = await t.call('POST', `${path}/send`, { confirmSend: true, testMode: true }, admin);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ testMode: true, recipients: 2, originalRecipients: 3 });
    const after = await testSendDone(path, 1);
    // Still a draft: Launch and Edit stay; the test send is not its current send.
    expect(after).toMatchObject({ status: 'draft', sentCount: 0, totalRecipients: 0, sentAt: null });
    expect(after.progress).toMatchObject({ sendId: null, total: 0, sent: 0 });
    expect(after.testSends.last).toMatchObject({
      recipients: 2,
      originalRecipients: 3,
      sent: 2,
      failed: 0,
    });
    expect(
      smtp.received.filter((m) => m.parsed.subject === 'Never miss a call').map((m) => m.envelope.to[0]),
    ).toHaveLength(2);
    await openAll(id);

    // Analytics: live mail only; the test mail on request.
    const live = await get('/api/admin/email/analytics');
    expect(live).toMatchObject({ includesTestMail: false, totalSent: 0, totalOpened: 0 });
    expect(live.campaigns.map((c: { id: number }) => c.id)).not.toContain(id);
    const withTest = await get('/api/admin/email/analytics?includeTest=true');
    expect(withTest).toMatchObject({ includesTestMail: true, totalSent: 2, totalOpened: 2 });
    expect(withTest.campaigns.find((c: { id: number }) => c.id === id)).toMatchObject({ sent: 2 });
    const adv = await get('/api/admin/email/advanced-analytics?period=7d');
    expect(adv.campaignPerformance).toMatchObject({ totalSent: 0, totalOpened: 0 });
    expect(adv.trend.reduce((n: number, p: { opens: number }) => n + p.opens, 0)).toBe(0);
    const advTest = await get('/api/admin/email/advanced-analytics?period=7d&includeTest=true');
    expect(advTest.campaignPerformance).toMatchObject({ totalSent: 2, totalOpened: 2 });
    const cmp = await get('/api/admin/email/campaign-comparison?period=7d');
    expect(cmp.campaigns).toEqual([]);
    expect(
      (await get('/api/admin/email/campaign-comparison?period=7d&includeTest=true')).campaigns,
    ).toHaveLength(1);
    const dlv = await get('/api/admin/email/deliverability');
    expect(dlv).toMatchObject({ includesTestMail: false, measured: false });
    expect(dlv.rates.sent).toBe(0);
    const dlvTest = await get('/api/admin/email/deliverability?includeTest=true');
    expect(dlvTest.rates.sent).toBe(2);
    expect(dlvTest.basis).toMatch(/test mail included/);
    const report = await get(`${path}/engagement-report`);
    expect(report.engagementReport.summary).toMatchObject({ totalSent: 0, totalOpened: 0, openRate: 0 });
    expect(report.engagementReport.opens).toEqual([]);
    const reportTest = await get(`${path}/engagement-report?includeTest=true`);
    expect(reportTest.engagementReport.summary).toMatchObject({ totalSent: 2, totalOpened: 2 });

    // Editable and launchable: the real send needs no duplicate.
    const edit = await t.call('PATCH', path, { subject: 'Never miss a call again' }, admin);
    expect(edit.status, edit.text).toBe(200);
    const launch = await t.call('POST', `${path}/send`, { confirmSend: true }, admin);
    expect(launch.status, launch.text).toBe(200);
    expect(launch.json).toMatchObject({ testMode: false, recipients: 3 });
    const sent = await until(async () => {
      const c = await get(path);
      return c.status === 'sent' ? c : null;
    });
    expect(sent).toMatchObject({ sentCount: 3, totalRecipients: 3 });
    expect(sent.testSends.count).toBe(1);
    const afterLive = await get('/api/admin/email/analytics');
    expect(afterLive.campaigns.find((c: { id: number }) => c.id === id)).toMatchObject({
      sent: 3,
      opens: 0,
    });
    expect((await get('/api/admin/email/analytics?includeTest=true')).totalSent).toBe(5);
  });

  it('in Test Environment Mode: a send now and a scheduled one both leave a draft', async () => {
    await setting('test_environment_enabled', 'true');
    try {
      const created = await t.call(
        'POST',
        '/api/admin/email/campaigns',
        {
          name: 'Env test',
          subject: 'Env test mail',
          fromName: 'Parley',
          fromEmail: 'news@parley.test',
          htmlContent: '<p>Hello</p>',
          targetAddressBooks: [bookId],
        },
        admin,
      );
      const id = created.json.id as number;
      const path = `/api/admin/email/campaigns/${id}`;
      // "Live" asked, test mode on in Settings: a test send.
      const r = await t.call('POST', `${path}/send`, { confirmSend: true, testMode: false }, admin);
      expect(r.status, r.text).toBe(200);
      expect(r.json.testMode).toBe(true);
      expect(await testSendDone(path, 1)).toMatchObject({ status: 'draft' });

      // Scheduled: it waits for its time; dispatched in test mode, the campaign is a draft again.
      const at = new Date(Date.now() + 1500).toISOString();
      expect((await t.call('PATCH', path, { scheduledAt: at }, admin)).status).toBe(200);
      const s = await t.call('POST', `${path}/send`, { confirmSend: true }, admin);
      expect(s.status, s.text).toBe(200);
      expect((await get(path)).status).toBe('scheduled');
      const back = await testSendDone(path, 2);
      expect(back).toMatchObject({ status: 'draft', scheduledAt: null, sentCount: 0 });
    } finally {
      await setting('test_environment_enabled', 'false');
    }
  });
});

describe('a test-mode newsletter send', () => {
  it('leaves the newsletter a draft, listed apart, out of its analytics unless asked', async () => {
    const created = await t.call(
      'POST',
      '/api/admin/newsletters',
      {
        name: 'Weekly test',
        subject: 'Weekly for clinics',
        htmlContent: '<p>Hello {{firstName|there}}</p><a href="https://parley.test/x">x</a>',
      },
      admin,
    );
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as number;
    const path = `/api/admin/newsletters/${id}`;
    const r = await t.call(
      'POST',
      `${path}/send`,
      { audience: { type: 'all' }, confirmSend: true, testMode: true },
      admin,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ testMode: true, recipients: 2, originalRecipients: 3 });
    const n = await testSendDone(path, 1);
    expect(n).toMatchObject({ status: 'draft', sentCount: 0, sentAt: null });
    expect(n.testSends.last).toMatchObject({ recipients: 2, sent: 2 });
    const analytics = await get(`${path}/analytics`);
    expect(analytics).toMatchObject({ includesTestMail: false, totalSent: 0 });
    expect((await get(`${path}/analytics?includeTest=true`)).totalSent).toBe(2);
    expect((await get('/api/admin/newsletters/analytics')).totalSent).toBe(0);
    expect((await get(`${path}/engagement-report`)).engagementReport.summary.totalSent).toBe(0);
    expect((await get(`${path}/engagement-report?includeTest=true`)).engagementReport.summary.totalSent).toBe(
      2,
    );
    // Still sendable for real.
    const live = await t.call(
      'POST',
      `${path}/send`,
      { audience: { type: 'all' }, confirmSend: true },
      admin,
    );
    expect(live.status, live.text).toBe(200);
    expect(live.json).toMatchObject({ testMode: false, recipients: 3 });
  });
});
