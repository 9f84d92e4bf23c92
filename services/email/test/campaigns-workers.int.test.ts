import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmailUnderTest, type SmtpSink, startEmail, startSmtpSink } from './mail-peers.ts';

/**
 * One campaign send shared by three email service processes (src/main.ts, separate Node
 * processes on one database), one of them killed with SIGKILL in the middle of a batch: the
 * SMTP server's mails and the database agree, no address gets two mails, every recipient is
 * accounted for (sent, or unknown for what the killed worker had in hand, never resent).
 */

const RECIPIENTS = 600;
let t: EmailUnderTest;
let smtp: SmtpSink;
let db: pg.Pool;
const children: ChildProcess[] = [];

const until = async <T>(fn: () => Promise<T | null | undefined | false>, ms: number, label: string) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const emailDir = fileURLToPath(new URL('..', import.meta.url));

function worker(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: emailDir,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: t.databaseUrl,
      NATS_URL: t.natsUrl,
      INTERNAL_AUTH_SECRET: t.secret,
      SETTINGS_ENCRYPTION_KEY: t.encryptionKey,
      EMAIL_SIGNING_SECRET: t.signingSecret,
      PUBLIC_ORIGIN: 'https://parley.test',
      LOG_LEVEL: 'error',
      CAMPAIGN_BATCH_SIZE: '20',
      CAMPAIGN_CONCURRENCY: '2',
      CAMPAIGN_POLL_MS: '50',
      CAMPAIGN_TICK_MS: '200',
      CAMPAIGN_LEASE_SECONDS: '2',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

beforeAll(async () => {
  // A slow server: every message is answered after 15 ms, so batches are in flight for a while.
  smtp = await startSmtpSink({ delayMs: 15 });
  // The API instance sends nothing itself: the three worker processes do.
  t = await startEmail('email_campaign_workers', {
    CAMPAIGN_WORKER: 'false',
    CAMPAIGN_TICK_MS: '200',
    CAMPAIGN_LEASE_SECONDS: '2',
  });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
  await t.setting('smtp_host', '127.0.0.1', 1);
  await t.setting('smtp_port', String(smtp.port), 1);
  await until(
    async () => (await db.query(`SELECT 1 FROM "mail_settings" WHERE "key" = 'smtp_port'`)).rowCount,
    10_000,
    'settings copy',
  );
}, 60_000);

afterAll(async () => {
  for (const c of children)
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGTERM');
      await new Promise((r) => c.once('exit', r));
    }
  await db?.end();
  await t?.stop();
  await smtp?.close();
});

describe('three worker processes, one killed mid-batch', () => {
  it('delivers at most once per address and accounts for every recipient', async () => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "address_books" ("name") VALUES ('Workers') RETURNING "id"`,
    );
    const bookId = rows[0]?.id as number;
    await db.query(
      `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name")
       SELECT $1, 'w' || i || '@workers.example', 'W' || i FROM generate_series(1, $2) i`,
      [bookId, RECIPIENTS],
    );
    const admin = await t.admin();
    const c = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Workers',
        subject: 'Workers {{firstName}}',
        fromName: 'Parley',
        fromEmail: 'news@parley.test',
        htmlContent: '<p>Hello {{firstName}}</p>',
        targetAddressBooks: [bookId],
      },
      admin,
    );
    expect(c.status, c.text).toBe(201);
    const [victim, ...others] = [worker(), worker(), worker()];
    const r = await t.call(
      'POST',
      `/api/admin/email/campaigns/${c.json.id}/send`,
      { confirmSend: true },
      admin,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.recipients).toBe(RECIPIENTS);

    // Kill the victim while it holds a claimed batch (rows 'sending' under its worker id).
    const pid = victim.pid as number;
    await until(
      async () =>
        (
          await db.query(
            `SELECT 1 FROM "email_campaign_recipients" WHERE "status" = 'sending' AND "worker" LIKE $1 LIMIT 1`,
            [`%:${pid}:%`],
          )
        ).rowCount && smtp.received.length > 50,
      90_000,
      'the victim to hold a batch',
    );
    victim.kill('SIGKILL');
    await new Promise((r) => victim.once('exit', r));

    await until(
      async () => {
        const x = await t.call('GET', `/api/admin/email/campaigns/${c.json.id}`, undefined, await t.admin());
        return x.json.status === 'sent' ? x.json : null;
      },
      60_000,
      'the campaign to finish',
    ).catch(async (err) => {
      const state = await db.query(
        `SELECT "status", "worker", count(*)::int AS n, min("lease_until") AS lease FROM "email_campaign_recipients" GROUP BY 1, 2`,
      );
      const sends = await db.query(`SELECT "id", "status" FROM "email_campaign_sends"`);
      throw new Error(
        `${(err as Error).message}: ${JSON.stringify({ state: state.rows, sends: sends.rows, pid, received: smtp.received.length })}`,
      );
    });
    // Nothing more arrives after the end.
    await new Promise((r) => setTimeout(r, 500));

    const mails = smtp.received.filter((m) => (m.parsed.subject ?? '').startsWith('Workers '));
    const to = mails.map((m) => m.envelope.to[0] as string);
    expect(new Set(to).size).toBe(to.length); // no address twice

    const { rows: recips } = await db.query<{ email: string; status: string; worker: string }>(
      `SELECT r."email", r."status", r."worker" FROM "email_campaign_recipients" r
       JOIN "email_campaign_sends" s ON s."id" = r."send_id" WHERE s."campaign_id" = $1`,
      [c.json.id],
    );
    expect(recips.length).toBe(RECIPIENTS);
    const by = (st: string) => recips.filter((x) => x.status === st);
    expect(by('pending').length + by('sending').length).toBe(0);
    expect(by('sent').length + by('unknown').length + by('failed').length).toBe(RECIPIENTS);
    expect(by('failed').length).toBe(0);
    // Unknown: exactly what the killed worker had in hand (at most a batch for each of its two
    // loops), none from the survivors.
    const unknown = by('unknown');
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.length).toBeLessThanOrEqual(2 * 20);
    for (const u of unknown) expect(u.worker).toContain(`:${pid}:`);
    // The SMTP server and the database agree: every sent row arrived; whatever arrived is sent or unknown.
    const got = new Set(to);
    for (const s of by('sent')) expect(got.has(s.email)).toBe(true);
    const statusOf = new Map(recips.map((x) => [x.email, x.status]));
    for (const a of to) expect(['sent', 'unknown']).toContain(statusOf.get(a));
    // The survivors finished what the victim left: every sent row is one of the three workers'
    // (which survivor took how much is the scheduler's business, not asserted), and the
    // survivors sent something after the kill.
    const pids = new Set([pid, ...others.map((o) => o.pid as number)].map(String));
    const senders = new Set(by('sent').map((x) => x.worker.split(':')[1]));
    for (const w of senders) expect(pids.has(w as string)).toBe(true);
    expect(others.some((o) => senders.has(String(o.pid)))).toBe(true);

    const progress = await t.call(
      'GET',
      `/api/admin/email/campaigns/${c.json.id}/progress`,
      undefined,
      await t.admin(),
    );
    expect(progress.json).toMatchObject({
      total: RECIPIENTS,
      unknown: unknown.length,
      remaining: 0,
      sending: 0,
    });
    expect(progress.json.sent).toBe(by('sent').length);
  }, 240_000);
});
