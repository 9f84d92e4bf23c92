import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { createLogger, type ServiceInstance } from '@parley/kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';

/**
 * The fast path (src/plugins/fast-path.ts) is an optimisation only: the same request answered
 * by a gateway with it and by one without it (GATEWAY_FAST_PATH=false, every request through
 * Fastify) gets the same status, headers and body. Both gateways stand in front of one
 * upstream whose answers depend on the request only (no counters, no clock).
 */

/**
 * Headers that differ between any two answers, whichever path: `date` (the second it was
 * written, by Node and by the upstream). Everything else must match, including x-request-id
 * (each request names its own), content-length and the security headers.
 */
const PER_RESPONSE = new Set(['date']);

const logger = createLogger('gateway-test', 'silent');
let upstream: FastifyInstance;
const gateways: Record<'fast' | 'fastify', { app: ServiceInstance; base: string; fastifyRequests: number }> =
  {} as never;

beforeAll(async () => {
  upstream = Fastify();
  // An echo of what the service received, minus what differs per connection.
  const echo = (req: { method: string; url: string; headers: IncomingHttpHeaders }) => ({
    method: req.method,
    url: req.url,
    forwarded: {
      for: req.headers['x-forwarded-for'],
      proto: req.headers['x-forwarded-proto'],
      host: req.headers['x-forwarded-host'],
      requestId: req.headers['x-request-id'],
    },
  });
  upstream.get('/api/bookings/available', async (req, reply) => {
    // `?cached=1`: offered to the edge cache, as the booking service may.
    if ((req.query as { cached?: string }).cached) reply.header('surrogate-control', 'max-age=30');
    reply.header('etag', '"slots-1"');
    return { ...echo(req), big: 'x'.repeat(4000) };
  });
  upstream.get('/api/blog/:slug', async (req, reply) =>
    reply.code(404).send({ error: 'Not Found', message: `No post ${req.url}` }),
  );
  await upstream.listen({ host: '127.0.0.1', port: 0 });
  const addr = upstream.server.address();
  const upstreamUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  for (const [name, fast] of [
    ['fast', true],
    ['fastify', false],
  ] as const) {
    const app = await buildGateway(
      {
        INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
        BOOKING_URL: upstreamUrl,
        BLOG_URL: upstreamUrl,
        WEB_DIST_DIR: '/nonexistent',
        PUBLIC_ORIGIN: 'https://www.parley.test',
        METRICS_PORT: 0,
        GATEWAY_FAST_PATH: fast,
      },
      { logger },
    );
    const entry = { app, base: '', fastifyRequests: 0 };
    app.addHook('onRequest', (_request, _reply, done) => {
      entry.fastifyRequests++;
      done();
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const gaddr = app.server.address();
    entry.base = `http://127.0.0.1:${typeof gaddr === 'object' && gaddr ? gaddr.port : 0}`;
    gateways[name] = entry;
  }
});

afterAll(async () => {
  await Promise.all(Object.values(gateways).map((g) => g.app.close()));
  await upstream?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/** The raw answer (no decompression: the encoded bytes are compared too), minus PER_RESPONSE. */
async function ask(
  base: string,
  method: 'GET' | 'HEAD',
  path: string,
  headers: Record<string, string>,
): Promise<Answer> {
  // One Host for both gateways (they listen on different ports), as X-Forwarded-Host passes it on.
  const res = await request(`${base}${path}`, { method, headers: { host: 'www.parley.test', ...headers } });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const body = bytes.toString(res.headers['content-encoding'] ? 'base64' : 'utf8');
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (!PER_RESPONSE.has(name) && value !== undefined) kept[name] = value;
  }
  return { status: res.statusCode, headers: kept, body };
}

/** Representative public reads, each with its own request id (which both answers carry). */
const CASES: Array<{ name: string; method: 'GET' | 'HEAD'; path: string; headers?: Record<string, string> }> =
  [
    { name: 'a public GET proxied', method: 'GET', path: '/api/bookings/available' },
    { name: 'a query string', method: 'GET', path: '/api/bookings/available?date=2026-11-02&x=%20y' },
    { name: 'a HEAD', method: 'HEAD', path: '/api/bookings/available?date=2026-11-02' },
    { name: "the upstream's 404", method: 'GET', path: '/api/blog/no-such-post' },
    {
      name: 'a compressed answer',
      method: 'GET',
      path: '/api/bookings/available?z=1',
      headers: { 'accept-encoding': 'gzip' },
    },
    {
      name: 'forwarded headers from an untrusted client',
      method: 'GET',
      path: '/api/bookings/available?f=1',
      headers: { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https' },
    },
  ];

describe('the fast path answers as the Fastify path does', () => {
  it.each(CASES)('$name', async ({ method, path, headers = {} }) => {
    const id = { 'x-request-id': `eq-${method}-${path}` };
    const before = gateways.fast.fastifyRequests;
    const fast = await ask(gateways.fast.base, method, path, { ...headers, ...id });
    const slow = await ask(gateways.fastify.base, method, path, { ...headers, ...id });
    expect(fast).toEqual(slow);
    // And it was the fast path that answered: Fastify's pipeline never saw the request.
    expect(gateways.fast.fastifyRequests).toBe(before);
  });

  it('a cached read: the miss that fills the edge cache, the hit, and a 304 on its ETag', async () => {
    const path = '/api/bookings/available?cached=1';
    const answers: Record<'fast' | 'fastify', Answer[]> = { fast: [], fastify: [] };
    for (const name of ['fast', 'fastify'] as const) {
      const { base } = gateways[name];
      answers[name].push(await ask(base, 'GET', path, { 'x-request-id': 'eq-miss' }));
      answers[name].push(await ask(base, 'GET', path, { 'x-request-id': 'eq-hit' }));
      answers[name].push(
        await ask(base, 'GET', path, { 'x-request-id': 'eq-304', 'if-none-match': '"slots-1"' }),
      );
      answers[name].push(
        await ask(base, 'GET', path, { 'x-request-id': 'eq-hit-br', 'accept-encoding': 'br' }),
      );
    }
    expect(answers.fast[1]?.headers['x-cache']).toBe('HIT');
    expect(answers.fast[2]?.status).toBe(304);
    expect(answers.fast[3]?.headers['content-encoding']).toBe('br');
    expect(answers.fast).toEqual(answers.fastify);
  });

  it('paths the fast path never takes are answered alike too (a 404 off the table, a refused path)', async () => {
    for (const path of ['/api/no-such-route', '/__proxy', '/metrics']) {
      const id = { 'x-request-id': `eq-${path}` };
      const fast = await ask(gateways.fast.base, 'GET', path, id);
      const slow = await ask(gateways.fastify.base, 'GET', path, id);
      expect(fast.status, path).toBe(404);
      expect(fast, path).toEqual(slow);
    }
  });
});
