import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PRERENDER_DIR, PRERENDER_ORIGIN_PLACEHOLDER, type PrerenderManifest } from '@parley/contracts/web';
import {
  budgetRoutes,
  createLogger,
  MemoryBudgetStore,
  requireInternal,
  type ServiceInstance,
  verifyAssertion,
} from '@parley/kit';
import { freePort } from '@parley/kit/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import type { AdminSession, AuthResolver } from '../src/auth.ts';
import { loopDelayNs } from '../src/internal-metrics.ts';

/**
 * The gateway in front of a real HTTP upstream that reports what it received (standing
 * in for the booking service), plus a built web bundle in a temp dir.
 */
const secret = randomBytes(32).toString('hex');
const logger = createLogger('gateway-test', 'silent');
/** The configured public origin: the only one absolute URLs may use. */
const ORIGIN = 'https://www.parley.test';
let upstream: FastifyInstance;
let gateway: ServiceInstance;
let base: string;
let metricsBase: string;
let webDir: string;
/** Bodies (sizes) and reads the stand-in upstream received. */
let availableReads = 0;
/** Requests that reached Fastify's pipeline (the fast path bypasses it). */
let fastifyRequests = 0;
const uploads: number[] = [];
const HOSTILE_POST = {
  id: 'p1',
  title: 'Hello </title><script>alert(1)</script> "quoted" $& world',
  slug: 'hello-world',
  excerpt: 'An excerpt with <b>markup</b> & an ampersand.',
  content: 'Body text.',
  author: 'Ada "The" Writer',
  featuredImage: '/api/blog/images/abc.png',
  tags: ['ai', '<tag>'],
  status: 'published',
  metaTitle: null,
  metaDescription: null,
  publishedAt: '2026-11-01T10:00:00.000Z',
  createdAt: '2026-10-30T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};
/** The bodies the speech upstream received. */
const speechCalls: unknown[] = [];
/** Budget counts the stand-in service was asked for (the gateway's route budgets). */
let budgetCounts = 0;
/** When set, the stand-in cannot count budgets (its database is away). */
let budgetsBroken = false;

/** Sessions by cookie value, as identity would resolve them. */
const sessions: Record<string, AdminSession> = {
  'admin-cookie': { adminId: 'a-1', role: 'admin', mustChangePassword: false },
  'super-cookie': { adminId: 's-1', role: 'super_admin', mustChangePassword: false },
  'pending-cookie': { adminId: 'p-1', role: 'admin', mustChangePassword: true },
};
const auth: AuthResolver = {
  async resolve(request) {
    const m = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.cookie ?? '');
    return (m?.[1] && sessions[m[1]]) || null;
  },
};

