import { randomBytes } from 'node:crypto';
import type { EventEnvelope, SettingChangedEvent, SettingEntry } from '@parley/contracts';
import {
  createBus,
  createLogger,
  type EventBus,
  openSecret,
  parseSecretKey,
  plainConsumer,
  type RunningService,
  signAssertion,
  startService,
} from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsService } from '../src/service.ts';

/**
 * The settings store against real PostgreSQL and NATS: validation, secrets sealed at rest,
 * and settings.setting.changed through the outbox (payloads, per-key versions, secrets sealed).
 */

const secret = randomBytes(32).toString('hex');
const sealKeyText = randomBytes(32).toString('hex');
const sealKey = parseSecretKey(sealKeyText);
const logger = createLogger('settings-test', 'silent');
let svc: RunningService;
let db: pg.Pool;
let observer: EventBus;
const received = new Map<string, EventEnvelope>();

async function call(method: string, path: string, body?: unknown, admin = true) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (admin) headers['x-parley-assertion'] = await signAssertion(secret, { adminId: 'a1', role: 'admin' });
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers,
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const save = (key: string, value: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/api/admin/settings', { key, value, ...extra });

/** The events this instance enqueued for `key`, oldest first (its own outbox: exact, isolated). */
async function outboxEvents(key: string): Promise<Array<{ id: string; payload: SettingChangedEvent }>> {
  const { rows } = await db.query<{ id: string; payload: SettingChangedEvent }>(
    `SELECT "id", "payload" FROM "outbox_events" WHERE "subject" = 'settings.setting.changed'
       AND "payload"->>'key' = $1 ORDER BY "created_at", ("payload"->>'version')::int`,
    [key],
  );
  return rows;
}

beforeAll(async () => {
  const natsUrl = process.env.NATS_URL;
  if (!natsUrl) throw new Error('NATS_URL is required for integration tests');
  const databaseUrl = await createTestDatabase('settings_store');
  svc = await startService(settingsService, {
    env: {
      DATABASE_URL: databaseUrl,
      NATS_URL: natsUrl,
      INTERNAL_AUTH_SECRET: secret,
      SETTINGS_ENCRYPTION_KEY: sealKeyText,
      LOG_LEVEL: 'silent',
    },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  observer = await createBus({ natsUrl, name: 'settings-test-observer', logger });
  await observer.subscribe(
    plainConsumer({
      durable: `settings-test-${Date.now()}`,
      subjects: ['settings.setting.changed'],
      handler: async (e) => {
        received.set(e.id, e);
      },
    }),
  );
});

afterAll(async () => {
  await observer?.close();
  await svc?.stop();
  await db?.end();
});

describe('access', () => {
  it('every settings route needs an admin', async () => {
    for (const [method, path] of [
      ['GET', '/api/admin/settings'],
      ['POST', '/api/admin/settings'],
      ['GET', '/api/admin/settings/status'],
      ['GET', '/api/admin/brand/settings'],
      ['POST', '/api/admin/brand/crawl'],
      ['POST', '/api/admin/diagnostics/database-connection'],
      ['GET', '/api/admin/diagnostics/dead-letters'],
      ['POST', '/api/admin/diagnostics/dead-letters/replay'],
    ] as const) {
      const r = await call(method, path, method === 'POST' ? {} : undefined, false);
      expect(r.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('saving and listing settings', () => {
  it('saves one setting per call and lists it with its category, description and time', async () => {
    const r = await save('smtp_host', ' smtp.example.com ', { description: 'Outgoing server' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      changed: true,
      setting: {
        key: 'smtp_host',
        value: 'smtp.example.com',
        description: 'Outgoing server',
        category: 'smtp',
        secret: false,
        isSet: true,
        version: 1,
      },
    });
    const other = await save('feature.flag', 'on', { category: 'flags' });
    expect(other.body.setting).toMatchObject({ category: 'flags', description: null });
    const list = await call('GET', '/api/admin/settings');
    expect(list.status).toBe(200);
    const host = (list.body as SettingEntry[]).find((s) => s.key === 'smtp_host');
    expect(host).toMatchObject({
      value: 'smtp.example.com',
      description: 'Outgoing server',
      category: 'smtp',
    });
    expect(Date.parse(host?.updatedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses bad input with 400 naming the key, and changes nothing', async () => {
    await save('smtp_port', '2525');
    const before = await outboxEvents('smtp_port');
    const cases: Array<[unknown, RegExp]> = [
      [{ key: 'smtp_port', value: '70000' }, /^smtp_port must be a whole number from 1 to 65535$/],
      [{ key: 'smtp_port', value: 'abc' }, /^smtp_port/],
      [{ key: 'support_email', value: 'nope' }, /^support_email must be a valid email address$/],
      [{ key: 'website_url', value: 'javascript:alert(1)' }, /^website_url must be an http\(s\) URL/],
      [{ key: 'test_email_addresses', value: '["a@b.co","x"]' }, /^test_email_addresses/],
      [{ key: 'test_environment_enabled', value: 'yes' }, /^test_environment_enabled/],
      [{ key: 'k'.repeat(101), value: 'v' }, /key/],
      [{ key: 'bad key', value: 'v' }, /bad key/],
      [{ key: 'x', value: 'v', category: 'c'.repeat(51) }, /category/],
      [{ value: 'v' }, /key/],
      [{ key: 'x', value: 'v', extra: true }, /.+/],
    ];
    for (const [body, message] of cases) {
      const r = await call('POST', '/api/admin/settings', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe('Bad Request');
      expect(r.body.message, JSON.stringify(body)).toMatch(message);
    }
    const list = (await call('GET', '/api/admin/settings')).body as SettingEntry[];
    expect(list.find((s) => s.key === 'smtp_port')?.value).toBe('2525');
    expect(list.some((s) => s.key === 'x' || s.key === 'bad key')).toBe(false);
    expect(await outboxEvents('smtp_port')).toHaveLength(before.length);
  });
});

describe('secrets', () => {
  it('are sealed at rest: the raw column never holds the secret, and the key opens it', async () => {
    const password = `pw-${randomBytes(6).toString('hex')} with spaces `;
    const r = await save('smtp_password', password);
    expect(r.status).toBe(200);
    expect(r.body.setting).toMatchObject({ key: 'smtp_password', value: null, secret: true, isSet: true });
    const { rows } = await db.query<{ value: string; secret: boolean }>(
      `SELECT "value", "secret" FROM "settings" WHERE "key" = 'smtp_password'`,
    );
    const raw = rows[0];
    expect(raw?.secret).toBe(true);
    expect(raw?.value).not.toContain(password.trim());
    expect(raw?.value).toMatch(/^v1\./);
    expect(openSecret(sealKey, raw?.value ?? '', 'smtp_password')).toBe(password);
    // Bound to its key: the sealed value does not open as another setting.
    expect(() => openSecret(sealKey, raw?.value ?? '', 'smtp_username')).toThrow();
  });

  it('are never returned by the list, which shows only that a value is set', async () => {
    await save('twilio_auth_token', 'tok-very-secret-123');
    const list = await call('GET', '/api/admin/settings');
    expect(JSON.stringify(list.body)).not.toContain('tok-very-secret-123');
    expect((list.body as SettingEntry[]).find((s) => s.key === 'twilio_auth_token')).toMatchObject({
      value: null,
      secret: true,
      isSet: true,
      category: 'general',
    });
  });

  it('the database refuses a secret row that is not sealed', async () => {
    await expect(
      db.query(
        `INSERT INTO "settings" ("id", "key", "value", "secret", "updated_at") VALUES (gen_random_uuid(), 'db_password', 'plain', true, now())`,
      ),
    ).rejects.toThrow(/settings_secret_sealed/);
  });
});

describe('settings.setting.changed', () => {
  it('is published with every change: payload, growing per-key version, nothing for a no-op save', async () => {
    await save('brand_name', 'Parley');
    await save('brand_name', 'Parley AI', { description: 'Shown in emails' });
    const again = await save('brand_name', 'Parley AI');
    expect(again.body).toMatchObject({ changed: false, setting: { version: 2 } });
    await save('brand_name', 'Parley Voice');
    const events = await outboxEvents('brand_name');
    expect(events.map((e) => e.payload.version)).toEqual([1, 2, 3]);
    expect(events.map((e) => e.payload.value)).toEqual(['Parley', 'Parley AI', 'Parley Voice']);
    expect(events[2]?.payload).toMatchObject({
      key: 'brand_name',
      category: 'brand',
      description: 'Shown in emails',
      secret: false,
      deleted: false,
    });
    expect(events[2]?.payload.sealedValue).toBeUndefined();
    // And they really went out on NATS, through the relay.
    await expect.poll(() => events.every((e) => received.has(e.id)), { timeout: 15_000 }).toBe(true);
    expect(received.get(events[0]?.id ?? '')?.payload).toEqual(events[0]?.payload);
    expect(received.get(events[0]?.id ?? '')?.key).toBe('brand_name');
  });

  it('carries a secret sealed, never in clear', async () => {
    await save('smtp_password', 'first-password');
    await save('smtp_password', 'second-password');
    const events = await outboxEvents('smtp_password');
    const last = events.at(-1)?.payload as SettingChangedEvent;
    expect(last).toMatchObject({ key: 'smtp_password', secret: true, value: null });
    expect(openSecret(sealKey, last.sealedValue ?? '', 'smtp_password')).toBe('second-password');
    const { rows } = await db.query<{ payload: string }>(
      `SELECT "payload"::text AS payload FROM "outbox_events" WHERE "payload"->>'key' = 'smtp_password'`,
    );
    for (const r of rows) expect(r.payload).not.toMatch(/first-password|second-password/);
    expect(events.map((e) => e.payload.version)).toEqual(events.map((_, i) => i + 1));
    await expect.poll(() => events.every((e) => received.has(e.id)), { timeout: 15_000 }).toBe(true);
    expect(JSON.stringify(received.get(events.at(-1)?.id ?? ''))).not.toContain('second-password');
  });

  it('gives concurrent saves of one key distinct, increasing versions', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => save('company_address', `${i + 1} Main Street`)),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const versions = results.map((r) => r.body.setting.version as number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const events = await outboxEvents('company_address');
    expect(events.map((e) => e.payload.version).sort((a, b) => a - b)).toEqual(versions);
  });
});
