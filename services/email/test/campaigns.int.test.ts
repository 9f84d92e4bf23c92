import { createLogger, type RunningService, startService } from '@parley/kit';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { headersOf } from '../src/features/delivery/domain/mime.ts';
import { emailService } from '../src/service.ts';
import { type EmailUnderTest, type SmtpSink, startEmail, startSmtpSink } from './mail-peers.ts';

/**
 * Campaigns end to end on real PostgreSQL and a real SMTP server: CRUD with the spec's rules,
 * the recipient union less suppressions, test mode, test sends, the hourly limit, pause and
 * resume, one send shared by three service instances on one database, the scheduler with
 * several instances (one dispatch), and the cooling period after connection failures.
 */

let t: EmailUnderTest;
let smtp: SmtpSink;
let db: pg.Pool;
let admin: Record<string, string>;
const extra: RunningService[] = [];

const ENV = {
  CAMPAIGN_TICK_MS: '150',
  CAMPAIGN_POLL_MS: '30',
  CAMPAIGN_BATCH_SIZE: '10',
  CAMPAIGN_CONCURRENCY: '2',
  CAMPAIGN_RETRY_BASE_SECONDS: '0.05',
};

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

async function book(name: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "address_books" ("name") VALUES ($1) RETURNING "id"`,
    [name],
  );
  return rows[0]?.id as number;
}

async function contact(
  bookId: number,
  email: string,
  over: { status?: string; firstName?: string; company?: string } = {},
) {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "last_name", "company", "status")
     VALUES ($1, $2, $3, 'Tester', $4, $5::"ContactStatus") RETURNING "id"`,
    [bookId, email, over.firstName ?? email.split('@')[0], over.company ?? 'Acme', over.status ?? 'active'],
  );
  return Number(rows[0]?.id);
}

const draft = (over: Record<string, unknown> = {}) => ({
  name: 'Spring launch',
  subject: 'Hello {{firstName}}',
  fromName: 'Parley',
  fromEmail: 'news@parley.test',
  htmlContent:
    '<html><body><p>Hi {{firstName}} {{lastName}} of {{company}}</p><a href="https://parley.test/offer">Offer</a></body></html>',
  ...over,
});

async function create(over: Record<string, unknown> = {}) {
  const r = await t.call('POST', '/api/admin/email/campaigns', draft(over), admin);
  expect(r.status, r.text).toBe(201);
  return r.json as { id: number };
}

const receivedFor = (campaignSubjectTag: string) =>
  smtp.received.filter((m) => (m.parsed.subject ?? '').includes(campaignSubjectTag));

async function waitStatus(id: number, status: string, ms = 30_000) {
  return until(
    async () => {
      const r = await t.call('GET', `/api/admin/email/campaigns/${id}`, undefined, admin);
      return r.json?.status === status ? r.json : null;
    },
    ms,
    `campaign ${id} ${status}`,
  );
}

/** Live sends of earlier tests leave the hourly window (tests of other things are not limited). */
const forgetHourlyWindow = () =>
  db.query(`UPDATE "email_campaign_sends" SET "started_at" = "started_at" - interval '2 hours'`);

beforeAll(async () => {
  smtp = await startSmtpSink({ delayMs: 3 });
  t = await startEmail('email_campaigns', ENV);
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 3 });
  admin = await t.admin();
  await t.setting('smtp_host', '127.0.0.1', 1);
  await t.setting('smtp_port', String(smtp.port), 1);
  await until(
    async () => (await db.query(`SELECT 1 FROM "mail_settings" WHERE "key" = 'smtp_port'`)).rowCount,
    10_000,
    'settings copy',
  );
}, 60_000);

// Assertions live 60 s: a fresh one per test.
beforeEach(async () => {
  admin = await t.admin();
});

afterAll(async () => {
  for (const s of extra) await s.stop();
  await db?.end();
  await t?.stop();
  await smtp?.close();
});

