import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { blogService } from '@parley/blog/service';
import { bookingService } from '@parley/booking/service';
import { identityService } from '@parley/identity/service';
import { createLogger, type RunningService, type ServiceInstance, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import { voiceService } from '@parley/voice/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { type OpenApiDocument, toFastifyPath } from '../src/openapi.ts';
import { GATEWAY_ROUTES, methodsOf, ROUTES } from '../src/routes.ts';

/**
 * The merged API description (GET /api/openapi.json) against the real services behind the real
 * gateway: it names every route of the table with its access and the owning service's schemas,
 * and nothing the gateway does not route. Settings is configured but down (a closed port) and
 * email is not deployed: their paths are still described, marked unavailable.
 */
const secret = randomBytes(32).toString('hex');
const logger = createLogger('openapi-test', 'silent');
const ADMIN = { email: 'root@openapi.test', password: 'openapi admin password' };
const running: RunningService[] = [];
let gateway: ServiceInstance;
let base: string;
let cookie: string;
let doc: OpenApiDocument;

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 1;
}

const concrete = (fastifyPath: string) => fastifyPath.replace(/:(\w+)/g, () => crypto.randomUUID());

beforeAll(async () => {
  const common = {
    INTERNAL_AUTH_SECRET: secret,
    LOG_LEVEL: 'silent' as const,
    NATS_URL: process.env.NATS_URL,
  };
  const start = async (module: Parameters<typeof startService>[0], db: string, env = {}) => {
    const service = await startService(module, {
      env: { ...common, DATABASE_URL: await createTestDatabase(db), ...env },
      logger,
      listen: { host: '127.0.0.1', port: 0 },
    });
    running.push(service);
    return service;
  };
  const identity = await start(identityService, 'openapi_identity', {
    PARLEY_ADMIN_EMAIL: ADMIN.email,
    PARLEY_ADMIN_PASSWORD: ADMIN.password,
  });
  const booking = await start(bookingService, 'openapi_booking');
  const blog = await start(blogService, 'openapi_blog');
  const voice = await start(voiceService, 'openapi_voice', { TTS_WORKERS: '1' });
  gateway = await buildGateway(
    {
      INTERNAL_AUTH_SECRET: secret,
      IDENTITY_URL: identity.url,
      BOOKING_URL: booking.url,
      BLOG_URL: blog.url,
      VOICE_URL: voice.url,
      SETTINGS_URL: `http://127.0.0.1:${await closedPort()}`,
      WEB_DIST_DIR: '/nonexistent',
      METRICS_PORT: 0,
      // Settings is refused at once (a closed port); the others may be slow on a busy machine.
      OPENAPI_FETCH_TIMEOUT_SECONDS: 15,
    },
    { logger },
  );
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  const addr = gateway.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const login = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(login.status).toBe(200);
  cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
  const res = await fetch(`${base}/api/openapi.json`, { headers: { cookie } });
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDocument;
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  for (const service of running.reverse()) await service.stop();
});

/** Every `METHOD /fastify/path` the document names. */
function documented(): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of Object.keys(item)) out.add(`${method.toUpperCase()} ${toFastifyPath(path)}`);
  return out;
}

const routed = new Set([
  ...ROUTES.flatMap((entry) => methodsOf(entry).map((m) => `${m} ${entry.path}`)),
  ...GATEWAY_ROUTES.map((route) => `${route.method} ${route.path}`),
]);

