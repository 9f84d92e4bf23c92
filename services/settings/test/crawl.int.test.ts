import { randomBytes } from 'node:crypto';
import type { BrandAnalysis } from '@parley/contracts';
import { createLogger, type RunningService, signAssertion, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlSite } from '../src/crawl/crawler.ts';
import { CrawlError, SafeFetcher } from '../src/crawl/safe-fetch.ts';
import { endpointKey } from '../src/domain/address-policy.ts';
import { settingsService } from '../src/service.ts';
import { startTestDns, type TestDns } from './support/dns-server.ts';
import { type FixtureSite, startFixtureSite } from './support/fixture-site.ts';

/**
 * The brand crawl end to end and every SSRF case: a fixture website served on 127.0.0.1 (let
 * through only by the test-only allow-list), a real DNS server for names that resolve to
 * private addresses and for rebinding, redirects to blocked addresses, oversized and slow answers.
 */

const secret = randomBytes(32).toString('hex');
let site: FixtureSite;
let dns: TestDns;
let svc: RunningService;

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${svc.url}${path}`, {
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

/** Saves the website and asks for a crawl of it. */
async function crawlThrough(url: string) {
  const saved = await call('POST', '/api/admin/settings', { key: 'website_url', value: url });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return call('POST', '/api/admin/brand/crawl');
}

/** A fetcher as the service makes one, resolving names with the test DNS server. */
const fetcher = () =>
  new SafeFetcher({ resolve: dns.resolver, allowPrivate: new Set([endpointKey('127.0.0.1', site.port)]) });

async function refusal(url: string, deadlineMs = 10_000): Promise<CrawlError> {
  const f = fetcher();
  try {
    await crawlSite(url, f, { deadlineMs });
  } catch (err) {
    if (err instanceof CrawlError) return err;
    throw err;
  } finally {
    await f.close();
  }
  throw new Error(`${url} was crawled`);
}

beforeAll(async () => {
  const natsUrl = process.env.NATS_URL;
  if (!natsUrl) throw new Error('NATS_URL is required for integration tests');
  site = await startFixtureSite();
  dns = await startTestDns();
  svc = await startService(settingsService, {
    env: {
      DATABASE_URL: await createTestDatabase('settings_crawl'),
      NATS_URL: natsUrl,
      INTERNAL_AUTH_SECRET: secret,
      SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SETTINGS_CRAWL_ALLOW_PRIVATE: `127.0.0.1:${site.port}`,
      SETTINGS_CRAWL_RATE_LIMIT: '1000',
      LOG_LEVEL: 'silent',
    },
    logger: createLogger('settings-crawl-test', 'silent'),
    listen: { host: '127.0.0.1', port: 0 },
  });
});

afterAll(async () => {
  await svc?.stop();
  await site?.close();
  await dns?.close();
});

describe('POST /api/admin/brand/crawl', () => {
  it('asks for a saved website first', async () => {
    const r = await call('POST', '/api/admin/brand/crawl');
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Brand analysis failed: Save the website URL in the Brand tab first');
  });

  it('crawls the home page, its stylesheets (and @imports) and a few linked pages, and keeps the analysis', async () => {
    const r = await crawlThrough(`${site.origin}/`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const analysis = r.body.analysis as BrandAnalysis;
    expect(analysis).toMatchObject({
      provider: 'local',
      url: `${site.origin}/`,
      colors: { primary: '#0b6e4f', secondary: '#08a045', accent: '#f4a259' },
      typography: { primaryFont: 'Nunito', secondaryFont: 'Merriweather' },
      messaging: { tagline: 'Healthy smiles for the whole family' },
    });
    expect(analysis.sources).toEqual(
      expect.arrayContaining([
        `${site.origin}/`,
        `${site.origin}/about`,
        `${site.origin}/services`,
        `${site.origin}/contact`,
        `${site.origin}/styles/main.css`,
        `${site.origin}/styles/extra.css`,
      ]),
    );
    // Files and other sites are not read.
    expect(site.hits.get('/brochure.pdf')).toBeUndefined();
    expect(analysis.sources.some((s) => s.includes('other.example'))).toBe(false);

    const saved = await call('GET', '/api/admin/brand/settings');
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ success: true, settings: { websiteUrl: `${site.origin}/` } });
    expect(saved.body.settings.analysis).toEqual(analysis);
  });

  it.each([
    ['loopback not on the allow-list', 'http://127.0.0.1:1/', /127\.0\.0\.1 is a loopback address/],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', /link-local/],
    ['private', 'http://10.0.0.1/', /private address/],
    ['IPv6 loopback', 'http://[::1]:8080/', /loopback/],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]:8080/', /IPv4-mapped/],
    ['unique-local IPv6', 'http://[fd00::1]/', /unique-local/],
    ['unspecified', 'http://0.0.0.0/', /unspecified/],
    ['decimal loopback', 'http://2130706433:8080/', /loopback/],
    ['a redirect to metadata', '/to?location=http://169.254.169.254/', /169\.254\.169\.254/],
  ])('refuses %s with 400 and a clear message', async (_name, url, message) => {
    // Paths are the fixture's own (it redirects from there).
    const r = await crawlThrough(url.startsWith('/') ? `${site.origin}${url}` : url);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.error).toBe('Bad Request');
    expect(r.body.message).toMatch(/^Brand analysis failed: /);
    expect(r.body.message).toMatch(message);
  });

  it.each([
    ['more than 5 redirects', '/redirect/6', /redirected more than 5 times/],
    ['a body over 2 MB (declared)', '/big', /larger than 2 MB/],
    ['a body over 2 MB (streamed)', '/big-stream', /larger than 2 MB/],
    ['an image instead of a page', '/image', /image\/png, not an HTML page/],
    ['no content type', '/no-type', /of no stated type/],
    ['a 404', '/missing', /answered HTTP 404/],
  ])('fails %s with 422', async (_name, path, message) => {
    const r = await crawlThrough(`${site.origin}${path}`);
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.message).toMatch(message);
  });

  it('follows up to 5 redirects', async () => {
    const r = await crawlThrough(`${site.origin}/redirect/5`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.analysis.sources[0]).toBe(`${site.origin}/`);
  });
});

describe('the SSRF guard with real DNS', () => {
  it('refuses names that resolve to private, metadata, loopback or mapped addresses', async () => {
    dns.set('private.test', ['10.0.0.5']);
    dns.set('metadata.test', ['169.254.169.254']);
    dns.set('v6loop.test', ['::1']);
    dns.set('mapped.test', ['::ffff:7f00:1']);
    dns.set('cgnat.test', ['100.64.1.1']);
    for (const [name, why] of [
      ['private.test', /10\.0\.0\.5 is a private address/],
      ['metadata.test', /169\.254\.169\.254 is a link-local address/],
      ['v6loop.test', /::1 is a loopback address/],
      ['mapped.test', /IPv4-mapped/],
      ['cgnat.test', /carrier-grade NAT/],
    ] as const) {
      const err = await refusal(`http://${name}/`);
      expect(err.reason, name).toBe('refused');
      expect(err.message, name).toMatch(why);
    }
  });

  it('refuses a name when any of its addresses is private, even if another is allowed', async () => {
    dns.set('mixed.test', ['127.0.0.1', '10.1.2.3']);
    const before = site.hits.get('/') ?? 0;
    const err = await refusal(`http://mixed.test:${site.port}/`);
    expect(err.message).toMatch(/10\.1\.2\.3 is a private address/);
    // Refused before any connection: the fixture saw nothing.
    expect(site.hits.get('/') ?? 0).toBe(before);
  });

  it('resolves once and pins the connection: a rebinding answer is never used', async () => {
    const before = site.hits.get('/about') ?? 0;
    // First answer: the (allow-listed) fixture. Every later answer: cloud metadata.
    dns.set('rebind.test', (n) => (n === 1 ? ['127.0.0.1'] : ['169.254.169.254']));
    const f = fetcher();
    try {
      const crawled = await crawlSite(`http://rebind.test:${site.port}/`, f);
      // Home, three linked pages and both stylesheets came from the fixture...
      expect(crawled.pages.map((p) => new URL(p.url).pathname)).toEqual([
        '/',
        '/about',
        '/services',
        '/contact',
      ]);
      expect(crawled.stylesheets.map((s) => new URL(s.url).pathname)).toEqual([
        '/styles/main.css',
        '/styles/extra.css',
      ]);
      expect(site.hits.get('/about')).toBe(before + 1);
      // ...over one resolution, however many connections were made.
      expect(dns.queries('rebind.test')).toBe(1);
    } finally {
      await f.close();
    }
    // A new crawl resolves again, gets the metadata address, and is refused.
    const err = await refusal(`http://rebind.test:${site.port}/`);
    expect(err.message).toMatch(/169\.254\.169\.254/);
    expect(dns.queries('rebind.test')).toBe(2);
  });

  it('re-checks every redirect target, names included', async () => {
    dns.set('inside.test', ['192.168.0.10']);
    const err = await refusal(`${site.origin}/to?location=${encodeURIComponent('http://inside.test/admin')}`);
    expect(err.reason).toBe('refused');
    expect(err.message).toMatch(/inside\.test is not a public address \(192\.168\.0\.10/);
  });

  it('crawls only http and https, without credentials, on web ports', async () => {
    dns.set('public.test', ['93.184.215.14']);
    for (const [url, why] of [
      ['ftp://public.test/', /only http and https/],
      ['file:///etc/passwd', /only http and https/],
      ['gopher://public.test:70/', /only http and https/],
      ['http://user:pw@public.test/', /credentials/],
      ['http://public.test:6379/', /port 6379 is not crawled/],
    ] as const) {
      const err = await refusal(url);
      expect(err.reason, url).toBe('refused');
      expect(err.message, url).toMatch(why);
    }
  });

  it('gives up on a site that does not answer, or never finishes its body, at the deadline', async () => {
    for (const path of ['/slow', '/slow-body']) {
      const err = await refusal(`${site.origin}${path}`, 600);
      expect(err.reason, path).toBe('failed');
      expect(err.message, path).toMatch(/did not answer within 0.6 s/);
    }
  });
});