async function setUp(fast: boolean) {
  availableReads = 0;
  uploads.length = 0;
  speechCalls.length = 0;
  fastifyRequests = 0;
  budgetCounts = 0;
  upstream = Fastify({ bodyLimit: 16 * 1024 * 1024 });
  // The gateway's route budgets, counted by the owning service as every service does (the kit's
  // route), in memory here.
  const counted = new MemoryBudgetStore();
  budgetRoutes(
    upstream as unknown as ServiceInstance,
    {
      add: (key, hits, windowMs) => {
        budgetCounts++;
        if (budgetsBroken) return Promise.reject(new Error('database unavailable'));
        return counted.add(key, hits, windowMs);
      },
    },
    requireInternal(secret),
  );
  // Bodies of other types (uploads) are counted, not echoed.
  upstream.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => {
    uploads.push((body as Buffer).length);
    done(null, { bytes: (body as Buffer).length });
  });
  upstream.all('/*', async (req, reply) => {
    // What a careless service might say about an admin answer: the gateway must override it.
    reply.header('cache-control', 'public, max-age=60');
    return { method: req.method, url: req.url, headers: req.headers, body: req.body ?? null };
  });
  upstream.get('/api/bookings/available', async (req, reply) => {
    availableReads++;
    // `?cached=1`: as if the booking service offered its slots to the edge cache.
    if ((req.query as { cached?: string }).cached) reply.header('surrogate-control', 'max-age=30');
    return { availableSlots: [], reads: availableReads, big: 'x'.repeat(4000) };
  });
  // Writes answer 2xx when valid and 400 otherwise, as the real services do.
  upstream.post('/api/blog', async (req, reply) => {
    const body = req.body as { title?: string } | null;
    if (!body?.title) return reply.code(400).send({ error: 'Bad Request', message: 'title is required' });
    return reply.code(201).send({ id: 'p2' });
  });
  upstream.post('/api/bookings', async (_req, reply) => reply.code(201).send({ id: 'b1' }));
  // A large public answer (streamed through the gateway, not collected).
  upstream.get('/sitemap.xml', async (_req, reply) =>
    reply
      .type('application/xml')
      .send(`<urlset>${'<url><loc>https://x.test/a</loc></url>'.repeat(4000)}</urlset>`),
  );
  let blogReads = 0;
  upstream.get('/api/blog', async (_req, reply) => {
    blogReads++;
    reply.header('surrogate-control', 'max-age=30').header('etag', `"v${blogReads}"`);
    return { reads: blogReads };
  });
  // Posts: one published post with hostile strings, one missing, one that breaks.
  upstream.get('/api/blog/:slug', async (req, reply) => {
    const { slug } = req.params as { slug: string };
    if (slug === 'hello-world') return HOSTILE_POST;
    if (slug === 'broken') return reply.code(500).send({ error: 'Internal Server Error' });
    return reply.code(404).send({ error: 'Not Found', message: 'Blog post not found' });
  });
  // Speech: the answer depends on text and speaker only; repeats are offered to the edge.
  upstream.post('/api/voice/text-to-speech', async (req, reply) => {
    const body = req.body as { text: string; speaker?: string };
    speechCalls.push(body);
    reply.header('surrogate-control', 'max-age=30').type('audio/mpeg');
    return Buffer.from(`mp3:${body.speaker ?? 'ai'}:${body.text}`);
  });
  await upstream.listen({ host: '127.0.0.1', port: 0 });
  const addr = upstream.server.address();
  const upstreamUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  webDir = mkdtempSync(join(tmpdir(), 'parley-web-'));
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(
    join(webDir, 'index.html'),
    '<!doctype html><html><head><title>Parley</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(webDir, 'assets', 'index-abc123.js'), 'console.log("app")');

  const metricsPort = await freePort();
  gateway = await buildGateway(
    {
      INTERNAL_AUTH_SECRET: secret,
      BOOKING_URL: upstreamUrl,
      VOICE_URL: upstreamUrl,
      BLOG_URL: upstreamUrl,
      EMAIL_URL: upstreamUrl,
      // Identity is "deployed" at a port nobody listens on: it is down.
      IDENTITY_URL: `http://127.0.0.1:${await freePort()}`,
      WEB_DIST_DIR: webDir,
      PUBLIC_ORIGIN: ORIGIN,
      METRICS_PORT: metricsPort,
      GATEWAY_FAST_PATH: fast,
    },
    { logger, auth },
  );
  // Counts the requests that went through Fastify (the fast path's never do).
  gateway.addHook('onRequest', (_request, _reply, done) => {
    fastifyRequests++;
    done();
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  const gaddr = gateway.server.address();
  base = `http://127.0.0.1:${typeof gaddr === 'object' && gaddr ? gaddr.port : 0}`;
  metricsBase = `http://127.0.0.1:${metricsPort}`;
}

async function tearDown() {
  await gateway?.close();
  await upstream?.close();
  rmSync(webDir, { recursive: true, force: true });
}

async function get(path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, json };
}

describe.each([true, false])('gateway (fast path %s)', (fast) => {
  beforeAll(async () => {
    await setUp(fast);
  });
  afterAll(tearDown);

  it('forwards a public route with its path, query, request id, trace context and client address', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const r = await get('/api/contact?x=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-123', traceparent },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(r.status).toBe(200);
    expect(r.json.url).toBe('/api/contact?x=1');
    expect(r.json.method).toBe('POST');
    expect(r.json.body).toEqual({ hello: 'world' });
    expect(r.json.headers['x-request-id']).toBe('req-123');
    expect(r.json.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(r.json.headers['x-forwarded-proto']).toBe('http');
    expect(r.json.headers.traceparent).toBe(traceparent);
    expect(r.headers.get('x-request-id')).toBe('req-123');
  });

  it('takes public reads past the Fastify pipeline only on the fast path', async () => {
    const before = fastifyRequests;
    expect((await get('/api/bookings/available')).status).toBe(200);
    expect(fastifyRequests - before).toBe(fast ? 0 : 1);
    // Writes and admin reads always go through Fastify.
    await get('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await get('/api/bookings', { headers: { cookie: 'sid=admin-cookie' } });
    expect(fastifyRequests - before).toBe(fast ? 2 : 3);
  });

  it('forwards a public read with its query, request id, trace context and client address', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const r = await get('/api/blog/images/a.png?w=2&x=%20y', {
      headers: {
        'x-request-id': 'req-get-1',
        traceparent,
        'x-parley-assertion': 'forged',
        'x-forwarded-for': '6.6.6.6',
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.method).toBe('GET');
    expect(r.json.url).toBe('/api/blog/images/a.png?w=2&x=%20y');
    expect(r.json.headers['x-request-id']).toBe('req-get-1');
    expect(r.json.headers.traceparent).toBe(traceparent);
    expect(r.json.headers['x-parley-assertion']).toBeUndefined();
    // No proxy is trusted here: the address is the socket's, whatever the client claims.
    expect(r.json.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(r.json.headers['x-forwarded-proto']).toBe('http');
    expect(r.json.headers['x-forwarded-host']).toBe(new URL(base).host);
    expect(r.headers.get('x-request-id')).toBe('req-get-1');
    // Without one, the gateway makes a request id and both sides see the same.
    const anon = await get('/api/blog/images/a.png');
    expect(anon.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(anon.json.headers['x-request-id']).toBe(anon.headers.get('x-request-id'));
  });

  it('counts public reads in the metrics like every other request', async () => {
    const series = async () => {
      const text = await (await fetch(`${metricsBase}/metrics`)).text();
      const m =
        /^http_server_requests_total\{method="GET",route="\/api\/health\/booking",status_code="200",service="gateway"\} (\d+)$/m.exec(
          text,
        );
      return Number(m?.[1] ?? 0);
    };
    const before = await series();
    for (let i = 0; i < 3; i++) expect((await get('/api/health/booking')).status).toBe(200);
    expect((await series()) - before).toBe(3);
  });

  it('never passes identity headers sent by a client', async () => {
    const r = await get('/api/contact', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-parley-assertion': 'forged',
        'x-parley-internal-token': 'forged',
      },
      body: '{}',
    });
    expect(r.json.headers['x-parley-assertion']).toBeUndefined();
    expect(r.json.headers['x-parley-internal-token']).toBeUndefined();
  });

  it('answers 401 on admin routes without a session and forwards a signed assertion with one', async () => {
    expect((await get('/api/bookings')).status).toBe(401);
    expect((await get('/api/bookings', { headers: { cookie: 'sid=unknown' } })).json).toEqual({
      error: 'Unauthorized',
      message: 'Please sign in to continue.',
    });
    const r = await get('/api/bookings', {
      headers: { cookie: 'sid=admin-cookie', 'x-parley-assertion': 'forged' },
    });
    expect(r.status).toBe(200);
    const principal = await verifyAssertion(secret, r.json.headers['x-parley-assertion']);
    expect(principal).toMatchObject({ adminId: 'a-1', role: 'admin' });
  });

  it('answers 403 for the wrong role and for a pending password change', async () => {
    // /api/admin/users is super_admin only (identity; its upstream is down, so a pass would be 502).
    const denied = await get('/api/admin/users', { headers: { cookie: 'sid=admin-cookie' } });
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('This action requires the super_admin role');
    const pending = await get('/api/bookings', { headers: { cookie: 'sid=pending-cookie' } });
    expect(pending.status).toBe(403);
  });

  it('answers 503 JSON naming a deployed service that is down, with Retry-After', async () => {
    const r = await get('/api/admin/users', { headers: { cookie: 'sid=super-cookie' } });
    expect(r.status).toBe(503);
    expect(r.json).toEqual({
      error: 'Service Unavailable',
      message: 'The identity service is not available right now. Please try again in a few seconds.',
    });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers 503 JSON naming a service that is not deployed', async () => {
    const r = await get('/api/admin/settings', { headers: { cookie: 'sid=admin-cookie' } });
    expect(r.status).toBe(503);
    expect(r.json).toEqual({
      error: 'Service Unavailable',
      message: 'The settings service is not available in this deployment.',
    });
  });

  it('answers public reads an upstream marks with Surrogate-Control from memory until a write', async () => {
    const first = await get('/api/blog');
    expect(first.headers.get('x-cache')).toBeNull();
    expect(first.headers.get('surrogate-control')).toBeNull();
    const second = await get('/api/blog');
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    const notModified = await get('/api/blog', {
      headers: { 'if-none-match': first.headers.get('etag') as string },
    });
    expect(notModified.status).toBe(304);
    // A successful write to the service drops its cached answers.
    const write = await get('/api/blog', {
      method: 'POST',
      headers: { cookie: 'sid=admin-cookie', 'content-type': 'application/json' },
      body: '{"title":"New"}',
    });
    expect(write.status).toBe(201);
    const after = await get('/api/blog');
    expect(after.headers.get('x-cache')).toBeNull();
    expect(after.json.reads).toBe(first.json.reads + 1);
  });

  it('keeps the edge cache unless an entitled caller wrote successfully', async () => {
    const blogHit = async () => (await get('/api/blog')).headers.get('x-cache');
    await get('/api/blog');
    expect(await blogHit()).toBe('HIT');
    const post = (headers: Record<string, string>, body: string) =>
      get('/api/blog', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    // A stranger's write (refused), a foreign site's (refused) and an admin's invalid one
    // (the service says 400) all leave the cache in place.
    expect((await post({}, '{"title":"x"}')).status).toBe(401);
    expect(
      (await post({ cookie: 'sid=admin-cookie', origin: 'https://evil.example' }, '{"title":"x"}')).status,
    ).toBe(403);
    expect((await post({ cookie: 'sid=admin-cookie' }, '{}')).status).toBe(400);
    expect(await blogHit()).toBe('HIT');

    // Public writes: a contact request changes no public read; a booking takes a slot.
    const slots = async () => await get('/api/bookings/available?cached=1');
    const firstSlots = await slots();
    expect((await slots()).headers.get('x-cache')).toBe('HIT');
    const contact = await get('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"A"}',
    });
    expect(contact.status).toBe(200);
    expect((await slots()).headers.get('x-cache')).toBe('HIT');
    const booking = await get('/api/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"A"}',
    });
    expect(booking.status).toBe(201);
    const fresh = await slots();
    expect(fresh.headers.get('x-cache')).toBeNull();
    expect(fresh.json.reads).toBeGreaterThan(firstSlots.json.reads);
  });

  it('answers repeated speech from memory keyed by text and speaker, whatever else the body holds', async () => {
    const speak = (body: unknown) =>
      get('/api/voice/text-to-speech', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const first = await speak({ text: 'Hello there.', speaker: 'ai', cacheBuster: 1 });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBeNull();
    expect(first.headers.get('surrogate-control')).toBeNull();
    // The upstream got the body exactly as sent.
    expect(speechCalls).toEqual([{ text: 'Hello there.', speaker: 'ai', cacheBuster: 1 }]);
    const again = await speak({
      cacheBuster: 'other',
      speaker: 'ai',
      text: 'Hello there.',
      useCase: 'legal',
    });
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.headers.get('content-type')).toBe('audio/mpeg');
    expect(again.text).toBe(first.text);
    expect(speechCalls).toHaveLength(1);
    // Another speaker or another text is another answer.
    const customer = await speak({ text: 'Hello there.', speaker: 'customer' });
    expect(customer.headers.get('x-cache')).toBeNull();
    expect(customer.text).toBe('mp3:customer:Hello there.');
    expect(speechCalls).toHaveLength(2);
    // A body that is not JSON is the service's to refuse, and is never cached.
    for (let i = 0; i < 2; i++) {
      const bad = await speak('{"text": ');
      expect(bad.status).toBe(400);
      expect(bad.headers.get('x-cache')).toBeNull();
    }
    // A body far beyond any valid request is refused before it is forwarded.
    const huge = await speak({ text: 'x'.repeat(70_000) });
    expect(huge.status).toBe(413);
    expect(huge.json.error).toBe('Payload Too Large');
    expect(speechCalls).toHaveLength(2);
    // Speech is a read: it leaves the service's other cached answers in place.
    expect((await speak({ text: 'Hello there.', speaker: 'ai' })).headers.get('x-cache')).toBe('HIT');
  });

  it('answers 404 JSON for unknown API paths and methods, and hides internal prefixes', async () => {
    for (const path of ['/api/nope', '/api/bookings/x/y/z', '/__up/booking/api/bookings']) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.json.error, path).toBe('Not Found');
    }
    expect((await get('/api/bookings', { method: 'DELETE' })).status).toBe(404);
  });

  it('serves the web app for every other path, with the CSP and revalidation', async () => {
    for (const path of ['/', '/book-demo', '/blog/broken', '/no/such/page']) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.text).toContain('<div id="root">');
      expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(r.headers.get('cache-control')).toMatch(/no-cache|max-age=0/);
    }
  });

  it("serves a post page with the post's own title, sharing tags and JSON-LD, all inert", async () => {
    const r = await get('/blog/hello-world');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<div id="root">');
    const head = r.text.slice(0, r.text.indexOf('</head>'));
    // Exactly one title, the post's, with every markup character escaped.
    expect(head.match(/<title/g)).toHaveLength(1);
    expect(head).toContain(
      '<title data-server-head>Hello &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; $&amp; world · Parley Blog</title>',
    );
    expect(r.text).not.toContain('<script>alert(1)');
    expect(head).toContain('<meta data-server-head property="og:type" content="article" />');
    expect(head).toContain(
      '<meta data-server-head name="description" content="An excerpt with &lt;b&gt;markup&lt;/b&gt; &amp; an ampersand." />',
    );
    expect(head).toContain(`<link data-server-head rel="canonical" href="${ORIGIN}/blog/hello-world" />`);
    expect(head).toContain(
      `<meta data-server-head property="og:image" content="${ORIGIN}/api/blog/images/abc.png" />`,
    );
    expect(head).toContain('<meta data-server-head property="article:tag" content="&lt;tag&gt;" />');
    expect(head).toContain('<meta data-server-head name="twitter:card" content="summary_large_image" />');
    // The structured data reads back as the post, and nothing in it can close the script.
    const ld = /<script data-server-head type="application\/ld\+json">([^<]*)<\/script>/.exec(head);
    expect(ld).not.toBeNull();
    const article = JSON.parse(ld?.[1] ?? '{}');
    expect(article).toMatchObject({
      '@type': 'Article',
      headline: HOSTILE_POST.title,
      author: { name: 'Ada "The" Writer' },
    });
  });

  it("builds a post page's URLs from the configured origin, whatever Host the request names", async () => {
    const res = await gateway.inject({
      method: 'GET',
      url: '/blog/hello-world',
      headers: { host: 'evil.test' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(
      `<meta data-server-head property="og:url" content="${ORIGIN}/blog/hello-world" />`,
    );
    expect(res.body).not.toContain('evil.test');
  });

  it('answers 404 with noindex for a missing post, and the plain shell when the blog fails', async () => {
    for (const path of ['/blog/gone', '/blog/Not%20A%20Slug']) {
      const missing = await get(path);
      expect(missing.status, path).toBe(404);
      expect(missing.text, path).toContain('<title data-server-head>Blog Post Not Found · Parley</title>');
      expect(missing.text, path).toContain('<meta data-server-head name="robots" content="noindex" />');
      expect(missing.text, path).toContain('<div id="root">');
    }
    const broken = await get('/blog/broken');
    expect(broken.status).toBe(200);
    expect(broken.text).toContain('<title>Parley</title>');
    expect(broken.text).not.toContain('data-server-head');
    // Other blog pages are untouched.
    expect((await get('/blog')).text).not.toContain('data-server-head');
  });

  it('caches hashed assets forever', async () => {
    const r = await get('/assets/index-abc123.js');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('counts every hashed asset under one metrics route, not one series per file', async () => {
    await get('/assets/index-abc123.js');
    const text = await (await fetch(`${metricsBase}/metrics`)).text();
    expect(text).toContain('http_server_requests_total{method="GET",route="/assets/*",status_code="200"');
    expect(text).not.toContain('route="/assets/index-abc123.js"');
  });

  it('sets security headers on every response', async () => {
    for (const path of ['/', '/api/nope', '/api/bookings/available']) {
      const r = await get(path);
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('x-frame-options'), path).toBe('DENY');
      expect(r.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
    }
  });

  it('sets them on the answers the gateway makes itself too (refusals, limits, outages)', async () => {
    const answers = [
      await get('/api/bookings'),
      await get('/api/contact', {
        method: 'POST',
        headers: { 'content-length': '0', 'content-type': 'text/plain' },
        body: '',
      }),
      await get('/api/admin/users', { headers: { cookie: 'sid=super-cookie' } }),
      await get('/metrics'),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 200, 503, 404]);
    for (const a of answers) {
      expect(a.headers.get('x-content-type-options')).toBe('nosniff');
      expect(a.headers.get('x-frame-options')).toBe('DENY');
      // PUBLIC_ORIGIN is https here.
      expect(a.headers.get('strict-transport-security')).toContain('max-age=');
    }
  });

  it('marks every admin answer no-store, whatever the service said, refusals included', async () => {
    const ok = await get('/api/bookings', { headers: { cookie: 'sid=admin-cookie' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const superOnly = await get('/api/admin/users', { headers: { cookie: 'sid=admin-cookie' } });
    expect(superOnly.status).toBe(403);
    expect(superOnly.headers.get('cache-control')).toBe('no-store');
    expect((await get('/api/blog/all')).headers.get('cache-control')).toBe('no-store');
    // Public answers keep what the service says.
    const open = await get('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(open.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it('refuses a body over the route limit with 413 before the service sees it, and the connection stays sound', async () => {
    const big = Buffer.alloc(1.5 * 1024 * 1024, 120);
    const sizesBefore = uploads.length;
    const r = await get('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: big,
    });
    expect(r.status).toBe(413);
    expect(r.json).toEqual({
      error: 'Payload Too Large',
      message: 'The request body is too large (at most 1 MB).',
    });
    expect(uploads.length).toBe(sizesBefore);
    // One keep-alive connection: the refusal, then a request that must be answered.
    const client = new Client(base, { pipelining: 1 });
    try {
      const refused = await client.request({
        method: 'POST',
        path: '/api/contact',
        headers: { 'content-type': 'application/octet-stream' },
        body: big,
      });
      expect(refused.statusCode).toBe(413);
      expect(refused.headers.connection).toBe('close');
      await refused.body.text();
      const next = await client.request({ method: 'GET', path: '/api/bookings/available' });
      expect(next.statusCode).toBe(200);
      expect(((await next.body.json()) as { availableSlots: unknown[] }).availableSlots).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('counts a streamed body without a length and stops it at the limit', async () => {
    const sizesBefore = uploads.length;
    const chunks = (function* () {
      for (let i = 0; i < 24; i++) yield Buffer.alloc(64 * 1024, 65);
    })();
    const client = new Client(base, { pipelining: 1 });
    try {
      const r = await client.request({
        method: 'POST',
        path: '/api/contact',
        headers: { 'content-type': 'application/octet-stream' },
        body: Readable.from(chunks),
      });
      expect(r.statusCode).toBe(413);
      expect(r.headers.connection).toBe('close');
      expect(((await r.body.json()) as { error: string }).error).toBe('Payload Too Large');
    } finally {
      await client.destroy();
    }
    expect(uploads.slice(sizesBefore).every((n) => n <= 1024 * 1024)).toBe(true);
  });

  it('lets an upload route take more than the default limit', async () => {
    const image = Buffer.alloc(3 * 1024 * 1024, 1);
    const r = await get('/api/admin/upload-image', {
      method: 'POST',
      headers: {
        cookie: 'sid=admin-cookie',
        'content-type': 'application/octet-stream',
        'x-requested-with': 'parley',
      },
      body: image,
    });
    expect(r.status).toBe(200);
    expect(r.json.body).toEqual({ bytes: image.length });
    const tooBig = await get('/api/admin/upload-image', {
      method: 'POST',
      headers: {
        cookie: 'sid=admin-cookie',
        'content-type': 'application/octet-stream',
        'x-requested-with': 'parley',
      },
      body: Buffer.alloc(7 * 1024 * 1024, 1),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.message).toBe('The request body is too large (at most 6 MB).');
  });

  it('publishes each service liveness under /api/health, answered by the service itself', async () => {
    const r = await get('/api/health/booking');
    expect(r.status).toBe(200);
    expect(r.json.url).toBe('/health/live');
    expect(r.headers.get('x-cache')).toBeNull();
    const absent = await get('/api/health/settings');
    expect(absent.status).toBe(503);
    expect(absent.json.message).toBe('The settings service is not available in this deployment.');
  });

  it('never forwards a path that climbs out of its route', async () => {
    const r = await get('/api/blog/images/..%2f..%2fhealth%2flive');
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('Bad Request');
  });

  it('serves /metrics on the internal port only, with the event-loop delay', async () => {
    const pub = await get('/metrics');
    expect(pub.status).toBe(404);
    expect(pub.json).toEqual({ error: 'Not Found', message: 'Route GET /metrics not found' });
    const internal = await fetch(`${metricsBase}/metrics`);
    expect(internal.status).toBe(200);
    const text = await internal.text();
    expect(text).toMatch(
      /^gateway_event_loop_delay_seconds\{quantile="0\.99",service="gateway"\} [0-9.e-]+$/m,
    );
    expect(text).toContain('http_server_requests_total{');
    expect((await fetch(`${metricsBase}/other`)).status).toBe(404);
  });

  it('compresses large responses for clients that accept it', async () => {
    const res = await fetch(`${base}/api/bookings/available?date=2026-01-01`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toContain('accept-encoding');
    expect(((await res.json()) as { big: string }).big).toHaveLength(4000);
  });

  it('prefers brotli, and compresses only what is worth it', async () => {
    const raw = async (
      path: string,
      headers: Record<string, string>,
      init: { method?: string; body?: string } = {},
    ) => {
      const client = new Client(base);
      try {
        const r = await client.request({
          method: (init.method ?? 'GET') as 'GET',
          path,
          headers,
          body: init.body,
        });
        const body = Buffer.from(await r.body.arrayBuffer());
        return { status: r.statusCode, encoding: r.headers['content-encoding'], vary: r.headers.vary, body };
      } finally {
        await client.close();
      }
    };
    const json = await raw('/api/bookings/available?date=2026-01-02', { 'accept-encoding': 'gzip, br' });
    expect(json.encoding).toBe('br');
    expect(JSON.parse(brotliDecompressSync(json.body).toString()).big).toHaveLength(4000);
    // Asked not to, or not accepted: as it is.
    expect(
      (await raw('/api/bookings/available', { 'accept-encoding': 'br', 'x-no-compression': '1' })).encoding,
    ).toBeUndefined();
    expect((await raw('/api/bookings/available', {})).encoding).toBeUndefined();
    expect((await raw('/api/bookings/available', { 'accept-encoding': 'br;q=0, gzip' })).encoding).toBe(
      'gzip',
    );
    // Small answers and audio stay as they are.
    const small = await raw('/api/health/booking', { 'accept-encoding': 'br' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.encoding).toBeUndefined();
    const speech = await raw(
      '/api/voice/text-to-speech',
      { 'accept-encoding': 'br', 'content-type': 'application/json' },
      { method: 'POST', body: JSON.stringify({ text: 'x'.repeat(2000), speaker: 'ai' }) },
    );
    expect(speech.status).toBe(200);
    expect(speech.encoding).toBeUndefined();
    // A large streamed answer is compressed as it streams.
    const sitemap = await raw('/sitemap.xml', { 'accept-encoding': 'gzip' });
    expect(sitemap.encoding).toBe('gzip');
    const xml = gunzipSync(sitemap.body).toString();
    expect(xml.startsWith('<urlset>')).toBe(true);
    expect(xml.length).toBe(
      '<urlset></urlset>'.length + 4000 * '<url><loc>https://x.test/a</loc></url>'.length,
    );
    // An edge-cached answer is compressed for each encoding asked for, and stays the same answer.
    const first = await raw('/api/bookings/available?cached=1&z=1', { 'accept-encoding': 'gzip' });
    const hitBr = await raw('/api/bookings/available?cached=1&z=1', { 'accept-encoding': 'br' });
    const hitGzip = await raw('/api/bookings/available?cached=1&z=1', { 'accept-encoding': 'gzip' });
    const plain = await raw('/api/bookings/available?cached=1&z=1', {});
    expect([first.encoding, hitBr.encoding, hitGzip.encoding, plain.encoding]).toEqual([
      'gzip',
      'br',
      'gzip',
      undefined,
    ]);
    const decoded = [
      gunzipSync(first.body),
      brotliDecompressSync(hitBr.body),
      gunzipSync(hitGzip.body),
      plain.body,
    ];
    for (const d of decoded) expect(d.toString()).toBe(plain.body.toString());
    expect(hitBr.vary).toContain('accept-encoding');
  });

  it('rate-limits the costly public routes per client with 429 and Retry-After', async () => {
    // demo-call allows 5 per minute per client.
    const responses: Array<Awaited<ReturnType<typeof get>>> = [];
    for (let i = 0; i < 7; i++) responses.push(await get('/api/voice/demo-call', { method: 'POST' }));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = responses[6];
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited?.json.error).toBe('Too Many Requests');
    // Other routes are unaffected, and never wait for a budget count.
    const counts = budgetCounts;
    expect(
      (
        await get('/api/contact', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(200);
    expect((await get('/api/bookings/available')).status).toBe(200);
    expect(budgetCounts).toBe(counts);
  });

  it('counts a budget at the owning service, once per request, and answers 503 when it cannot', async () => {
    const before = budgetCounts;
    const ok = await get('/api/voice/text-to-speech', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: `budget ${fast}` }),
    });
    expect(ok.status).toBe(200);
    expect(budgetCounts - before).toBe(1);
    budgetsBroken = true;
    try {
      const down = await get('/api/voice/text-to-speech', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `budget ${fast} 2` }),
      });
      expect(down.status).toBe(503);
      expect(down.json.error).toBe('Service Unavailable');
      expect(down.headers.get('retry-after')).toBeTruthy();
    } finally {
      budgetsBroken = false;
    }
  });

  it("accepts RFC 8058 one-click unsubscribes from a mail client's origin (the signed token is the authority)", async () => {
    // As Gmail or a webmail posts it: a form body, from its own origin, or `null` from a
    // sandboxed frame or a privacy setting.
    for (const origin of ['https://mail.example', 'null']) {
      const r = await get('/api/unsubscribe/signed-token.abc', {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(r.status, origin).toBe(200);
      expect(r.json.url).toBe('/api/unsubscribe/signed-token.abc');
      expect(r.json.method).toBe('POST');
    }
  });

  it('refuses cross-site state changes (CSRF): foreign Origin, or a cookie change without JSON', async () => {
    const post = (headers: Record<string, string>) =>
      get('/api/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    const foreign = await post({ origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.json.message).toBe('Cross-site request refused.');
    expect((await post({ origin: base })).status).toBe(200);
    expect((await post({})).status).toBe(200);
    // The same refusal covers a public route that has no token of its own...
    expect((await post({ origin: 'null' })).status).toBe(403);

    const admin = { cookie: 'sid=admin-cookie' };
    const form = await get('/api/bookings/b1/status', {
      method: 'PATCH',
      headers: { ...admin, 'content-type': 'text/plain' },
      body: 'status=cancelled',
    });
    expect(form.status).toBe(415);
    const json = await get('/api/bookings/b1/status', {
      method: 'PATCH',
      headers: { ...admin, 'content-type': 'application/json' },
      body: '{"status":"cancelled"}',
    });
    expect(json.status).toBe(200);
    const marked = await get('/api/bookings/b1/status', {
      method: 'PATCH',
      headers: { ...admin, 'x-requested-with': 'parley' },
    });
    expect(marked.status).toBe(200);
  });

  describe('robots.txt', () => {
    it('lets crawlers read the public site, keeps them out of the back office and names the sitemap', async () => {
      const r = await get('/robots.txt');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('text/plain');
      const lines = r.text.split('\n');
      for (const rule of ['User-agent: *', 'Disallow: /admin', 'Disallow: /blog-admin', 'Disallow: /api/']) {
        expect(lines).toContain(rule);
      }
      expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    });

    it('never names a forged Host in the Sitemap line', async () => {
      const res = await gateway.inject({ method: 'GET', url: '/robots.txt', headers: { host: 'evil.test' } });
      expect(res.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
      expect(res.body).not.toContain('evil.test');
    });
  });
});

describe('event-loop delay', () => {
  it('is the part of a sampled interval beyond the sampling period', () => {
    expect(loopDelayNs(10e6, 10)).toBe(0);
    expect(loopDelayNs(9.2e6, 10)).toBe(0);
    expect(loopDelayNs(12.5e6, 10)).toBe(2.5e6);
    expect(loopDelayNs(70e6, 10)).toBe(60e6);
  });
});

describe('gateway analytics configuration', () => {
  async function serveIndex(config: { GA_MEASUREMENT_ID?: string }) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-web-'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html><head><title>Parley</title></head><body></body></html>',
    );
    const app = await buildGateway(
      { INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'), WEB_DIST_DIR: dir, ...config },
      { logger: createLogger('gateway-test', 'silent') },
    );
    try {
      const res = await app.inject({ method: 'GET', url: '/use-cases' });
      return { html: res.body, csp: String(res.headers['content-security-policy']) };
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('loads no analytics and allows no analytics origin without a measurement id', async () => {
    const { html, csp } = await serveIndex({});
    expect(html).not.toContain('parley-ga-id');
    expect(csp).not.toContain('googletagmanager');
    expect(csp).toContain("script-src 'self';");
  });

  it('hands the measurement id to the app and lets gtag.js through the CSP when configured', async () => {
    const { html, csp } = await serveIndex({ GA_MEASUREMENT_ID: 'G-TEST12345' });
    expect(html).toMatch(/<meta name="parley-ga-id" content="G-TEST12345" \/>\s*<\/head>/);
    expect(csp).toContain("script-src 'self' https://www.googletagmanager.com;");
    expect(csp).toMatch(
      /connect-src 'self' https:\/\/www\.googletagmanager\.com https:\/\/\*\.google-analytics\.com/,
    );
  });
});

describe('developer test login screens', () => {
  async function get(config: { ADMIN_TEST_LOGINS?: boolean; NODE_ENV?: 'production' }, url: string) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-web-'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html><head><title>Parley</title></head><body></body></html>',
    );
    const app = await buildGateway(
      { INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'), WEB_DIST_DIR: dir, ...config },
      { logger: createLogger('gateway-test', 'silent') },
    );
    try {
      return await app.inject({ method: 'GET', url });
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('are served in development, and answer 404 (marked for the app) in production', async () => {
    for (const url of ['/admin/simple', '/admin/test']) {
      const dev = await get({}, url);
      expect(dev.statusCode).toBe(200);
      expect(dev.body).not.toContain('parley-test-logins');
      const prod = await get({ NODE_ENV: 'production' }, url);
      expect(prod.statusCode).toBe(404);
      expect(prod.body).toContain('<meta name="parley-test-logins" content="off" />');
      // The flag wins both ways.
      expect((await get({ NODE_ENV: 'production', ADMIN_TEST_LOGINS: true }, url)).statusCode).toBe(200);
      expect((await get({ ADMIN_TEST_LOGINS: false }, url)).statusCode).toBe(404);
    }
    // Other admin screens are not touched.
    expect((await get({ NODE_ENV: 'production' }, '/admin/login')).statusCode).toBe(200);
  });
});

describe('prerendered pages', () => {
  const shell =
    '<!doctype html><html><head><title>Parley</title></head><body><div id="root"></div></body></html>';
  const page = (name: string) =>
    `<!doctype html><html><head><link rel="canonical" href="${PRERENDER_ORIGIN_PLACEHOLDER}/${name}"/></head><body><div id="root" data-prerendered="/${name}"><h1>${name}</h1></div></body></html>`;

  async function withPrerendered(
    config: { PUBLIC_ORIGIN?: string; PORT?: number },
    run: (app: Awaited<ReturnType<typeof buildGateway>>, dir: string) => Promise<void>,
  ) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-web-'));
    mkdirSync(join(dir, PRERENDER_DIR));
    writeFileSync(join(dir, 'index.html'), shell);
    writeFileSync(join(dir, PRERENDER_DIR, 'use-cases.html'), page('use-cases'));
    writeFileSync(join(dir, PRERENDER_DIR, 'blog.html'), page('blog'));
    const manifest: PrerenderManifest = {
      '/use-cases': { file: 'use-cases.html', queryMatters: false },
      '/blog': { file: 'blog.html', queryMatters: true },
    };
    writeFileSync(join(dir, PRERENDER_DIR, 'manifest.json'), JSON.stringify(manifest));
    const app = await buildGateway(
      { INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'), WEB_DIST_DIR: dir, ...config },
      { logger: createLogger('gateway-test', 'silent') },
    );
    try {
      await run(app, dir);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('serves a listed page prerendered, with absolute URLs on the local origin when none is configured', async () => {
    await withPrerendered({ PORT: 8080 }, async (app) => {
      const res = await app.inject({
        method: 'GET',
        url: '/use-cases',
        headers: { host: 'parley.test:9999' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<h1>use-cases</h1>');
      expect(res.body).toContain('href="http://localhost:8080/use-cases"');
      expect(res.body).not.toContain('parley.test');
      expect(res.body).not.toContain(PRERENDER_ORIGIN_PLACEHOLDER);
    });
  });

  it('uses PUBLIC_ORIGIN when set, and never puts a forged Host header into the page', async () => {
    await withPrerendered({ PUBLIC_ORIGIN: 'https://www.parley.example/' }, async (app) => {
      const res = await app.inject({ method: 'GET', url: '/use-cases', headers: { host: 'evil.test' } });
      expect(res.body).toContain('href="https://www.parley.example/use-cases"');
    });
    await withPrerendered({}, async (app) => {
      const res = await app.inject({
        method: 'GET',
        url: '/use-cases',
        headers: { host: 'x"><script>alert(1)</script>' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('<script>alert(1)</script>');
      expect(res.body).toContain('href="http://localhost:3000/use-cases"');
    });
  });

  it("names the local origin in robots.txt when none is configured, never the request's Host", async () => {
    await withPrerendered({ PORT: 8080 }, async (app) => {
      const res = await app.inject({ method: 'GET', url: '/robots.txt', headers: { host: 'evil.test' } });
      expect(res.body).toContain('Sitemap: http://localhost:8080/sitemap.xml');
      expect(res.body).not.toContain('evil.test');
    });
  });

  it('serves the shell where the query string matters, for unlisted paths, and after a rebuild removes a page', async () => {
    await withPrerendered({}, async (app, dir) => {
      expect((await app.inject({ method: 'GET', url: '/blog' })).body).toContain('<h1>blog</h1>');
      expect((await app.inject({ method: 'GET', url: '/blog?page=2' })).body).toBe(shell);
      // A query string that the page ignores still gets the prerendered page.
      expect((await app.inject({ method: 'GET', url: '/use-cases?utm_source=x' })).body).toContain(
        '<h1>use-cases</h1>',
      );
      for (const url of ['/admin', '/blog/a-post', '/use-cases/', '/toString', '/constructor']) {
        expect((await app.inject({ method: 'GET', url })).body, url).toBe(shell);
      }
      // A rebuilt bundle without the page: the next visit gets the shell (files are re-read on change).
      writeFileSync(
        join(dir, PRERENDER_DIR, 'manifest.json'),
        JSON.stringify({ '/blog': { file: 'blog.html', queryMatters: true } }),
      );
      const later = new Date(Date.now() + 5000);
      utimesSync(join(dir, PRERENDER_DIR, 'manifest.json'), later, later);
      expect((await app.inject({ method: 'GET', url: '/use-cases' })).body).toBe(shell);
    });
  });
});
