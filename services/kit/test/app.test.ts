import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServiceApp, type ServiceInstance } from '../src/app.ts';
import { requireAdmin, requireRole, signAssertion } from '../src/auth.ts';
import { conflict } from '../src/errors.ts';
import { createLogger } from '../src/logger.ts';
import { createServiceMetrics } from '../src/metrics.ts';

const secret = randomBytes(32).toString('hex');
let app: ServiceInstance;
let dbUp = true;

beforeAll(async () => {
  app = await buildServiceApp({
    name: 'test',
    logger: createLogger('test', 'silent'),
    metrics: createServiceMetrics('test'),
    readiness: { database: async () => dbUp, bus: async () => true },
  });
  app.post(
    '/echo',
    { schema: { body: Type.Object({ n: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }) } },
    async (req) => req.body,
  );
  app.post(
    '/text/:slug',
    {
      schema: {
        params: Type.Object({ slug: Type.String() }),
        querystring: Type.Object({ page: Type.Optional(Type.Integer()), q: Type.Optional(Type.String()) }),
        body: Type.Object({ title: Type.String(), phone: Type.Optional(Type.String()) }),
      },
    },
    async (req) => ({ ...req.body, page: req.query.page ?? null }),
  );
  app.post('/upload', async () => {
    // What @fastify/busboy throws for a multipart body without a boundary.
    throw new Error('Multipart: Boundary not found');
  });
  app.get('/boom', async () => {
    throw new Error('secret database detail');
  });
  app.get('/taken', async () => {
    throw conflict('Already taken');
  });
  app.get('/admin', { onRequest: requireAdmin(secret) }, async (req) => req.admin);
  app.get('/super', { onRequest: requireRole(secret, 'super_admin') }, async () => ({ ok: true }));
  app.get('/limited', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => ({
    ok: true,
  }));
  await app.ready();
});
afterAll(() => app.close());

describe('service app', () => {
  it('answers bad input with 400 { error, message, details }', async () => {
    const r = await app.inject({ method: 'POST', url: '/echo', payload: { n: 0 } });
    expect(r.statusCode).toBe(400);
    const body = r.json();
    expect(body.error).toBe('Bad Request');
    expect(body.message).toMatch(/n/);
    expect(Array.isArray(body.details)).toBe(true);
    const extra = await app.inject({ method: 'POST', url: '/echo', payload: { n: 1, evil: true } });
    expect(extra.statusCode).toBe(400);
  });

  it('validates JSON bodies strictly and coerces only query strings', async () => {
    const asNumber = await app.inject({ method: 'POST', url: '/text/a', payload: { title: 123 } });
    expect(asNumber.statusCode).toBe(400);
    const asArray = await app.inject({ method: 'POST', url: '/text/a', payload: { title: ['x'] } });
    expect(asArray.statusCode).toBe(400);
    // 17 digits cannot survive as a number; refused rather than rounded into a string.
    const long = await app.inject({
      method: 'POST',
      url: '/text/a',
      headers: { 'content-type': 'application/json' },
      payload: '{"title":"t","phone":12345678901234567}',
    });
    expect(long.statusCode).toBe(400);
    const ok = await app.inject({ method: 'POST', url: '/text/a?page=2', payload: { title: 'fine' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ title: 'fine', page: 2 });
  });

  it('refuses NUL and lone surrogates in the body, the query and the path with 400', async () => {
    const cases = [
      { url: '/text/a', payload: { title: 'nul \u0000 here' } },
      { url: '/text/a', payload: { title: 'lone \ud800 surrogate' } },
      { url: '/text/a?q=%00', payload: { title: 'fine' } },
      { url: '/text/%00', payload: { title: 'fine' } },
      { url: '/text/a', payload: { title: 'fine', 'k\u0000': 1 } },
    ];
    for (const c of cases) {
      const r = await app.inject({ method: 'POST', url: c.url, payload: c.payload });
      expect(r.statusCode, JSON.stringify(c)).toBe(400);
      expect(r.json().message).toMatch(/NUL character or invalid Unicode/);
    }
  });

  it('answers a multipart body the parser cannot read with 400, not 500', async () => {
    const res = await app.inject({ method: 'POST', url: '/upload' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Bad Request', message: expect.stringContaining('Boundary') });
  });

  it('hides 5xx details', async () => {
    const r = await app.inject({ method: 'GET', url: '/boom' });
    expect(r.statusCode).toBe(500);
    expect(r.body).not.toContain('secret database detail');
    expect(r.json().error).toBe('Internal Server Error');
  });

  it('passes 4xx messages through, and 404s unknown routes as JSON', async () => {
    expect((await app.inject({ method: 'GET', url: '/taken' })).json()).toEqual({
      error: 'Conflict',
      message: 'Already taken',
    });
    const nf = await app.inject({ method: 'GET', url: '/nope' });
    expect(nf.statusCode).toBe(404);
    expect(nf.json().error).toBe('Not Found');
  });

  it('returns and propagates request ids', async () => {
    const r = await app.inject({
      method: 'GET',
      url: '/health/live',
      headers: { 'x-request-id': 'req-123' },
    });
    expect(r.headers['x-request-id']).toBe('req-123');
    const generated = await app.inject({ method: 'GET', url: '/health/live' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports readiness from its checks', async () => {
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
    dbUp = false;
    const down = await app.inject({ method: 'GET', url: '/health/ready' });
    dbUp = true;
    expect(down.statusCode).toBe(503);
    expect(down.json().checks).toEqual({ database: false, bus: true });
  });

  it('exposes Prometheus metrics including HTTP histograms', async () => {
    await app.inject({ method: 'GET', url: '/taken' });
    const r = await app.inject({ method: 'GET', url: '/metrics' });
    expect(r.headers['content-type']).toMatch(/text\/plain/);
    expect(r.body).toMatch(
      /http_server_request_duration_seconds_bucket\{.*route="\/taken".*status_code="409"/,
    );
  });

  it('enforces assertions and roles', async () => {
    expect((await app.inject({ method: 'GET', url: '/admin' })).statusCode).toBe(401);
    const admin = await signAssertion(secret, { adminId: 'a', role: 'admin' });
    const ok = await app.inject({ method: 'GET', url: '/admin', headers: { 'x-parley-assertion': admin } });
    expect(ok.json()).toEqual({ adminId: 'a', role: 'admin' });
    expect(
      (await app.inject({ method: 'GET', url: '/super', headers: { 'x-parley-assertion': admin } }))
        .statusCode,
    ).toBe(403);
    const sup = await signAssertion(secret, { adminId: 's', role: 'super_admin' });
    expect(
      (await app.inject({ method: 'GET', url: '/super', headers: { 'x-parley-assertion': sup } })).statusCode,
    ).toBe(200);
  });

  it('rate-limits opted-in routes with 429 and Retry-After', async () => {
    const codes = [];
    let last: Awaited<ReturnType<typeof app.inject>> | undefined;
    for (let i = 0; i < 3; i++) {
      last = await app.inject({ method: 'GET', url: '/limited' });
      codes.push(last.statusCode);
    }
    expect(codes).toEqual([200, 200, 429]);
    expect(last?.headers['retry-after']).toMatch(/^\d+$/);
    expect(last?.json().error).toBe('Too Many Requests');
  });
});
