import { randomBytes } from 'node:crypto';
import {
  createLocalBus,
  createLogger,
  type EventBus,
  type RunningService,
  signAssertion,
  startService,
} from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The settings service for real (not a dependency of email: tests only, by path).
import { settingsService } from '../../settings/src/service.ts';
import { emailService } from '../src/service.ts';
import { type SmtpSink, startSmtpSink } from './mail-peers.ts';

/**
 * The admin chooses the transport (issue 35, item 3): once an SMTP host was saved, the local
 * mailbox could never come back (clearing the host was answered "Settings updated" and
 * changed nothing; the API refuses an empty host). `mail_transport` is saved through the
 * settings API, applied by the email service before the save answers, and a choice the email
 * service cannot honour (Amazon SES without its configuration, SMTP without a host) is refused
 * and changes nothing. The settings and email services run for real on one in-process bus,
 * with a real SMTP peer.
 */

const logger = createLogger('mail-transport-test', 'silent');
// biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely
type Loose = any;

describe('the mail transport, chosen explicitly', () => {
  const secret = randomBytes(32).toString('hex');
  const encryptionKey = randomBytes(32).toString('hex');
  let bus: EventBus;
  let settings: RunningService;
  let email: RunningService;
  let sink: SmtpSink;

  const call = async (svc: RunningService, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${svc.url}${path}`, {
      method,
      headers: {
        'x-parley-assertion': await signAssertion(secret, { adminId: 'a1', role: 'admin' }),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: (text ? JSON.parse(text) : null) as Loose };
  };
  const save = (key: string, value: string) => call(settings, 'POST', '/api/admin/settings', { key, value });
  const saved = async (key: string) =>
    ((await call(settings, 'GET', '/api/admin/settings')).json as Loose[]).find((s) => s.key === key)?.value;
  const transport = async () => (await call(email, 'GET', '/api/admin/email/transport')).json;
  /** A test email right after the save: where did it go? */
  const testEmail = async (to: string) => {
    const r = await call(email, 'POST', '/api/admin/settings/test-email', { emails: [to] });
    expect(r.status, r.text).toBe(200);
    return { transport: r.json.transport, atSink: sink.received.some((m) => m.envelope.to.includes(to)) };
  };

  beforeAll(async () => {
    sink = await startSmtpSink({ host: '127.0.0.1' });
    bus = await createLocalBus({ databaseUrl: await createTestDatabase('mt_bus'), logger });
    settings = await startService(settingsService, {
      env: {
        DATABASE_URL: await createTestDatabase('mt_settings'),
        INTERNAL_AUTH_SECRET: secret,
        SETTINGS_ENCRYPTION_KEY: encryptionKey,
        LOG_LEVEL: 'silent',
      },
      bus,
      logger,
      listen: { host: '127.0.0.1', port: 0 },
    });
    email = await startService(emailService, {
      env: {
        DATABASE_URL: await createTestDatabase('mt_email'),
        INTERNAL_AUTH_SECRET: secret,
        SETTINGS_ENCRYPTION_KEY: encryptionKey,
        EMAIL_SIGNING_SECRET: randomBytes(32).toString('hex'),
        PUBLIC_ORIGIN: 'https://parley.test',
        LOG_LEVEL: 'silent',
      },
      bus,
      logger,
      listen: { host: '127.0.0.1', port: 0 },
    });
  }, 120_000);

  afterAll(async () => {
    await email?.stop();
    await settings?.stop();
    await bus?.close();
    await sink?.close();
  });

  it('starts in the local mailbox, with SMTP and SES said to be unavailable', async () => {
    expect(await transport()).toEqual({
      chosen: null,
      current: 'local',
      description: 'mail is kept here and not delivered',
      problem: null,
      smtp: { available: false, host: null, port: 587 },
      ses: { available: false, region: null },
    });
    // SMTP cannot be chosen before a host is saved; nothing is stored.
    const r = await save('mail_transport', 'smtp');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('mail_transport smtp needs an SMTP host: save smtp_host first');
    expect(await saved('mail_transport')).toBeUndefined();
  });

  it('sends through SMTP once chosen, and back to the local mailbox when the admin says so', async () => {
    expect((await save('smtp_host', '127.0.0.1')).status).toBe(200);
    expect((await save('smtp_port', String(sink.port))).status).toBe(200);
    const smtp = await save('mail_transport', 'smtp');
    expect(smtp.status, smtp.text).toBe(200);
    expect(smtp.json).toMatchObject({ success: true, changed: true, pending: [] });
    expect(await transport()).toMatchObject({
      chosen: 'smtp',
      current: 'smtp',
      description: `SMTP 127.0.0.1:${sink.port}`,
      smtp: { available: true, host: '127.0.0.1', port: sink.port },
    });
    expect(await testEmail('via-smtp@test.example')).toEqual({ transport: 'smtp', atSink: true });

    // The SMTP settings stay saved; the choice alone brings the local mailbox back.
    const local = await save('mail_transport', 'local');
    expect(local.json).toMatchObject({ success: true, changed: true, pending: [] });
    expect(await transport()).toMatchObject({ chosen: 'local', current: 'local', smtp: { available: true } });
    expect(await testEmail('via-local@test.example')).toEqual({ transport: 'local', atSink: false });
    const outbox = await call(email, 'GET', '/api/admin/email/outbox?q=via-local');
    expect(outbox.json).toMatchObject({ transport: 'local', items: [{ to: 'via-local@test.example' }] });
    expect(outbox.json.items[0]).toMatchObject({ status: 'sent', transport: 'local' });
  });

  it('refuses Amazon SES when the email service has no SES configuration, and changes nothing', async () => {
    const r = await save('mail_transport', 'ses');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(
      'Amazon SES is not configured for the email service (its operator sets SES_REGION): choose the local mailbox or SMTP',
    );
    expect(await saved('mail_transport')).toBe('local');
    expect(await transport()).toMatchObject({ chosen: 'local', current: 'local' });

    const bad = await save('mail_transport', 'postfix');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('mail_transport must be one of local, smtp, ses');
    expect(await saved('mail_transport')).toBe('local');
  });
});
