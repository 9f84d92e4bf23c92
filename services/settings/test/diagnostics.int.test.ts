import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DiagnosticRunResponse, diagnosticsSubject, type PlatformStatus } from '@parley/contracts';
import {
  BACKBONE_SCHEMA_SQL,
  createBus,
  createLogger,
  type EventBus,
  type RunningService,
  type ServiceModule,
  type Subscription,
  signAssertion,
  startService,
} from '@parley/kit';
import { ServiceEnv } from '@parley/kit/config';
import { type NatsServer, startNatsServer } from '@parley/kit/local';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsService } from '../src/service.ts';

/**
 * Diagnostics over real NATS request/reply: the settings service runs for real, and so does a
 * second service built on the kit under the name booking (the kit's own database check and
 * dead-letter responders; nothing of booking's code); voice and blog are stand-ins answering
 * their checks the way the kit does; email never answers (then is absent), identity is not
 * running. On a NATS server of its own, so no other test's services answer for the ones this
 * test says are absent.
 */
const noMigrations = mkdtempSync(join(tmpdir(), 'parley-diag-no-migrations-'));
const bookingStandIn: ServiceModule = {
  name: 'booking',
  envSchema: Type.Object(ServiceEnv),
  migrationsDir: noMigrations,
  events: { publishes: [], consumes: [] },
  async register() {},
};

