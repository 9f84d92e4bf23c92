import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createSign, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetSendQuotaCommand, SESClient, VerifyEmailIdentityCommand } from '@aws-sdk/client-ses';
import { diagnosticsSubject } from '@parley/contracts';
import { freePort } from '@parley/kit/local';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SnsMessage, stringToSign } from '../src/features/tracking/domain/sns.ts';
import { type EmailUnderTest, startEmail } from './mail-peers.ts';

/**
 * Amazon SES without AWS: a local moto_server answers the SES v1 API (SendRawEmail,
 * GetSendQuota), and SNS notifications are signed with a certificate made here with openssl
 * and served from a local origin that only this test allow-lists (SNS_TEST_CERT_ORIGINS).
 */

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const MOTO = join(repoRoot, '.tools/py/bin/moto_server');
const REGION = 'us-east-1';
const SENDER = 'sender@parley.test';

let moto: ChildProcess;
let motoUrl: string;
let ses: SESClient;
let t: EmailUnderTest;
let db: pg.Pool;
let certServer: Server;
let certOrigin: string;
/** An origin allow-listed like certOrigin where nothing listens (a certificate SNS cannot serve). */
let deadOrigin: string;
let keyPem: string;
const confirmations: string[] = [];
/** Every request the certificate server got (certificates are cached per URL by the service). */
const certRequests: string[] = [];

