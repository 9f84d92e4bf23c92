import { randomBytes } from 'node:crypto';
import {
  type AdminPrincipal,
  createLogger,
  INTERNAL_TOKEN_HEADER,
  internalToken,
  type RunningService,
  signAssertion,
  startService,
} from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { identityService } from '../src/service.ts';

/** Parsed JSON answers and SQL rows, loosely typed for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test-only view of untyped JSON and rows
type Json = any;

/** One identity service on its own database, with a movable clock. */
export interface Harness {
  svc: RunningService;
  databaseUrl: string;
  secret: string;
  clock: { now: number; advance(ms: number): void };
  call(
    method: string,
    path: string,
    opts?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: Json }>;
  login(
    email: string,
    password: string,
    opts?: { ip?: string; https?: boolean },
  ): Promise<{ status: number; headers: Headers; body: Json; token: string | null; cookie: string | null }>;
  resolve(token: string): Promise<{ status: number; body: Json }>;
  as(principal: AdminPrincipal, token?: string | null): Promise<Record<string, string>>;
  sql<T = Json>(text: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

export const SUPER_EMAIL = 'root@parley.test';
export const SUPER_PASSWORD = 'correct horse battery';

let ipCounter = 0;
/** A fresh client IP per use, so the per-IP throttle of one test never touches another. */
export const freshIp = () => `198.51.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

export async function startHarness(prefix: string, env: Record<string, string> = {}): Promise<Harness> {
  const secret = randomBytes(32).toString('hex');
  const databaseUrl = await createTestDatabase(prefix);
  const clock = {
    now: Date.now(),
    advance(ms: number) {
      this.now += ms;
    },
  };
  const svc = await startService(identityService, {
    env: {
      DATABASE_URL: databaseUrl,
      NATS_URL: process.env.NATS_URL,
      INTERNAL_AUTH_SECRET: secret,
      PARLEY_ADMIN_EMAIL: SUPER_EMAIL,
      PARLEY_ADMIN_PASSWORD: SUPER_PASSWORD,
      LOGIN_RATE_LIMIT: '100000',
      LOG_LEVEL: 'silent',
      ...env,
    },
    logger: createLogger(`${prefix}-test`, 'silent'),
    listen: { host: '127.0.0.1', port: 0 },
    now: () => new Date(clock.now),
  });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });

  const call: Harness['call'] = async (method, path, opts = {}) => {
    const res = await fetch(`${svc.url}${path}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        'x-forwarded-for': '192.0.2.1',
        ...opts.headers,
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };

  return {
    svc,
    databaseUrl,
    secret,
    clock,
    call,
    async login(email, password, opts = {}) {
      const r = await call('POST', '/api/admin/login', {
        body: { email, password },
        headers: {
          'x-forwarded-for': opts.ip ?? freshIp(),
          ...(opts.https ? { 'x-forwarded-proto': 'https' } : {}),
        },
      });
      const cookie = r.headers.get('set-cookie');
      const token = cookie?.match(/^(?:__Host-)?parley_session=([^;]+)/)?.[1] ?? null;
      return { ...r, token, cookie };
    },
    resolve: (token) =>
      call('POST', '/internal/sessions/resolve', {
        body: { token },
        headers: { [INTERNAL_TOKEN_HEADER]: internalToken(secret) },
      }),
    async as(principal, token) {
      return {
        'x-parley-assertion': await signAssertion(secret, principal),
        ...(token ? { cookie: `parley_session=${token}` } : {}),
      };
    },
    async sql(text, params) {
      return (await pool.query(text, params)).rows;
    },
    async stop() {
      await pool.end();
      await svc.stop();
    },
  };
}
