import { randomBytes } from 'node:crypto';
import { settingsApplySubject } from '@parley/contracts';
import {
  createLocalBus,
  createLogger,
  type EventBus,
  parseSecretKey,
  type RunningService,
  type Subscription,
  signAssertion,
  startService,
} from '@parley/kit';
import { type NatsServer, startNatsServer } from '@parley/kit/local';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The settings service for real (not a dependency of email: tests only, by path).
import { settingsService } from '../../settings/src/service.ts';
import { SettingsCopy } from '../src/features/delivery/settings-copy.repository.ts';
import { emailService } from '../src/service.ts';
import { type SmtpSink, startSmtpSink } from './mail-peers.ts';

/**
 * Read-your-writes between the settings service and the email service (issue 33, items 2 and
 * 13): a setting saved through the settings API is in force in the email service the moment
 * the save answers. Test mode on, then a campaign at once: only the test addresses; new test
 * addresses, then a campaign at once: those; test mode off, then a campaign at once: live.
 * A new SMTP host, then diagnostics and a test email at once: the new host (two real SMTP
 * peers on two loopback addresses). In the embedded mode (one in-process bus shared by both
 * services) and the distributed mode (NATS, two email replicas on one database, so the one
 * that did not apply the save answers too). Every email replica has read the settings just
 * before each save, so a replica that served from its read cache would show it; and a change
 * applied by another replica (its own SettingsCopy on the shared table) holds on every one.
 * A save no replica confirms is saved, answered as pending, and reaches email by its event.
 */

const logger = createLogger('settings-consistency-test', 'silent');
const APPLY_TIMEOUT_MS = 3000;
const CAMPAIGN_ENV = {
  CAMPAIGN_TICK_MS: '150',
  CAMPAIGN_POLL_MS: '30',
  CAMPAIGN_BATCH_SIZE: '10',
  CAMPAIGN_CONCURRENCY: '2',
};
const LIVE = ['ann@live.example', 'bob@live.example', 'cat@live.example'];

const until = async <T>(fn: () => Promise<T | null | undefined | false>, ms: number, label: string) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely
type Loose = any;

async function call(
  base: string,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: (text ? JSON.parse(text) : null) as Loose };
}

/** Two SMTP peers on one port of two loopback addresses: changing smtp_host alone moves the mail. */
async function twoSinks(): Promise<[SmtpSink, SmtpSink]> {
  for (let attempt = 0; ; attempt++) {
    const a = await startSmtpSink({ host: '127.0.0.1' });
    try {
      return [a, await startSmtpSink({ host: '127.0.0.2', port: a.port })];
    } catch (err) {
      await a.close();
      if (attempt >= 5) throw err;
    }
  }
}