beforeAll(async () => {
  if (!existsSync(MOTO))
    throw new Error(
      `moto_server is missing at .tools/py/bin/moto_server${process.env.CI === 'true' ? ' (CI=true)' : ''}: run \`bash scripts/tools.sh\``,
    );
  const port = await freePort();
  moto = spawn(MOTO, ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  motoUrl = `http://127.0.0.1:${port}`;
  ses = new SESClient({
    region: REGION,
    endpoint: motoUrl,
    credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
  });
  await waitFor(async () => {
    await ses.send(new GetSendQuotaCommand({}));
  });
  await ses.send(new VerifyEmailIdentityCommand({ EmailAddress: SENDER }));

  // A signing certificate of our own (SNS's would come from sns.<region>.amazonaws.com).
  const dir = mkdtempSync(join(tmpdir(), 'parley-sns-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=sns.us-east-1.amazonaws.com',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  keyPem = readFileSync(join(dir, 'key.pem'), 'utf8');
  const certPem = readFileSync(join(dir, 'cert.pem'), 'utf8');
  certServer = createServer((req, res) => {
    certRequests.push(req.url ?? '');
    if (req.url?.startsWith('/cert.pem')) return void res.end(certPem);
    if (req.url === '/cert-500.pem') {
      res.statusCode = 500;
      return void res.end('internal error');
    }
    if (req.url?.startsWith('/confirm')) {
      confirmations.push(req.url);
      return void res.end('<ConfirmSubscriptionResponse/>');
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => certServer.listen(0, '127.0.0.1', r));
  certOrigin = `http://127.0.0.1:${(certServer.address() as AddressInfo).port}`;
  deadOrigin = `http://127.0.0.1:${await freePort()}`;

  t = await startEmail('email_ses', {
    SES_REGION: REGION,
    SES_ENDPOINT: motoUrl,
    SES_ACCESS_KEY_ID: 'testing',
    SES_SECRET_ACCESS_KEY: 'testing',
    MAIL_FROM_EMAIL: SENDER,
    SNS_TEST_CERT_ORIGINS: `${certOrigin},${deadOrigin}`,
    SNS_TOPIC_ARNS: `${TOPIC}, arn:aws:sns:us-east-1:123456789012:other-ses-topic`,
  });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
});

afterAll(async () => {
  await db?.end();
  await t?.stop();
  moto?.kill('SIGTERM');
  ses?.destroy();
  await new Promise((r) => (certServer ? certServer.close(r) : r(null)));
});

async function waitFor(fn: () => Promise<void>, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function signed(
  fields: Omit<SnsMessage, 'Signature' | 'SignatureVersion' | 'SigningCertURL'>,
  version: '1' | '2' = '2',
  certUrl?: string,
): SnsMessage {
  const m = {
    ...fields,
    SignatureVersion: version,
    SigningCertURL: certUrl ?? `${certOrigin}/cert.pem`,
    Signature: '',
  } as SnsMessage;
  m.Signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
    .update(stringToSign(m))
    .sign(keyPem, 'base64');
  return m;
}

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:ses-notifications';
const notification = (message: object, over: Partial<SnsMessage> = {}) =>
  signed({
    Type: 'Notification',
    MessageId: randomUUID(),
    TopicArn: TOPIC,
    Message: JSON.stringify(message),
    Timestamp: new Date().toISOString(),
    ...over,
  });

const post = (m: SnsMessage | string) =>
  t.call('POST', '/api/email/ses/notifications', typeof m === 'string' ? m : JSON.stringify(m), {
    'content-type': 'text/plain; charset=UTF-8',
    'x-amz-sns-message-type': typeof m === 'string' ? 'Notification' : m.Type,
  });

const bounce = (sesMessageId: string, email: string, type: 'Permanent' | 'Transient') => ({
  notificationType: 'Bounce',
  mail: { messageId: sesMessageId, destination: [email] },
  bounce: {
    bounceType: type,
    bounceSubType: 'General',
    bouncedRecipients: [{ emailAddress: email, diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
  },
});

async function sendThroughSes(email: string) {
  const r = await t.call('POST', '/api/admin/settings/test-email', { emails: [email] }, await t.admin());
  expect(r.status).toBe(200);
  expect(r.json.transport).toBe('ses');
  const { rows } = await db.query(
    `SELECT m."provider_message_id", t."tracking_id" FROM "mail_messages" m JOIN "email_tracking" t ON t."mail_message_id" = m."id" WHERE m."id" = $1`,
    [r.json.results[0].id],
  );
  return { sesMessageId: rows[0].provider_message_id as string, trackingId: rows[0].tracking_id as string };
}

describe('Amazon SES transport (moto_server)', () => {
  it('checks the transport with GetSendQuota and sends the stored MIME with SendRawEmail', async () => {
    const diag = (await t.bus.request(diagnosticsSubject('email'), { check: 'email-smtp' })) as Record<
      string,
      unknown
    >;
    expect(diag).toMatchObject({ status: 'success', result: 'Connected' });
    expect(String(diag.details)).toContain('Amazon SES us-east-1');
    const before = (await ses.send(new GetSendQuotaCommand({}))).SentLast24Hours ?? 0;
    const sent = await sendThroughSes('reader@example.com');
    expect(sent.sesMessageId).toMatch(/\S{10,}/);
    // moto counts a raw send more than once (per destination and message); it must have grown.
    expect((await ses.send(new GetSendQuotaCommand({}))).SentLast24Hours ?? 0).toBeGreaterThan(before);
  });

  it('records a refusal of the message (unverified sender) as failed, without a bounce against the recipient', async () => {
    await t.setting('smtp_from_email', 'unverified@elsewhere.test', 1);
    await waitFor(async () => {
      const r = await t.call(
        'POST',
        '/api/admin/settings/test-email',
        { emails: ['innocent@example.com'] },
        await t.admin(),
      );
      expect(r.status).toBe(422);
      expect(r.json.message).toContain('MessageRejected');
    });
    const state = await db.query(
      `SELECT 1 FROM "mail_address_states" WHERE "address" = 'innocent@example.com'`,
    );
    expect(state.rowCount).toBe(0);
    await t.setting('smtp_from_email', SENDER, 2);
    await waitFor(async () => {
      expect(
        (
          await t.call(
            'POST',
            '/api/admin/settings/test-email',
            { emails: ['x@example.com'] },
            await t.admin(),
          )
        ).status,
      ).toBe(200);
    });
  });
});

describe('SES notifications through SNS', () => {
  it('confirms the subscription by fetching SubscribeURL', async () => {
    const m = signed({
      Type: 'SubscriptionConfirmation',
      MessageId: randomUUID(),
      TopicArn: TOPIC,
      Message: 'You have chosen to subscribe to the topic.',
      Timestamp: new Date().toISOString(),
      Token: 'tok123',
      SubscribeURL: `${certOrigin}/confirm?Action=ConfirmSubscription&Token=tok123`,
    });
    const r = await post(m);
    expect(r.status).toBe(200);
    expect(confirmations).toEqual(['/confirm?Action=ConfirmSubscription&Token=tok123']);
  });

  it('records a hard bounce once (replays change nothing): bounced and suppressed', async () => {
    const sent = await sendThroughSes('gone@example.com');
    const m = notification(bounce(sent.sesMessageId, 'gone@example.com', 'Permanent'));
    const r = await post(m);
    expect(r.status).toBe(200);
    expect(r.json.message).toBe('Recorded bounce');
    const replay = await post(m);
    expect(replay.status).toBe(200);
    expect(replay.json.message).toBe('Already recorded');
    const tr = await db.query(
      `SELECT "status", "bounced_at", "bounce_reason" FROM "email_tracking" WHERE "tracking_id" = $1`,
      [sent.trackingId],
    );
    expect(tr.rows[0]).toMatchObject({
      status: 'bounced',
      bounce_reason: 'Permanent: General: smtp; 550 5.1.1 user unknown',
    });
    const ev = await db.query(`SELECT "event_type" FROM "email_events" WHERE "tracking_id" = $1`, [
      sent.trackingId,
    ]);
    expect(ev.rows).toEqual([{ event_type: 'bounce' }]);
    const st = await db.query(
      `SELECT "hard_bounced_at" FROM "mail_address_states" WHERE "address" = 'gone@example.com'`,
    );
    expect(st.rows[0].hard_bounced_at).toBeInstanceOf(Date);
  });

  it('a campaign mail sent through SES: its bounce reaches the recipient, in the delivery log and Sent mail', async () => {
    const admin = await t.admin();
    const book = await t.call('POST', '/api/admin/address-books', { name: 'SES readers' }, admin);
    expect(book.status, book.text).toBe(201);
    const imported = await t.call(
      'POST',
      '/api/admin/email/import-manual',
      { contacts: 'kept@example.com, Kay\nlost@example.com, Lou', addressBookId: book.json.id },
      admin,
    );
    expect(imported.status, imported.text).toBe(200);
    const created = await t.call(
      'POST',
      '/api/admin/email/campaigns',
      {
        name: 'Through SES',
        subject: 'Hello {{firstName|there}}',
        fromName: 'Parley',
        fromEmail: SENDER,
        htmlContent: '<p>Hi {{firstName|there}}</p>',
        targetAddressBooks: [book.json.id],
      },
      admin,
    );
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as number;
    const launched = await t.call(
      'POST',
      `/api/admin/email/campaigns/${id}/send`,
      { confirmSend: true },
      admin,
    );
    expect(launched.status, launched.text).toBe(200);
    await waitFor(async () => {
      expect((await t.call('GET', `/api/admin/email/campaigns/${id}`, undefined, admin)).json.status).toBe(
        'sent',
      );
    }, 30_000);

    // Each recipient row keeps SES's id of its mail, as the settle recorded it.
    const { rows } = await db.query<{ email: string; provider_message_id: string | null }>(
      `SELECT r."email", r."provider_message_id" FROM "email_campaign_recipients" r
         JOIN "email_campaign_sends" s ON s."id" = r."send_id" WHERE s."campaign_id" = $1 ORDER BY r."email"`,
      [id],
    );
    expect(rows.map((r) => r.email)).toEqual(['kept@example.com', 'lost@example.com']);
    for (const r of rows) expect(r.provider_message_id).toMatch(/\S{10,}/);
    const lost = rows[1]?.provider_message_id as string;

    const r = await post(notification(bounce(lost, 'lost@example.com', 'Permanent')));
    expect(r.status, r.text).toBe(200);
    expect(r.json.message).toBe('Recorded bounce');

    const log = await t.call('GET', `/api/admin/email/campaigns/${id}/delivery-log`, undefined, admin);
    expect(log.status, log.text).toBe(200);
    const status = Object.fromEntries(
      (log.json.items as Array<{ email: string; status: string }>).map((e) => [e.email, e.status]),
    );
    expect(status).toEqual({ 'kept@example.com': 'sent', 'lost@example.com': 'bounced' });
    expect(log.json.counts).toMatchObject({ total: 2, sent: 1, bounced: 1 });

    // Sent mail lists both campaign mails with the transport that took them.
    const sent = await t.call('GET', `/api/admin/email/outbox?campaignId=${id}`, undefined, admin);
    expect(sent.status, sent.text).toBe(200);
    expect(
      (sent.json.items as Array<{ to: string; transport: string | null }>)
        .map((m) => [m.to, m.transport])
        .sort(),
    ).toEqual([
      ['kept@example.com', 'ses'],
      ['lost@example.com', 'ses'],
    ]);
  });

  it('records a complaint as unsubscribed (SignatureVersion 1 too)', async () => {
    const sent = await sendThroughSes('angry@example.com');
    const m = signed(
      {
        Type: 'Notification',
        MessageId: randomUUID(),
        TopicArn: TOPIC,
        Subject: 'Amazon SES Email Event Notification',
        Message: JSON.stringify({
          notificationType: 'Complaint',
          mail: { messageId: sent.sesMessageId },
          complaint: {
            complainedRecipients: [{ emailAddress: 'angry@example.com' }],
            complaintFeedbackType: 'abuse',
          },
        }),
        Timestamp: new Date().toISOString(),
      },
      '1',
    );
    expect((await post(m)).json.message).toBe('Recorded complaint');
    const tr = await db.query(
      `SELECT "status", "complained_at" FROM "email_tracking" WHERE "tracking_id" = $1`,
      [sent.trackingId],
    );
    expect(tr.rows[0].status).toBe('complained');
    const st = await db.query(
      `SELECT "unsubscribed_at", "complained_at" FROM "mail_address_states" WHERE "address" = 'angry@example.com'`,
    );
    expect(st.rows[0].unsubscribed_at).toBeInstanceOf(Date);
    expect(st.rows[0].complained_at).toBeInstanceOf(Date);
    const suppressed = await db.query(
      `SELECT "reason" FROM "email_suppressions" WHERE "address" = 'angry@example.com'`,
    );
    expect(suppressed.rows).toEqual([{ reason: 'complained' }]);
  });

  it('counts soft bounces: the third in a row makes the address bounced; a delivery resets the run', async () => {
    const soft = async (email: string) => {
      const sent = await sendThroughSes(email);
      expect((await post(notification(bounce(sent.sesMessageId, email, 'Transient')))).status).toBe(200);
      return sent;
    };
    const count = async (email: string) =>
      (
        await db.query(
          `SELECT "soft_bounces", "hard_bounced_at" FROM "mail_address_states" WHERE "address" = $1`,
          [email],
        )
      ).rows[0];
    await soft('full@example.com');
    await soft('full@example.com');
    const delivered = await sendThroughSes('full@example.com');
    await post(
      notification({
        notificationType: 'Delivery',
        mail: { messageId: delivered.sesMessageId },
        delivery: { recipients: ['full@example.com'], smtpResponse: '250 ok' },
      }),
    );
    expect(await count('full@example.com')).toMatchObject({ soft_bounces: 0, hard_bounced_at: null });
    await soft('full@example.com');
    await soft('full@example.com');
    expect((await count('full@example.com')).hard_bounced_at).toBeNull();
    const third = await soft('full@example.com');
    expect(await count('full@example.com')).toMatchObject({ soft_bounces: 3 });
    expect((await count('full@example.com')).hard_bounced_at).toBeInstanceOf(Date);
    const tr = await db.query(`SELECT "status" FROM "email_tracking" WHERE "tracking_id" = $1`, [
      third.trackingId,
    ]);
    expect(tr.rows[0].status).toBe('bounced');
  });

  it('refuses genuinely signed messages and subscriptions of a topic not configured, fetching nothing', async () => {
    // Anyone can have SNS sign for a topic of their own: the signature is real, the topic is not ours.
    const theirs = 'arn:aws:sns:us-east-1:666666666666:attacker-topic';
    const sent = await sendThroughSes('victim@example.com');
    const certUrl = `${certOrigin}/cert.pem?foreign-topic`;
    const forged = signed(
      {
        Type: 'Notification',
        MessageId: randomUUID(),
        TopicArn: theirs,
        Message: JSON.stringify(bounce(sent.sesMessageId, 'victim@example.com', 'Permanent')),
        Timestamp: new Date().toISOString(),
      },
      '2',
      certUrl,
    );
    const subscribe = signed(
      {
        Type: 'SubscriptionConfirmation',
        MessageId: randomUUID(),
        TopicArn: theirs,
        Message: 'You have chosen to subscribe to the topic.',
        Timestamp: new Date().toISOString(),
        Token: 'evil',
        SubscribeURL: `${certOrigin}/confirm?Action=ConfirmSubscription&Token=evil`,
      },
      '2',
      certUrl,
    );
    const before = confirmations.length;
    for (const m of [forged, subscribe]) {
      const r = await post(m);
      expect(r.status).toBe(403);
      expect(r.json.message).toContain('not one we subscribed to');
    }
    expect(certRequests).not.toContain('/cert.pem?foreign-topic');
    expect(confirmations).toHaveLength(before);
    expect(
      (
        await db.query(
          `SELECT 1 FROM "mail_address_states" WHERE "address" = 'victim@example.com' AND "hard_bounced_at" IS NOT NULL`,
        )
      ).rowCount,
    ).toBe(0);
  });

  it('answers 503 with Retry-After (SNS retries) when the certificate cannot be fetched, never 500', async () => {
    const sent = await sendThroughSes('later@example.com');
    const body = bounce(sent.sesMessageId, 'later@example.com', 'Permanent');
    const at = (certUrl: string) =>
      signed(
        {
          Type: 'Notification',
          MessageId: randomUUID(),
          TopicArn: TOPIC,
          Message: JSON.stringify(body),
          Timestamp: new Date().toISOString(),
        },
        '2',
        certUrl,
      );
    for (const url of [`${deadOrigin}/cert.pem`, `${certOrigin}/cert-500.pem`]) {
      const r = await post(at(url));
      expect(r.status, url).toBe(503);
      expect(r.headers.get('retry-after')).toBe('60');
      expect(r.json.error).toBe('Service Unavailable');
    }
    // A URL that names no certificate is the message's fault: refused.
    expect((await post(at(`${certOrigin}/missing.pem`))).status).toBe(403);
    expect(
      (
        await db.query(
          `SELECT 1 FROM "mail_address_states" WHERE "address" = 'later@example.com' AND "hard_bounced_at" IS NOT NULL`,
        )
      ).rowCount,
    ).toBe(0);
    // Once the certificate is there, SNS's retry goes through.
    expect((await post(at(`${certOrigin}/cert.pem`))).json.message).toBe('Recorded bounce');
  });

  it('refuses forged, altered, stale and foreign-certificate messages with 403 and records nothing', async () => {
    const sent = await sendThroughSes('target@example.com');
    const good = notification(bounce(sent.sesMessageId, 'target@example.com', 'Permanent'));
    const altered = { ...good, Message: good.Message.replace('target@example.com', 'victim@example.com') };
    const stale = notification(bounce(sent.sesMessageId, 'target@example.com', 'Permanent'), {
      Timestamp: new Date(Date.now() - 2 * 3600_000).toISOString(),
    });
    const foreignCert = signed(
      {
        Type: 'Notification',
        MessageId: randomUUID(),
        TopicArn: TOPIC,
        Message: good.Message,
        Timestamp: new Date().toISOString(),
      },
      '2',
      'https://evil.example/cert.pem',
    );
    const httpSns = signed(
      {
        Type: 'Notification',
        MessageId: randomUUID(),
        TopicArn: TOPIC,
        Message: good.Message,
        Timestamp: new Date().toISOString(),
      },
      '2',
      'http://sns.us-east-1.amazonaws.com/cert.pem',
    );
    const badVersion = { ...good, SignatureVersion: '3' };
    for (const m of [altered, stale, foreignCert, httpSns, badVersion]) {
      const r = await post(m as SnsMessage);
      expect(r.status).toBe(403);
      expect(r.json.error).toBe('Forbidden');
    }
    for (const junk of ['not json', '{}', JSON.stringify({ Type: 'Notification' })])
      expect((await post(junk)).status).toBe(403);
    const ev = await db.query(`SELECT count(*)::int AS n FROM "email_events" WHERE "tracking_id" = $1`, [
      sent.trackingId,
    ]);
    expect(ev.rows[0].n).toBe(0);
    expect(
      (await db.query(`SELECT 1 FROM "mail_address_states" WHERE "address" = 'victim@example.com'`)).rowCount,
    ).toBe(0);
    // The genuine message still goes through.
    expect((await post(good)).json.message).toBe('Recorded bounce');
  });
});

describe('SES notifications with no SNS topic configured (the default)', () => {
  let bare: EmailUnderTest;
  beforeAll(async () => {
    bare = await startEmail('email_ses_no_topics', { SNS_TEST_CERT_ORIGINS: certOrigin });
  });
  afterAll(async () => {
    await bare?.stop();
  });

  it('refuses every message and confirms no subscription, fetching no certificate', async () => {
    const certUrl = `${certOrigin}/cert.pem?no-topics`;
    const messages = [
      signed(
        {
          Type: 'SubscriptionConfirmation',
          MessageId: randomUUID(),
          TopicArn: TOPIC,
          Message: 'You have chosen to subscribe to the topic.',
          Timestamp: new Date().toISOString(),
          Token: 'tok-none',
          SubscribeURL: `${certOrigin}/confirm?Action=ConfirmSubscription&Token=tok-none`,
        },
        '2',
        certUrl,
      ),
      signed(
        {
          Type: 'Notification',
          MessageId: randomUUID(),
          TopicArn: TOPIC,
          Message: JSON.stringify(bounce('ses-id', 'anyone@example.com', 'Permanent')),
          Timestamp: new Date().toISOString(),
        },
        '2',
        certUrl,
      ),
    ];
    const before = confirmations.length;
    for (const m of messages) {
      const r = await bare.call('POST', '/api/email/ses/notifications', JSON.stringify(m), {
        'content-type': 'text/plain; charset=UTF-8',
        'x-amz-sns-message-type': m.Type,
      });
      expect(r.status).toBe(403);
      expect(r.json.message).toContain('SNS_TOPIC_ARNS');
    }
    expect(confirmations).toHaveLength(before);
    expect(certRequests).not.toContain('/cert.pem?no-topics');
  });
});