describe('campaign CRUD', () => {
  it('checks the spec rules with its texts', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'Name is required'],
      [{ subject: '  ' }, 'Subject is required'],
      [{ fromName: undefined }, 'From name is required'],
      [{ fromEmail: '' }, 'From email is required'],
      [{ fromEmail: 'not-an-email' }, 'Please enter a valid from email address'],
    ];
    for (const [over, message] of cases) {
      const r = await t.call('POST', '/api/admin/email/campaigns', draft(over), admin);
      expect(r.status).toBe(400);
      expect(r.json.message).toBe(message);
    }
    const unauth = await t.call('GET', '/api/admin/email/campaigns');
    expect(unauth.status).toBe(401);
  });

  it('creates, updates, duplicates and deletes drafts; targets are JSON text', async () => {
    const long = 'A subject line that is certainly longer than fifty characters';
    const r = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      draft({ subject: long, targetAddressBooks: '[3, 1]', targetContacts: [7] }),
      admin,
    );
    expect(r.status).toBe(201);
    const c = r.json;
    expect(c).toMatchObject({
      status: 'draft',
      targetAddressBooks: '[3,1]',
      targetContacts: '[7]',
      targetAddressBookIds: [3, 1],
      sentCount: 0,
    });
    expect(c.subjectTip).toMatch(/under 50 characters/);
    expect(c.trackingId).toMatch(/^cmp_/);
    const p = await t.call(
      'PATCH',
      `/api/admin/email/campaigns/${c.id}`,
      { name: 'Renamed', scheduledAt: null },
      admin,
    );
    expect(p.status).toBe(200);
    expect(p.json.name).toBe('Renamed');
    const bad = await t.call(
      'PATCH',
      `/api/admin/email/campaigns/${c.id}`,
      { targetContacts: '{oops' },
      admin,
    );
    expect(bad.status).toBe(400);
    const d = await t.call('POST', `/api/admin/email/campaigns/${c.id}/duplicate`, undefined, admin);
    expect(d.status).toBe(201);
    expect(d.json).toMatchObject({ name: 'Renamed (Copy)', status: 'draft', targetAddressBooks: '[3,1]' });
    expect(d.json.trackingId).not.toBe(c.trackingId);
    const del = await t.call('DELETE', `/api/admin/email/campaigns/${d.json.id}`, undefined, admin);
    expect(del.status).toBe(200);
    const list = await t.call('GET', '/api/admin/email/campaigns', undefined, admin);
    expect(list.json.campaigns.map((x: { id: number }) => x.id)).toContain(c.id);
    expect(list.json.campaigns.map((x: { id: number }) => x.id)).not.toContain(d.json.id);
  });
});