describe.each([
  ['embedded (in-process bus)', 'embedded' as const],
  ['distributed (NATS, two email replicas)', 'distributed' as const],
])('settings in force when the save answers: %s', (_label, mode) => {
  const secret = randomBytes(32).toString('hex');
  const encryptionKey = randomBytes(32).toString('hex');
  const signingSecret = randomBytes(32).toString('hex');
  let nats: NatsServer | null = null;
  let localBus: EventBus | null = null;
  let settings: RunningService;
  let emailDb: string;
  const emails: RunningService[] = [];
  let db: pg.Pool;
  let oldHost: SmtpSink;
  let newHost: SmtpSink;
  let bookId: number;

  const admin = async () => ({
    'x-parley-assertion': await signAssertion(secret, { adminId: 'a1', role: 'admin' }),
  });
  const toSettings = async (method: string, path: string, body?: unknown) =>
    call(settings.url, await admin(), method, path, body);
  const toEmail = async (replica: RunningService, method: string, path: string, body?: unknown) =>
    call(replica.url, await admin(), method, path, body);

  const startEmailReplica = async () => {
    const svc = await startService(emailService, {
      env: {
        DATABASE_URL: emailDb,
        ...(nats ? { NATS_URL: nats.url } : {}),
        INTERNAL_AUTH_SECRET: secret,
        SETTINGS_ENCRYPTION_KEY: encryptionKey,
        EMAIL_SIGNING_SECRET: signingSecret,
        PUBLIC_ORIGIN: 'https://parley.test',
        LOG_LEVEL: 'silent',
        ...CAMPAIGN_ENV,
      },
      ...(localBus ? { bus: localBus } : {}),
      logger,
      listen: { host: '127.0.0.1', port: 0 },
    });
    emails.push(svc);
    return svc;
  };

  /** Saves through the settings API; the answer must say that every copy has it. */
  const save = async (key: string, value: string) => {
    const r = await toSettings('POST', '/api/admin/settings', { key, value });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };

  /** Every email replica reads its settings now (the Sent mail view names the transport). */
  const readOnEveryReplica = async () => {
    for (const e of emails)
      expect((await toEmail(e, 'GET', '/api/admin/email/outbox?limit=1')).status).toBe(200);
  };

  const copied = async (key: string, value: string) =>
    (await db.query(`SELECT 1 FROM "mail_settings" WHERE "key" = $1 AND "value" = $2`, [key, value]))
      .rowCount;

  /**
   * Launches a new campaign to the book on `replica`; waits until it is sent (a test-mode send:
   * until that send is done, the campaign staying a draft); answers who got it.
   */
  const campaign = async (replica: RunningService, tag: string) => {
    const created = await toEmail(replica, 'POST', '/api/admin/email/campaigns', {
      name: tag,
      subject: `${tag} subject`,
      fromName: 'Parley',
      fromEmail: 'news@parley.test',
      htmlContent: '<html><body><p>Hi {{firstName}}</p></body></html>',
      targetAddressBooks: [bookId],
    });
    expect(created.status, created.text).toBe(201);
    const launched = await toEmail(replica, 'POST', `/api/admin/email/campaigns/${created.json.id}/send`, {
      confirmSend: true,
    });
    expect(launched.status, launched.text).toBe(200);
    await until(
      async () => {
        const c = (await toEmail(replica, 'GET', `/api/admin/email/campaigns/${created.json.id}`)).json;
        return launched.json.testMode
          ? c?.status === 'draft' && c.testSends.last?.status === 'done'
          : c?.status === 'sent';
      },
      30_000,
      `${tag} sent`,
    );
    const to = oldHost.received
      .filter((m) => m.parsed.subject === `${tag} subject`)
      .flatMap((m) => m.envelope.to)
      .sort();
    return { launch: launched.json, to };
  };

  beforeAll(async () => {
    [oldHost, newHost] = await twoSinks();
    const settingsDb = await createTestDatabase('rw_settings');
    emailDb = await createTestDatabase('rw_email');
    if (mode === 'embedded') {
      localBus = await createLocalBus({ databaseUrl: await createTestDatabase('rw_bus'), logger });
    } else {
      // A NATS server of its own: no other suite's email service answers for this one.
      nats = await startNatsServer();
    }
    settings = await startService(settingsService, {
      env: {
        DATABASE_URL: settingsDb,
        ...(nats ? { NATS_URL: nats.url } : {}),
        INTERNAL_AUTH_SECRET: secret,
        SETTINGS_ENCRYPTION_KEY: encryptionKey,
        SETTINGS_APPLY_TIMEOUT_MS: String(APPLY_TIMEOUT_MS),
        LOG_LEVEL: 'silent',
      },
      ...(localBus ? { bus: localBus } : {}),
      logger,
      listen: { host: '127.0.0.1', port: 0 },
    });
    await startEmailReplica();
    if (mode === 'distributed') await startEmailReplica();
    db = new pg.Pool({ connectionString: emailDb, max: 2 });
    await save('smtp_host', '127.0.0.1');
    await save('smtp_port', String(oldHost.port));
    await save('test_email_addresses', JSON.stringify(['qa1@test.example', 'qa2@test.example']));
    await save('test_environment_enabled', 'false');
    await until(async () => copied('test_environment_enabled', 'false'), 20_000, 'the first settings copied');
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "address_books" ("name") VALUES ('Customers') RETURNING "id"`,
    );
    bookId = rows[0]?.id as number;
    for (const email of LIVE)
      await db.query(
        `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "last_name", "company", "status")
         VALUES ($1, $2, $3, 'Tester', 'Acme', 'active')`,
        [bookId, email, email.split('@')[0]],
      );
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    for (const e of emails) await e.stop();
    await settings?.stop();
    await localBus?.close();
    await nats?.dispose();
    await oldHost?.close();
    await newHost?.close();
  });

  it('test mode saved on: a campaign launched at once goes only to the test addresses', async () => {
    await readOnEveryReplica();
    const saved = await save('test_environment_enabled', 'true');
    expect(saved).toMatchObject({ success: true, changed: true, pending: [] });
    const sent = await campaign(emails.at(-1) as RunningService, 'TM-on');
    expect(sent.launch).toMatchObject({ testMode: true, recipients: 2, originalRecipients: 3 });
    expect(sent.to).toEqual(['qa1@test.example', 'qa2@test.example']);
  });

  it('test addresses saved: a campaign launched at once goes to the new ones', async () => {
    await readOnEveryReplica();
    const saved = await save('test_email_addresses', JSON.stringify(['qa3@test.example']));
    expect(saved).toMatchObject({ changed: true, pending: [] });
    const sent = await campaign(emails[0] as RunningService, 'TM-addresses');
    expect(sent.launch).toMatchObject({ testMode: true, recipients: 1, originalRecipients: 3 });
    expect(sent.to).toEqual(['qa3@test.example']);
  });

  it('test mode saved off: a campaign launched at once goes live', async () => {
    await readOnEveryReplica();
    const saved = await save('test_environment_enabled', 'false');
    expect(saved).toMatchObject({ changed: true, pending: [] });
    const sent = await campaign(emails.at(-1) as RunningService, 'TM-off');
    expect(sent.launch).toMatchObject({ testMode: false, recipients: 3 });
    expect(sent.to).toEqual(LIVE);
  });

  it('a new SMTP host: diagnostics and test emails right after the save use it, both ways', async () => {
    for (const [host, sink] of [
      ['127.0.0.2', newHost],
      ['127.0.0.1', oldHost],
    ] as const) {
      await readOnEveryReplica();
      const saved = await save('smtp_host', host);
      expect(saved).toMatchObject({ changed: true, pending: [] });
      const diagnostics = await toSettings('POST', '/api/admin/diagnostics/email-smtp');
      expect(diagnostics.status, diagnostics.text).toBe(200);
      expect(diagnostics.json).toMatchObject({ status: 'success' });
      expect(diagnostics.json.details).toContain(`SMTP ${host}:${sink.port}`);
      for (const [i, replica] of emails.entries()) {
        const to = `smtp-${host}-${i}@test.example`;
        const r = await toEmail(replica, 'POST', '/api/admin/settings/test-email', { emails: [to] });
        expect(r.status, r.text).toBe(200);
        expect(sink.received.map((m) => m.envelope.to[0])).toContain(to);
      }
    }
  });

  it('a replica that did not apply the save acts on it too: it reads the shared copy', async () => {
    // Whichever replica the settings service hands a save to applies it to the table all
    // replicas share; this is that replica (a SettingsCopy of its own on the same database).
    const other = new SettingsCopy(db, parseSecretKey(encryptionKey), () => {});
    const stored = (await toSettings('GET', '/api/admin/settings')).json as Loose[];
    const next = (key: string, value: string) => {
      const s = stored.find((x) => x.key === key);
      return {
        key,
        category: s.category,
        description: s.description,
        value,
        secret: false,
        deleted: false,
        version: s.version + 1,
        updatedAt: new Date().toISOString(),
      };
    };
    await readOnEveryReplica();
    expect(await other.apply(next('test_environment_enabled', 'true'))).toBe(true);
    for (const [i, replica] of emails.entries()) {
      const sent = await campaign(replica, `TM-other-${i}`);
      expect(sent.launch).toMatchObject({ testMode: true, recipients: 1 });
      expect(sent.to).toEqual(['qa3@test.example']);
    }
    await readOnEveryReplica();
    expect(await other.apply(next('smtp_host', '127.0.0.2'))).toBe(true);
    const diagnostics = await toSettings('POST', '/api/admin/diagnostics/email-smtp');
    expect(diagnostics.json.details).toContain(`SMTP 127.0.0.2:${newHost.port}`);
    for (const [i, replica] of emails.entries()) {
      const to = `other-${i}@test.example`;
      const r = await toEmail(replica, 'POST', '/api/admin/settings/test-email', { emails: [to] });
      expect(r.status, r.text).toBe(200);
      expect(newHost.received.map((m) => m.envelope.to[0])).toContain(to);
    }
    // The store saves the same changes: the copy has those versions already.
    for (const [key, value] of [
      ['test_environment_enabled', 'true'],
      ['smtp_host', '127.0.0.2'],
    ] as const)
      expect(await save(key, value)).toMatchObject({
        changed: true,
        pending: [],
        setting: { version: next(key, value).version },
      });
  });

  it('a save that no email replica confirms is still saved, says so, and reaches email by its event', async () => {
    for (const e of emails.splice(0)) await e.stop();
    let silent: Subscription | null = null;
    if (localBus)
      // Embedded: a responder that never answers (the save waits its bound, no longer).
      silent = await localBus.respond(settingsApplySubject('email'), 'email', () => new Promise(() => {}));
    // Distributed: nobody answers at all ("no responders" fails at once).
    const t0 = Date.now();
    const saved = await save('support_email', 'help@parley.test');
    const took = Date.now() - t0;
    expect(saved).toMatchObject({ success: true, changed: true, pending: ['email'] });
    expect(saved.setting).toMatchObject({ key: 'support_email', value: 'help@parley.test' });
    if (localBus) expect(took).toBeGreaterThanOrEqual(APPLY_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(APPLY_TIMEOUT_MS + 5000);
    await silent?.stop();
    // The change is committed: the email service gets it from the event once it runs again.
    await startEmailReplica();
    await until(async () => copied('support_email', 'help@parley.test'), 30_000, 'the event applied');
  });
});