const secret = randomBytes(32).toString('hex');
const logger = createLogger('settings-diag-test', 'silent');
const TIMEOUT_MS = 800;
let nats: NatsServer;
let settings: RunningService;
let booking: RunningService;
let bookingDb: string;
let harness: EventBus;
const standIns: Subscription[] = [];
let releaseEmail: () => void = () => {};

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${settings.url}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      'x-parley-assertion': await signAssertion(secret, { adminId: 'a1', role: 'admin' }),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const run = async (testId: string) => {
  const r = await call('POST', `/api/admin/diagnostics/${testId}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as DiagnosticRunResponse;
};
const part = (r: DiagnosticRunResponse, service: string) => r.checks.find((c) => c.service === service);

/** Answers `service`'s checks like the kit does: a check it does not have is an error. */
async function standIn(service: 'voice' | 'blog', checks: Record<string, object>) {
  standIns.push(
    await harness.respond(diagnosticsSubject(service), service, async (payload) => {
      const check = (payload as { check: string }).check;
      const answer = checks[check];
      if (!answer) throw new Error(`${service} has no check named ${check}`);
      return { ...answer, duration: 4 };
    }),
  );
}

beforeAll(async () => {
  nats = await startNatsServer();
  const env = (database: string) => ({
    DATABASE_URL: database,
    NATS_URL: nats.url,
    INTERNAL_AUTH_SECRET: secret,
    LOG_LEVEL: 'silent' as const,
  });
  bookingDb = await createTestDatabase('settings_diag_booking');
  const setup = new pg.Client({ connectionString: bookingDb });
  await setup.connect();
  await setup.query(BACKBONE_SCHEMA_SQL);
  await setup.end();
  [settings, booking] = await Promise.all([
    startService(settingsService, {
      env: {
        ...env(await createTestDatabase('settings_diag')),
        SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        DIAGNOSTICS_TIMEOUT_MS: String(TIMEOUT_MS),
        PARLEY_STORAGE: 'embedded',
        PARLEY_DATA_DIR: '/srv/parley/.data',
      },
      logger,
      listen: { host: '127.0.0.1', port: 0 },
    }),
    startService(bookingStandIn, {
      env: env(bookingDb),
      logger,
      migrate: false,
      listen: { host: '127.0.0.1', port: 0 },
    }),
  ]);
  harness = await createBus({ natsUrl: nats.url, name: 'diag-harness', logger });
  const database = (s: string) => ({
    status: 'success',
    result: 'Connected',
    details: `${s} database answered in 1 ms`,
  });
  await standIn('voice', {
    database: database('voice'),
    'voice-api': {
      status: 'success',
      result: 'Speaking',
      details: 'The local engine spoke "Parley diagnostics check."',
    },
  });
  await standIn('blog', {
    database: database('blog'),
    'openai-api': { status: 'warning', result: 'Local writer', details: 'OPENAI_API_KEY is not set' },
  });
  // The email service hangs: it takes requests and never answers.
  standIns.push(
    await harness.respond(
      diagnosticsSubject('email'),
      'email',
      () => new Promise((resolve) => (releaseEmail = () => resolve({}))),
    ),
  );
}, 120_000);

afterAll(async () => {
  releaseEmail();
  for (const s of standIns) await s.stop().catch(() => {});
  await harness?.close();
  await settings?.stop();
  await booking?.stop();
  await nats?.dispose();
  rmSync(noMigrations, { recursive: true, force: true });
});

describe('POST /api/admin/diagnostics/{testId}', () => {
  it('database-connection pings every database, naming the service that is missing or silent', async () => {
    const t0 = Date.now();
    const r = await run('database-connection');
    expect(r.status).toBe('error');
    expect(r.result).toBe('2 of 6 databases unreachable');
    for (const s of ['settings', 'booking', 'voice', 'blog']) {
      expect(part(r, s)?.status, s).toBe('success');
      expect(part(r, s)?.details, s).toMatch(new RegExp(`^${s} database answered in \\d+ ms$`));
    }
    expect(part(r, 'identity')).toMatchObject({
      status: 'error',
      result: 'Not running',
      details: 'The identity service is not running',
    });
    expect(part(r, 'email')).toMatchObject({
      status: 'error',
      details: 'The email service did not answer within 0.8 s',
    });
    expect(r.details).toMatch(/booking \d+ ms/);
    expect(r.details).toContain('identity: The identity service is not running');
    // Answered once the slowest question timed out, not hanging on the silent service.
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS + 3000);
  });

  it('voice-api, openai-api: each service answers for itself', async () => {
    expect(await run('voice-api')).toMatchObject({
      status: 'success',
      result: 'Speaking',
      details: 'The local engine spoke "Parley diagnostics check."',
      checks: [{ service: 'voice', status: 'success' }],
    });
    expect(await run('openai-api')).toMatchObject({ status: 'warning', result: 'Local writer' });
  });

  it('a check a service does not offer is an error that says so', async () => {
    expect(await run('twilio-integration')).toMatchObject({
      status: 'error',
      result: 'Not available',
      details: 'The voice service does not offer the twilio-integration check yet',
    });
  });

  it('email-smtp: a silent email service is a timeout, an absent one is "not running"', async () => {
    expect(await run('email-smtp')).toMatchObject({
      status: 'error',
      details: 'The email service did not answer within 0.8 s',
    });
    releaseEmail();
    await standIns.pop()?.stop();
    expect(await run('email-smtp')).toMatchObject({
      status: 'error',
      result: 'Not running',
      details: 'The email service is not running',
    });
  });

  it('an unknown test id is 404', async () => {
    const r = await call('POST', '/api/admin/diagnostics/flux-capacitor');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      error: 'Not Found',
      message: 'There is no diagnostic test named flux-capacitor',
    });
  });
});

describe('GET /api/admin/settings/status', () => {
  it('reports each service, the bus and where data lives', async () => {
    const r = await call('GET', '/api/admin/settings/status');
    expect(r.status).toBe(200);
    const status = r.body as PlatformStatus;
    const state = Object.fromEntries(status.services.map((s) => [s.service, s.state]));
    expect(state).toEqual({
      identity: 'not_running',
      booking: 'ready',
      blog: 'ready',
      voice: 'ready',
      email: 'not_running',
      settings: 'ready',
    });
    const bookingRow = status.services.find((s) => s.service === 'booking');
    expect(bookingRow?.database?.details).toMatch(/^booking database answered in \d+ ms$/);
    expect(bookingRow?.answeredInMs).toBeGreaterThanOrEqual(0);
    expect(status.services.find((s) => s.service === 'identity')?.error).toBe(
      'The identity service is not running',
    );
    expect(status.bus).toEqual({ kind: 'nats', connected: true });
    expect(status.storage).toMatchObject({
      mode: 'embedded',
      dataDir: '/srv/parley/.data',
      description:
        'Embedded PostgreSQL started by Parley (data in /srv/parley/.data), one database per service',
    });
    expect(status.storage.server).toMatch(/^(127\.0\.0\.1|localhost):\d+$/);
    expect(status.storage.database).toMatch(/^settings_diag/);
  });
});

describe('dead letters of every service', () => {
  it('lists them, replays them, and names a service that cannot be asked', async () => {
    const db = new pg.Client({ connectionString: bookingDb });
    await db.connect();
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO "dead_letters" ("consumer", "event_id", "subject", "envelope", "error", "deliveries")
       VALUES ('booking-test-consumer', gen_random_uuid(), 'blog.post.published', '{}'::jsonb, 'handler exploded', 7)
       RETURNING "id"`,
    );
    await db.end();
    const id = rows[0]?.id as string;

    const list = await call('GET', '/api/admin/diagnostics/dead-letters');
    expect(list.status).toBe(200);
    const bookingLetters = list.body.services.find((s: { service: string }) => s.service === 'booking');
    expect(bookingLetters).toMatchObject({
      reachable: true,
      error: null,
      deadLetters: [
        {
          kind: 'consumer',
          id,
          consumer: 'booking-test-consumer',
          subject: 'blog.post.published',
          error: 'handler exploded',
          deliveries: 7,
          replayRequested: false,
        },
      ],
    });
    expect(list.body.services.find((s: { service: string }) => s.service === 'identity')).toMatchObject({
      reachable: false,
      error: 'The identity service is not running',
      deadLetters: [],
    });
    expect(list.body.total).toBe(1);

    const replay = await call('POST', '/api/admin/diagnostics/dead-letters/replay', {
      service: 'booking',
      ids: [id],
    });
    expect(replay).toEqual({ status: 200, body: { service: 'booking', queued: 1 } });
    const after = await call('GET', '/api/admin/diagnostics/dead-letters');
    expect(
      after.body.services.find((s: { service: string }) => s.service === 'booking').deadLetters[0]
        .replayRequested,
    ).toBe(true);

    const absent = await call('POST', '/api/admin/diagnostics/dead-letters/replay', {
      service: 'identity',
      ids: 'all',
    });
    expect(absent.status).toBe(409);
    expect(absent.body.message).toBe(
      'The identity service is not running, so its dead letters cannot be replayed now.',
    );
    for (const body of [
      { service: 'nope', ids: 'all' },
      { service: 'booking', ids: [] },
      { service: 'booking' },
    ]) {
      const bad = await call('POST', '/api/admin/diagnostics/dead-letters/replay', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('with a service stopped', () => {
  it('reports it as not running instead of waiting for it', async () => {
    await booking.stop();
    const db = await run('database-connection');
    expect(part(db, 'booking')).toMatchObject({
      status: 'error',
      details: 'The booking service is not running',
    });
    const api = await run('api-endpoints');
    expect(api.status).toBe('error');
    expect(part(api, 'booking')).toMatchObject({ status: 'error', result: 'Not running' });
    expect(part(api, 'settings')).toMatchObject({ status: 'success', result: 'Ready' });
    expect(api.result).toBe('3 of 6 services not answering');
  });
});
