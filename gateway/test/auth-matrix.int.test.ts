import { randomBytes } from 'node:crypto';
import { blogService } from '@parley/blog/service';
import { bookingService } from '@parley/booking/service';
import { identityService } from '@parley/identity/service';
import { createLogger, type RunningService, type ServiceInstance, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import { voiceService } from '@parley/voice/service';
import FindMyWay from 'find-my-way';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { GATEWAY_ROUTES, methodsOf, ROUTES, type RouteEntry } from '../src/routes.ts';

/**
 * The auth matrix, generated from the route table, against the real identity and booking
 * services behind the real gateway: every non-public route refuses strangers (401),
 * forged or unknown sessions (401) and the wrong role (403), and lets the right role through.
 */
const secret = randomBytes(32).toString('hex');
const logger = createLogger('auth-matrix', 'silent');
const SUPER = { email: 'root@matrix.test', password: 'matrix super password' };
let identity: RunningService;
let booking: RunningService;
let blog: RunningService;
let voice: RunningService;
let gateway: ServiceInstance;
let base: string;
let superCookie: string;
let adminCookie: string;

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: res.status, headers: res.headers, body: text && json ? JSON.parse(text) : text || null };
}

async function login(email: string, password: string): Promise<string> {
  const r = await call('POST', '/api/admin/login', {}, { email, password });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const cookie = r.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

/** A concrete path for a table pattern (`:id` → a uuid that exists nowhere). */
const concrete = (path: string) =>
  path.replace(/:(\w+)/g, (_, name) => (name === 'id' ? crypto.randomUUID() : 'x'));

const guarded = ROUTES.filter((r) => r.access === 'admin' || r.access === 'super_admin');
const cases = guarded.flatMap((entry) => methodsOf(entry).map((method) => ({ entry, method })));

beforeAll(async () => {
  const common = {
    INTERNAL_AUTH_SECRET: secret,
    LOG_LEVEL: 'silent' as const,
    NATS_URL: process.env.NATS_URL,
  };
  identity = await startService(identityService, {
    env: {
      ...common,
      DATABASE_URL: await createTestDatabase('matrix_identity'),

      PARLEY_ADMIN_EMAIL: SUPER.email,
      PARLEY_ADMIN_PASSWORD: SUPER.password,
      LOGIN_RATE_LIMIT: '100000',
    },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  booking = await startService(bookingService, {
    env: { ...common, DATABASE_URL: await createTestDatabase('matrix_booking') },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  blog = await startService(blogService, {
    env: { ...common, DATABASE_URL: await createTestDatabase('matrix_blog') },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  voice = await startService(voiceService, {
    env: {
      ...common,
      DATABASE_URL: await createTestDatabase('matrix_voice'),

      TTS_WORKERS: '1',
    },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  gateway = await buildGateway(
    {
      INTERNAL_AUTH_SECRET: secret,
      IDENTITY_URL: identity.url,
      BOOKING_URL: booking.url,
      BLOG_URL: blog.url,
      VOICE_URL: voice.url,
      WEB_DIST_DIR: '/nonexistent',
      METRICS_PORT: 0,
    },
    { logger },
  );
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  const addr = gateway.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  superCookie = await login(SUPER.email, SUPER.password);
  // A plain admin, through the real flow: invited by the super admin, then the forced change.
  const created = await call(
    'POST',
    '/api/admin/users',
    { cookie: superCookie },
    {
      email: 'plain@matrix.test',
      firstName: 'Plain',
      lastName: 'Admin',
      role: 'admin',
      password: 'temporary password 1',
    },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const pending = await login('plain@matrix.test', 'temporary password 1');
  expect((await call('GET', '/api/bookings', { cookie: pending })).status).toBe(403);
  const changed = await call(
    'POST',
    '/api/admin/change-password',
    { cookie: pending },
    {
      currentPassword: 'temporary password 1',
      newPassword: 'a brand new password',
    },
  );
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  adminCookie = await login('plain@matrix.test', 'a brand new password');
});

afterAll(async () => {
  await gateway?.close();
  await voice?.stop();
  await blog?.stop();
  await booking?.stop();
  await identity?.stop();
});

describe('auth matrix (from the gateway route table)', () => {
  it('covers every guarded route', () => {
    expect(cases.length).toBeGreaterThan(40);
  });

  it.each(cases)('$method $entry.path: no session → 401', async ({ entry, method }) => {
    expect((await call(method, concrete(entry.path), {}, method === 'GET' ? undefined : {})).status).toBe(
      401,
    );
  });

  it.each(cases)('$method $entry.path: forged session → 401', async ({ entry, method }) => {
    const forged = `parley_session=${randomBytes(32).toString('base64url')}`;
    const r = await call(method, concrete(entry.path), { cookie: forged }, method === 'GET' ? undefined : {});
    expect(r.status).toBe(401);
  });

  it.each(cases.filter((c) => c.entry.access === 'super_admin'))(
    '$method $entry.path: admin → 403',
    async ({ entry, method }) => {
      const r = await call(
        method,
        concrete(entry.path),
        { cookie: adminCookie },
        method === 'GET' ? undefined : {},
      );
      expect(r.status).toBe(403);
    },
  );

  it.each(cases)('$method $entry.path: the right role passes', async ({ entry, method }) => {
    // Logging out ends the session: use a session of its own.
    const cookie =
      entry.path === '/api/admin/logout'
        ? await login('plain@matrix.test', 'a brand new password')
        : entry.access === 'super_admin'
          ? superCookie
          : adminCookie;
    const r = await call(method, concrete(entry.path), { cookie }, method === 'GET' ? undefined : {});
    expect([401, 403], `${r.status} ${JSON.stringify(r.body)}`).not.toContain(r.status);
  });

  it('a service refuses its admin routes when called directly without an assertion', async () => {
    for (const svc of [identity, booking, blog, voice]) {
      for (const route of svc.app.parleyRoutes) {
        const entry = tableEntry(route.method, route.url);
        if (!entry || (entry.access !== 'admin' && entry.access !== 'super_admin')) continue;
        const r = await fetch(`${svc.url}${concrete(route.url)}`, {
          method: route.method,
          headers: {
            cookie: superCookie,
            ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }),
          },
          body: route.method === 'GET' ? undefined : '{}',
        });
        expect(r.status, `${route.method} ${route.url}`).toBe(401);
      }
    }
  });

  // The gateway's own routes (the API description and its docs): admin-only by default.
  it.each(GATEWAY_ROUTES)(
    'GET $path (gateway): strangers and forged sessions → 401, admins pass',
    async ({ path }) => {
      const page = path === '/api/docs' ? '/api/docs/' : path;
      expect((await call('GET', page)).status).toBe(401);
      const forged = `parley_session=${randomBytes(32).toString('base64url')}`;
      expect((await call('GET', page, { cookie: forged })).status).toBe(401);
      expect((await call('GET', page, { cookie: adminCookie })).status).toBe(200);
    },
  );

  it('every route a service serves is in the gateway table (with an access rule) or internal', () => {
    const missing: string[] = [];
    for (const svc of [identity, booking, blog, voice]) {
      for (const route of svc.app.parleyRoutes) {
        // Health, metrics and each service's own OpenAPI document (the gateway serves the
        // merged one) stay inside the cluster.
        if (/^\/(health|metrics|internal|openapi\.json$)/.test(route.url)) continue;
        const entry = tableEntry(route.method, route.url);
        if (!entry || entry.service !== svc.name) missing.push(`${svc.name}: ${route.method} ${route.url}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

const table = (() => {
  const router = FindMyWay();
  for (const entry of ROUTES) for (const m of methodsOf(entry)) router.on(m, entry.path, () => {}, entry);
  return router;
})();
function tableEntry(method: string, pattern: string): RouteEntry | undefined {
  return table.find(method as 'GET', concrete(pattern))?.store as RouteEntry | undefined;
}