describe('sending', () => {
  let bookA: number;
  let bookB: number;
  let loose: number;
  let a1: number;

  beforeAll(async () => {
    bookA = await book('Campaign A');
    bookB = await book('Campaign B');
    const other = await book('Campaign loose');
    a1 = await contact(bookA, 'a1@example.com', { firstName: 'Ada', company: 'Analytical' });
    await contact(bookA, 'a2@example.com');
    await contact(bookA, 'Shared@Example.com');
    await contact(bookA, 'gone@example.com', { status: 'unsubscribed' });
    await contact(bookA, 'suppressed@example.com');
    await db.query(
      `INSERT INTO "email_suppressions" ("address", "reason", "source") VALUES ('suppressed@example.com', 'bounced', 'test')`,
    );
    await contact(bookB, 'shared@example.com');
    await contact(bookB, 'b1@example.com');
    loose = await contact(other, 'loose@example.com');
    await contact(other, 'not-chosen@example.com');
  });

  it('sends to the union of books and chosen contacts, once per address, less suppressions', async () => {
    const c = await create({
      name: 'Union',
      subject: 'Union for {{firstName}}',
      targetAddressBooks: [bookA, bookB],
      targetContacts: [loose, a1],
    });
    const noConfirm = await t.call(
      'POST',
      `/api/admin/email/campaigns/${c.id}/send`,
      { confirmSend: false },
      admin,
    );
    expect(noConfirm.status).toBe(400);
    const r = await t.call('POST', `/api/admin/email/campaigns/${c.id}/send`, { confirmSend: true }, admin);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ success: true, testMode: false, recipients: 5, queued: 5 });
    const done = await waitStatus(c.id, 'sent');
    expect(done).toMatchObject({ sentCount: 5, totalRecipients: 5 });
    expect(done.progress).toMatchObject({ total: 5, sent: 5, failed: 0, unknown: 0, remaining: 0 });
    const mails = receivedFor('Union for');
    expect(mails.map((m) => m.envelope.to[0]?.toLowerCase()).sort()).toEqual(
      [
        'a1@example.com',
        'a2@example.com',
        'b1@example.com',
        'loose@example.com',
        'shared@example.com',
      ].sort(),
    );
    const ada = mails.find((m) => m.envelope.to[0] === 'a1@example.com');
    expect(ada?.parsed.subject).toBe('Union for Ada');
    expect(ada?.parsed.html).toContain('Hi Ada Tester of Analytical');
    expect(ada?.parsed.html).toContain('/api/track/click/');
    expect(ada?.parsed.html).toContain('/api/track/open/');
    expect(ada?.parsed.text).toContain('Unsubscribe: https://parley.test/api/unsubscribe/');
    expect(ada?.parsed.text).toContain('Hi Ada Tester of Analytical');
    const headers = headersOf(ada?.raw ?? '');
    expect(headers.find((h) => h.name === 'List-Unsubscribe-Post')?.value).toBe('List-Unsubscribe=One-Click');
    expect(headers.find((h) => h.name === 'List-Unsubscribe')?.value).toMatch(
      /^<https:\/\/parley\.test\/api\/unsubscribe\//,
    );
    // The database agrees: every recipient sent, a tracking row each, the event in the outbox.
    const { rows } = await db.query(
      `SELECT r."status", count(*)::int AS n FROM "email_campaign_recipients" r JOIN "email_campaign_sends" s ON s."id" = r."send_id"
       WHERE s."campaign_id" = $1 GROUP BY 1`,
      [c.id],
    );
    expect(rows).toEqual([{ status: 'sent', n: 5 }]);
    const tracking = await db.query(
      `SELECT count(*)::int AS n FROM "email_tracking" WHERE "campaign_id" = $1 AND "status" = 'sent'`,
      [String(c.id)],
    );
    expect(tracking.rows[0].n).toBe(5);
    const ev = await db.query(
      `SELECT "payload" FROM "outbox_events" WHERE "subject" = 'email.campaign.sent'`,
    );
    expect(ev.rows.map((x) => x.payload)).toContainEqual(
      expect.objectContaining({ campaignId: String(c.id), recipients: 5, sent: 5, failed: 0, test: false }),
    );
    // Only drafts can be edited, tested or launched.
    const again = await t.call(
      'POST',
      `/api/admin/email/campaigns/${c.id}/send`,
      { confirmSend: true },
      admin,
    );
    expect(again.status).toBe(409);
    expect(again.json.message).toMatch(/Only draft campaigns/);
    const edit = await t.call('PATCH', `/api/admin/email/campaigns/${c.id}`, { name: 'x' }, admin);
    expect(edit.status).toBe(409);
    const del = await t.call('DELETE', `/api/admin/email/campaigns/${c.id}`, undefined, admin);
    expect(del.status).toBe(409);
    // Resend to chosen contacts.
    const none = await t.call('POST', `/api/admin/email/campaigns/${c.id}/resend`, { contactIds: [] }, admin);
    expect(none.status).toBe(400);
    expect(none.json.message).toMatch(/^No contacts selected/);
    await forgetHourlyWindow();
    const re = await t.call(
      'POST',
      `/api/admin/email/campaigns/${c.id}/resend`,
      { contactIds: [loose] },
      admin,
    );
    expect(re.status, re.text).toBe(200);
    expect(re.json.recipients).toBe(1);
    await until(async () => receivedFor('Union for').length === 6, 10_000, 'resend');
    await waitStatus(c.id, 'sent');
  });

  it('retries temporary (4xx) refusals with backoff, never permanent (5xx) ones', async () => {
    await forgetHourlyWindow();
    const b = await book('Refusals');
    await contact(b, 'later@refuse.example');
    await contact(b, 'never@refuse.example');
    await contact(b, 'fine@refuse.example');
    const tries = new Map<string, number>();
    smtp.rcpt = (address) => {
      tries.set(address, (tries.get(address) ?? 0) + 1);
      if (address === 'later@refuse.example' && (tries.get(address) ?? 0) <= 2)
        return { code: 451, message: 'Try again later' };
      if (address === 'never@refuse.example') return { code: 550, message: 'No such user' };
      return null;
    };
    try {
      const c = await create({
        name: 'Refusals',
        subject: 'Refusals {{firstName}}',
        targetAddressBooks: [b],
      });
      const r = await t.call('POST', `/api/admin/email/campaigns/${c.id}/send`, { confirmSend: true }, admin);
      expect(r.status, r.text).toBe(200);
      const done = await waitStatus(c.id, 'sent');
      expect(done.progress).toMatchObject({ total: 3, sent: 2, failed: 1, unknown: 0 });
      expect(tries.get('later@refuse.example')).toBe(3);
      expect(tries.get('never@refuse.example')).toBe(1);
      expect(
        receivedFor('Refusals')
          .map((m) => m.envelope.to[0])
          .sort(),
      ).toEqual(['fine@refuse.example', 'later@refuse.example']);
      const failed = await t.call(
        'GET',
        `/api/admin/email/campaigns/${c.id}/recipients?status=failed`,
        undefined,
        admin,
      );
      expect(failed.json.items).toEqual([
        expect.objectContaining({ email: 'never@refuse.example', attempts: 1 }),
      ]);
      // The 550 to RCPT TO is this mail's bounce: on its tracking row and on the address,
      // which is suppressed (its contact marked bounced), as for any other mail.
      const tracking = await db.query(
        `SELECT t."status", t."bounced_at" IS NOT NULL AS bounced FROM "email_tracking" t
         JOIN "email_campaign_recipients" r ON r."tracking_id" = t."tracking_id"
         JOIN "email_campaign_sends" s ON s."id" = r."send_id"
         WHERE s."campaign_id" = $1 AND r."email" = 'never@refuse.example'`,
        [c.id],
      );
      expect(tracking.rows).toEqual([{ status: 'bounced', bounced: true }]);
      const suppressed = await db.query(
        `SELECT "reason" FROM "email_suppressions" WHERE "address" = 'never@refuse.example'`,
      );
      expect(suppressed.rows).toEqual([{ reason: 'bounced' }]);
      const contactRow = await db.query(
        `SELECT "status" FROM "email_contacts" WHERE "email" = 'never@refuse.example'`,
      );
      expect(contactRow.rows).toEqual([{ status: 'bounced' }]);
    } finally {
      smtp.rcpt = () => null;
    }
  });

  it('answers No contacts selected when nobody is left', async () => {
    const c = await create({ name: 'Nobody', targetAddressBooks: [], targetContacts: [] });
    const r = await t.call('POST', `/api/admin/email/campaigns/${c.id}/send`, { confirmSend: true }, admin);
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/^No contacts selected/);
    expect((await t.call('GET', `/api/admin/email/campaigns/${c.id}`, undefined, admin)).json.status).toBe(
      'draft',
    );
  });

  it('test sends: one address, marked as a test, at once', async () => {
    const c = await create({ name: 'Tested', subject: 'Tested {{firstName}}' });
    const two = await t.call(
      'POST',
      '/api/admin/email/send-test',
      { campaignId: c.id, testRecipients: ['x@example.com', 'y@example.com'], isTest: true },
      admin,
    );
    expect(two.status).toBe(400);
    const r = await t.call(
      'POST',
      '/api/admin/email/send-test',
      { campaignId: c.id, testRecipients: 'qa@example.com', isTest: true },
      admin,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ success: true, to: 'qa@example.com', result: 'sent', transport: 'smtp' });
    const m = smtp.received.find((x) => x.envelope.to[0] === 'qa@example.com');
    expect(m?.parsed.subject).toBe('[TEST] Tested John');
    expect(String(m?.parsed.headers.get('x-parley-test'))).toBe('true');
    // Not a live send: nothing recorded against the hourly limit.
    const sends = await db.query(
      `SELECT count(*)::int AS n FROM "email_campaign_sends" WHERE "campaign_id" = $1`,
      [c.id],
    );
    expect(sends.rows[0].n).toBe(0);
  });

  it('test mode sends only to the saved test addresses, with the original count', async () => {
    await t.setting('test_email_addresses', JSON.stringify(['qa1@test.example', 'qa2@test.example']), 1);
    await t.setting('test_environment_enabled', 'true', 1);
    await until(
      async () =>
        (
          await db.query(
            `SELECT 1 FROM "mail_settings" WHERE "key" = 'test_environment_enabled' AND "value" = 'true'`,
          )
        ).rowCount,
      10_000,
      'test mode on',
    );
    const c = await create({ name: 'TM', subject: 'TestMode run', targetAddressBooks: [bookA, bookB] });
    const r = await t.call(
      'POST',
      `/api/admin/email/campaigns/${c.id}/send`,
      { confirmSend: true, testMode: false },
      admin,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ testMode: true, recipients: 2, originalRecipients: 4 });
    // A test-mode send leaves the campaign a draft; its send is listed apart.
    const tested = await until(
      async () => {
        const x = (await t.call('GET', `/api/admin/email/campaigns/${c.id}`, undefined, admin)).json;
        return x.testSends.last?.status === 'done' ? x : null;
      },
      30_000,
      'test-mode send done',
    );
    expect(tested).toMatchObject({ status: 'draft', testSends: { count: 1, last: { sent: 2 } } });
    const mails = receivedFor('TestMode run');
    expect(mails.map((m) => m.envelope.to[0]).sort()).toEqual(['qa1@test.example', 'qa2@test.example']);
    for (const m of mails)
      expect(String(m.parsed.headers.get('x-parley-test-mode'))).toBe('on; original-recipients=4');
    await t.setting('test_environment_enabled', 'false', 2);
    await until(
      async () =>
        (
          await db.query(
            `SELECT 1 FROM "mail_settings" WHERE "key" = 'test_environment_enabled' AND "value" = 'false'`,
          )
        ).rowCount,
      10_000,
      'test mode off',
    );
  });

  it('allows 2 live campaigns per hour; test sends never count', async () => {
    await forgetHourlyWindow();
    const ids: number[] = [];
    for (const n of [1, 2, 3])
      ids.push((await create({ name: `Hourly ${n}`, subject: `Hourly ${n}`, targetContacts: [loose] })).id);
    for (const id of ids.slice(0, 2)) {
      const r = await t.call('POST', `/api/admin/email/campaigns/${id}/send`, { confirmSend: true }, admin);
      expect(r.status, r.text).toBe(200);
    }
    const third = await t.call(
      'POST',
      `/api/admin/email/campaigns/${ids[2]}/send`,
      { confirmSend: true },
      admin,
    );
    expect(third.status).toBe(429);
    expect(third.json.message).toMatch(/^Maximum 2 campaigns per hour/);
    expect(third.headers.get('retry-after')).toBeTruthy();
    // A test-mode send and a test mail still go.
    const test = await t.call(
      'POST',
      `/api/admin/email/campaigns/${ids[2]}/send`,
      { confirmSend: true, testMode: true },
      admin,
    );
    expect(test.status, test.text).toBe(200);
    expect(test.json.testMode).toBe(true);
    const mail = await t.call(
      'POST',
      '/api/admin/email/send-test',
      { ...draft(), testRecipients: 'qa3@example.com' },
      admin,
    );
    expect(mail.status).toBe(200);
    for (const id of ids.slice(0, 2)) await waitStatus(id, 'sent');
    // The test-mode send left the third a draft, to be launched when the hour allows.
    await until(
      async () =>
        (await t.call('GET', `/api/admin/email/campaigns/${ids[2]}`, undefined, admin)).json.testSends.last
          ?.status === 'done',
      30_000,
      'test-mode send done',
    );
    expect((await t.call('GET', `/api/admin/email/campaigns/${ids[2]}`, undefined, admin)).json.status).toBe(
      'draft',
    );
  });

  it('an hourly limit the operator raised (CAMPAIGN_LIVE_SENDS_PER_HOUR) holds, and its refusal names it', async () => {
    await forgetHourlyWindow();
    // An API-only replica with the limit at 3, beside the one with the spec's 2.
    const raised = await startInstance({ CAMPAIGN_LIVE_SENDS_PER_HOUR: '3', CAMPAIGN_WORKER: 'false' });
    extra.push(raised);
    const ids: number[] = [];
    for (const n of [1, 2, 3, 4])
      ids.push((await create({ name: `Raised ${n}`, subject: `Raised ${n}`, targetContacts: [loose] })).id);
    const send = async (base: string, id: number) => {
      const res = await fetch(`${base}/api/admin/email/campaigns/${id}/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...admin },
        body: JSON.stringify({ confirmSend: true }),
      });
      return { status: res.status, json: (await res.json()) as { message?: string } };
    };
    for (const id of ids.slice(0, 3)) expect((await send(raised.url, id)).status).toBe(200);
    const fourth = await send(raised.url, ids[3] as number);
    expect(fourth.status).toBe(429);
    expect(fourth.json.message).toMatch(/^Maximum 3 campaigns per hour: try again in \d+ minutes?$/);
    const spec = await send(t.svc.url, ids[3] as number);
    expect(spec.status).toBe(429);
    expect(spec.json.message).toMatch(/^Maximum 2 campaigns per hour/);
    for (const id of ids.slice(0, 3)) await waitStatus(id, 'sent');
  });

  it('pauses and resumes a send; nobody gets two mails', async () => {
    await forgetHourlyWindow();
    const big = await book('Pause book');
    const values = Array.from({ length: 150 }, (_, i) => `('${big}', 'p${i}@pause.example', 'P${i}')`).join(
      ',',
    );
    await db.query(
      `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name") VALUES ${values}`,
    );
    const c = await create({
      name: 'Pausable',
      subject: 'Pausable {{firstName}}',
      targetAddressBooks: [big],
    });
    const r = await t.call('POST', `/api/admin/email/campaigns/${c.id}/send`, { confirmSend: true }, admin);
    expect(r.status, r.text).toBe(200);
    await until(async () => receivedFor('Pausable').length >= 10, 10_000, 'first mails');
    const p = await t.call('POST', `/api/admin/email/campaigns/${c.id}/pause`, undefined, admin);
    expect(p.status, p.text).toBe(200);
    expect(p.json.status).toBe('paused');
    // In-flight batches settle, then nothing more goes out.
    await until(
      async () =>
        (await t.call('GET', `/api/admin/email/campaigns/${c.id}/progress`, undefined, admin)).json
          .sending === 0,
    );
    await new Promise((r) => setTimeout(r, 300));
    const atPause = receivedFor('Pausable').length;
    await new Promise((r) => setTimeout(r, 400));
    expect(receivedFor('Pausable').length).toBe(atPause);
    const prog = (await t.call('GET', `/api/admin/email/campaigns/${c.id}/progress`, undefined, admin)).json;
    expect(prog.status).toBe('paused');
    expect(prog.remaining).toBeGreaterThan(0);
    expect(prog.sent + prog.remaining).toBe(150);
    const again = await t.call('POST', `/api/admin/email/campaigns/${c.id}/pause`, undefined, admin);
    expect(again.status).toBe(409);
    const res = await t.call('POST', `/api/admin/email/campaigns/${c.id}/resume`, undefined, admin);
    expect(res.status).toBe(200);
    await waitStatus(c.id, 'sent');
    const to = receivedFor('Pausable').map((m) => m.envelope.to[0]);
    expect(to.length).toBe(150);
    expect(new Set(to).size).toBe(150);
  });

  it('shares one send between three instances on one database: each address once, the database agrees', async () => {
    await forgetHourlyWindow();
    for (let i = 0; i < 2; i++) extra.push(await startInstance());
    const big = await book('Shared book');
    const values = Array.from({ length: 400 }, (_, i) => `('${big}', 's${i}@shared.example', 'S${i}')`).join(
      ',',
    );
    await db.query(
      `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name") VALUES ${values}`,
    );
    const c = await create({ name: 'Shared', subject: 'Shared {{firstName}}', targetAddressBooks: [big] });
    const r = await t.call('POST', `/api/admin/email/campaigns/${c.id}/send`, { confirmSend: true }, admin);
    expect(r.status, r.text).toBe(200);
    await waitStatus(c.id, 'sent', 60_000);
    const to = receivedFor('Shared S').map((m) => m.envelope.to[0]);
    expect(to.length).toBe(400);
    expect(new Set(to).size).toBe(400);
    const { rows } = await db.query<{ worker: string; n: number }>(
      `SELECT r."worker", count(*)::int AS n FROM "email_campaign_recipients" r JOIN "email_campaign_sends" s ON s."id" = r."send_id"
       WHERE s."campaign_id" = $1 AND r."status" = 'sent' GROUP BY 1`,
      [c.id],
    );
    expect(rows.reduce((a, x) => a + x.n, 0)).toBe(400);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const ev = await db.query(
      `SELECT count(*)::int AS n FROM "outbox_events" WHERE "subject" = 'email.campaign.sent' AND "payload"->>'campaignId' = $1`,
      [String(c.id)],
    );
    expect(ev.rows[0].n).toBe(1);
  }, 90_000);

  it('dispatches a scheduled campaign once, with several instances running', async () => {
    await forgetHourlyWindow();
    const at = new Date(Date.now() + 1500).toISOString();
    const c = await create({
      name: 'Later',
      subject: 'Later {{firstName}}',
      targetAddressBooks: [bookB],
      scheduledAt: at,
    });
    const r = await t.call('POST', `/api/admin/email/campaigns/${c.id}/send`, { confirmSend: true }, admin);
    expect(r.status, r.text).toBe(200);
    expect(r.json.campaign.status).toBe('scheduled');
    expect(r.json.message).toMatch(/scheduled/);
    expect(receivedFor('Later').length).toBe(0);
    await waitStatus(c.id, 'sent', 20_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(
      receivedFor('Later')
        .map((m) => m.envelope.to[0])
        .sort(),
    ).toEqual(['b1@example.com', 'shared@example.com']);
    const sends = await db.query(`SELECT "status" FROM "email_campaign_sends" WHERE "campaign_id" = $1`, [
      c.id,
    ]);
    expect(sends.rows).toEqual([{ status: 'done' }]);
  });

  it('cancelling a schedule makes the campaign a draft again, with no time left on it', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const c = await create({
      name: 'Unscheduled',
      subject: 'Unscheduled {{firstName}}',
      targetAddressBooks: [bookB],
      scheduledAt: at,
    });
    const r = await t.call('POST', `/api/admin/email/campaigns/${c.id}/send`, { confirmSend: true }, admin);
    expect(r.status, r.text).toBe(200);
    expect(r.json.campaign.status).toBe('scheduled');
    const x = await t.call('POST', `/api/admin/email/campaigns/${c.id}/cancel`, {}, admin);
    expect(x.status, x.text).toBe(200);
    expect(x.json.status).toBe('draft');
    expect(x.json.scheduledAt).toBeNull();
    const again = await t.call('GET', `/api/admin/email/campaigns/${c.id}`, undefined, admin);
    expect(again.json).toMatchObject({ status: 'draft', scheduledAt: null });
  });

  it('marks recipients whose worker died mid-send unknown, never resent', async () => {
    const c = await create({ name: 'Crash', subject: 'Crash {{firstName}}' });
    // A worker claimed these rows (committed 'sending' with a lease) and died before settling.
    // Written in one transaction, as a launch writes them: a send seen with no recipients yet
    // is complete, and the scheduler would finish it with nothing counted.
    const client = await db.connect();
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO "email_campaign_sends" ("campaign_id", "kind", "status", "live", "total", "original_recipients", "started_at")
       VALUES ($1, 'send', 'sending', false, 2, 2, now()) RETURNING "id"`,
      [c.id],
    );
    const sendId = rows[0]?.id;
    await client.query(
      `INSERT INTO "email_campaign_recipients" ("send_id", "email", "email_key", "tracking_id", "status", "worker", "attempts", "lease_until")
       VALUES ($1, 'dead1@example.com', 'dead1@example.com', 'crash-t1', 'sending', 'dead', 1, now() + interval '300 milliseconds'),
              ($1, 'dead2@example.com', 'dead2@example.com', 'crash-t2', 'sending', 'dead', 1, now() + interval '300 milliseconds')`,
      [sendId],
    );
    await client.query(
      `UPDATE "email_campaigns" SET "status" = 'sending', "current_send_id" = $2 WHERE "id" = $1`,
      [c.id, sendId],
    );
    await client.query('COMMIT');
    client.release();
    const done = await waitStatus(c.id, 'sent');
    expect(done.progress).toMatchObject({ total: 2, sent: 0, unknown: 2, remaining: 0 });
    await new Promise((r) => setTimeout(r, 300));
    expect(receivedFor('Crash').length).toBe(0);
    const list = await t.call(
      'GET',
      `/api/admin/email/campaigns/${c.id}/recipients?status=unknown`,
      undefined,
      admin,
    );
    expect(list.json.total).toBe(2);
    expect(list.json.items[0].lastError).toMatch(/not resent/);
    const ev = await db.query(
      `SELECT "payload" FROM "outbox_events" WHERE "subject" = 'email.campaign.sent' AND "payload"->>'campaignId' = $1`,
      [String(c.id)],
    );
    expect(ev.rows[0].payload).toMatchObject({ recipients: 2, sent: 0, failed: 2 });
  });

  it('starts the 24-hour cooling period after connection failures', async () => {
    await forgetHourlyWindow();
    const c = await create({ name: 'Unreachable', subject: 'Unreachable', targetAddressBooks: [bookA] });
    await t.setting('smtp_port', '1', 2);
    await until(
      async () =>
        (await db.query(`SELECT 1 FROM "mail_settings" WHERE "key" = 'smtp_port' AND "value" = '1'`))
          .rowCount,
      10_000,
      'port change',
    );
    // Every instance's settings cache (2 s) sees the new port.
    await new Promise((r) => setTimeout(r, 2500));
    const r = await t.call('POST', `/api/admin/email/campaigns/${c.id}/send`, { confirmSend: true }, admin);
    expect(r.status, r.text).toBe(200);
    await waitStatus(c.id, 'paused');
    const prog = (await t.call('GET', `/api/admin/email/campaigns/${c.id}/progress`, undefined, admin)).json;
    expect(prog).toMatchObject({ sent: 0, unknown: 0, failed: 0 });
    expect(prog.remaining).toBe(prog.total);
    const other = await create({ name: 'Blocked', targetAddressBooks: [bookA] });
    const b = await t.call(
      'POST',
      `/api/admin/email/campaigns/${other.id}/send`,
      { confirmSend: true },
      admin,
    );
    expect(b.status).toBe(429);
    expect(b.json.message).toMatch(/temporarily blocked/);
    const resume = await t.call('POST', `/api/admin/email/campaigns/${c.id}/resume`, undefined, admin);
    expect(resume.status).toBe(429);
  });
});

async function startInstance(env: Record<string, string> = {}): Promise<RunningService> {
  return startService(emailService, {
    env: {
      DATABASE_URL: t.databaseUrl,
      NATS_URL: t.natsUrl,
      INTERNAL_AUTH_SECRET: t.secret,
      SETTINGS_ENCRYPTION_KEY: t.encryptionKey,
      EMAIL_SIGNING_SECRET: t.signingSecret,
      PUBLIC_ORIGIN: 'https://parley.test',
      LOG_LEVEL: 'silent',
      ...ENV,
      ...env,
    },
    logger: createLogger('email-test', 'silent'),
    listen: { host: '127.0.0.1', port: 0 },
  });
}