describe('GET /api/openapi.json (the merged API description)', () => {
  it('names every route of the gateway route table', () => {
    const missing = [...routed].filter((route) => !documented().has(route));
    expect(missing).toEqual([]);
  });

  it('names no path the gateway does not route', async () => {
    const extra = [...documented()].filter((route) => !routed.has(route));
    expect(extra).toEqual([]);
    // ...and the gateway really routes each one: no route-not-found answer for any of them.
    for (const route of documented()) {
      const [method, path] = route.split(' ') as [string, string];
      const res = await fetch(`${base}${concrete(path)}`, { method, redirect: 'manual' });
      const body = await res.text();
      expect(body, route).not.toMatch(/Route \w+ \S+ not found/);
    }
  });

  it('gives every route its access as a security requirement', () => {
    for (const entry of ROUTES) {
      for (const method of methodsOf(entry)) {
        const path = entry.path.replace(/:(\w+)/g, '{$1}');
        const op = doc.paths[path]?.[method.toLowerCase()] as Record<string, unknown>;
        const expected = {
          public: [],
          admin: [{ adminSession: [] }],
          super_admin: [{ adminSession: ['super_admin'] }],
          'signed-webhook': [expect.any(Object)],
        }[entry.access];
        expect(op.security, `${method} ${entry.path}`).toEqual(expected);
        expect(op['x-parley-access']).toBe(entry.access);
      }
    }
    for (const route of GATEWAY_ROUTES) {
      expect(doc.paths[route.path]?.get?.security).toEqual([{ adminSession: [] }]);
    }
  });

  it("takes each running service's schemas, with OpenAPI path parameters and the error shape", () => {
    const running = new Set(['identity', 'booking', 'blog', 'voice']);
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path).not.toContain(':');
      for (const [method, op] of Object.entries(item)) {
        const service = op['x-parley-service'] as string;
        if (running.has(service)) expect(op['x-parley-unavailable'], `${method} ${path}`).toBeUndefined();
        const params = ((op.parameters as Array<{ in: string; name: string }>) ?? []).filter(
          (p) => p.in === 'path',
        );
        expect(params.map((p) => p.name).sort(), `${method} ${path}`).toEqual(
          [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(),
        );
        expect((op.responses as Record<string, unknown>).default).toBeDefined();
      }
    }
    const booking = doc.paths['/api/bookings']?.post as {
      requestBody?: { content: Record<string, unknown> };
    };
    expect(booking.requestBody?.content['application/json']).toBeDefined();
    expect(doc.components?.schemas?.Error).toMatchObject({ required: ['error', 'message'] });
    // A service's own components are kept, under its name, and referenced as such.
    expect(JSON.stringify(doc.paths['/api/admin/users'])).toContain('#/components/schemas/identity.');
    // Speech answers MP3, and says so.
    const speech = doc.paths['/api/voice/text-to-speech']?.post as {
      responses: Record<string, { content?: Record<string, unknown> }>;
    };
    expect(Object.keys(speech.responses['200']?.content ?? {})).toEqual(['audio/mpeg']);
  });

  it('describes a service that is down or not deployed from the table, marked unavailable', () => {
    const settings = doc.paths['/api/admin/settings']?.get as Record<string, unknown>;
    expect(settings['x-parley-unavailable']).toBe(true);
    const email = doc.paths['/api/admin/email/contacts']?.get as Record<string, unknown>;
    expect(email['x-parley-unavailable']).toBe(true);
    expect(doc.paths['/api/admin/users/{id}']?.patch?.['x-parley-unavailable']).toBeUndefined();
  });

  it('is for signed-in admins only by default, as are the interactive docs', async () => {
    expect((await fetch(`${base}/api/openapi.json`)).status).toBe(401);
    expect((await fetch(`${base}/api/docs/`)).status).toBe(401);
    const page = await fetch(`${base}/api/docs/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/api/openapi.json');
    // The docs page's CSP allows its own inline script by hash, and only on that page.
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-eval');
    // The 4.9 MB bundle is gzipped once, not brotli-compressed per request.
    const started = Date.now();
    const script = await fetch(`${base}/api/docs/js/scalar.js`, {
      headers: { cookie, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-encoding')).toBe('gzip');
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    const other = await fetch(`${base}/some-page`);
    expect(other.headers.get('content-security-policy') ?? '').not.toContain('sha256-');
  });
});
