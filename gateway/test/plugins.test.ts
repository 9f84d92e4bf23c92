import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@parley/kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pages, { pageFallback, robotsTxt } from '../src/plugins/pages.ts';
import securityHeaders from '../src/plugins/security-headers.ts';

/** Plugins of the gateway (src/plugins/) on a bare Fastify app, without the rest of it. */

describe('security headers plugin', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(securityHeaders, { https: true, analytics: false });
    app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<p>hi</p>'));
    app.get('/json', async () => ({ ok: true }));
    app.get('/boom', async () => {
      throw new Error('boom');
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('sets them on every answer, errors and 404s included; the CSP on HTML only', async () => {
    for (const [url, status] of [
      ['/page', 200],
      ['/json', 200],
      ['/boom', 500],
      ['/nowhere', 404],
    ] as const) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['strict-transport-security'], url).toContain('max-age=');
      expect(res.headers['content-security-policy'] !== undefined, url).toBe(url === '/page');
    }
  });

  it('writes the same headers for an answer made outside Fastify', async () => {
    const viaFastify = await app.inject({ method: 'GET', url: '/page' });
    const headers: Record<string, string | string[] | number> = {
      'content-type': 'text/html; charset=utf-8',
    };
    app.securityHeaders(headers);
    for (const [name, value] of Object.entries(headers)) expect(viaFastify.headers[name], name).toBe(value);
  });

  it('sends no HSTS over http, and lets gtag.js in when analytics is on', async () => {
    const plain = Fastify();
    await plain.register(securityHeaders, { https: false, analytics: true });
    plain.get('/', async (_request, reply) => reply.type('text/html').send('<p>hi</p>'));
    const res = await plain.inject({ method: 'GET', url: '/' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain('https://www.googletagmanager.com');
    await plain.close();
  });
});

describe('pages plugin', () => {
  const origin = 'https://www.parley.test';
  let webDist: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'parley-pages-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><html><head><title>P</title></head></html>');
    app = Fastify();
    app.setNotFoundHandler(
      pageFallback({
        webDist,
        hasWeb: true,
        siteOrigin: origin,
        blogBase: undefined,
        testLogins: false,
        analyticsId: 'G-TEST1234',
        logger: createLogger('gateway-test', 'silent'),
      }),
    );
    await app.register(pages, { siteOrigin: origin });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('serves robots.txt from the configured origin, never the Host header', async () => {
    const res = await app.inject({ method: 'GET', url: '/robots.txt', headers: { host: 'evil.test' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.body).toBe(robotsTxt(origin));
    expect(res.body).toContain(`Sitemap: ${origin}/sitemap.xml`);
    expect(res.body).toContain('Disallow: /api/');
  });

  it('answers unknown API paths with JSON 404, changes with 405, pages with the app', async () => {
    const api = await app.inject({ method: 'GET', url: '/api/nothing?x=1' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'Not Found', message: 'Route GET /api/nothing not found' });
    const post = await app.inject({ method: 'POST', url: '/about' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const page = await app.inject({ method: 'GET', url: '/about' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<meta name="parley-ga-id" content="G-TEST1234" />');
  });

  it('answers the test login screens 404 when they are off', async () => {
    const res = await app.inject({ method: 'GET', url: '/admin/test' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<meta name="parley-test-logins" content="off" />');
  });

  it('answers 503 while the web app is not built', async () => {
    const bare = Fastify();
    bare.setNotFoundHandler(
      pageFallback({
        webDist: '/nonexistent',
        hasWeb: false,
        siteOrigin: origin,
        blogBase: undefined,
        testLogins: true,
        analyticsId: undefined,
        logger: createLogger('gateway-test', 'silent'),
      }),
    );
    const res = await bare.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('pnpm build');
    await bare.close();
  });
});
