import { randomBytes } from 'node:crypto';
import type { EventEnvelope } from '@parley/contracts';
import {
  createBus,
  createLogger,
  type EventBus,
  plainConsumer,
  type RunningService,
  signAssertion,
  startService,
} from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogService } from '../src/service.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers
type Json = any;
const secret = randomBytes(32).toString('hex');
const logger = createLogger('blog-test', 'silent');
/** Two replicas on one database: caches must agree after every write. */
let a: RunningService;
let b: RunningService;
let observer: EventBus;
const events: EventEnvelope[] = [];
let admin: Record<string, string>;

async function call(
  svc: RunningService,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: Json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, body: json };
}
const until = async (cond: () => Promise<boolean> | boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};
const upload = (bytes: Uint8Array, filename: string, type = 'image/png') => {
  const form = new FormData();
  form.append('image', new Blob([bytes], { type }), filename);
  return fetch(`${a.url}/api/admin/upload-image`, { method: 'POST', headers: admin, body: form });
};
// A real 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  const natsUrl = process.env.NATS_URL;
  if (!natsUrl) throw new Error('NATS_URL is required for integration tests');
  const env = {
    DATABASE_URL: await createTestDatabase('blog'),
    NATS_URL: natsUrl,
    INTERNAL_AUTH_SECRET: secret,
    BLOG_IMAGE_MAX_BYTES: String(64 * 1024),
    PUBLIC_ORIGIN: 'https://parley.example',
    LOG_LEVEL: 'silent',
  };
  a = await startService(blogService, { env, logger, listen: { host: '127.0.0.1', port: 0 } });
  b = await startService(blogService, { env, logger, listen: { host: '127.0.0.1', port: 0 } });
  admin = { 'x-parley-assertion': await signAssertion(secret, { adminId: 'admin-1', role: 'admin' }) };
  observer = await createBus({ natsUrl, name: 'blog-test-observer', logger });
  await observer.subscribe(
    plainConsumer({
      durable: `blog-test-${Date.now()}`,
      subjects: ['blog.post.published', 'blog.post.updated', 'blog.post.unpublished', 'blog.post.deleted'],
      handler: async (e) => void events.push(e),
    }),
  );
});
afterAll(async () => {
  await observer?.close();
  await b?.stop();
  await a?.stop();
});

const newPost = (slug: string, extra: Record<string, unknown> = {}) => ({
  title: `Post ${slug}`,
  slug,
  excerpt: 'A short excerpt',
  content: 'First paragraph.\n\nSecond paragraph\nwith a line break.',
  tags: 'Voice, AI, Healthcare',
  ...extra,
});

describe('blog service', () => {
  it('refuses authoring without a valid assertion', async () => {
    expect((await call(a, 'GET', '/api/blog/all')).status).toBe(401);
    expect((await call(a, 'POST', '/api/blog', newPost('x'))).status).toBe(401);
    expect(
      (await call(a, 'POST', '/api/blog', newPost('x'), { 'x-parley-assertion': 'forged' })).status,
    ).toBe(401);
  });

  it('validates posts with clear messages and stores nothing on bad input', async () => {
    const missing = await call(a, 'POST', '/api/blog', { title: 'T', slug: 'only-title' }, admin);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Title, slug and content are required');
    const slug = await call(a, 'POST', '/api/blog', newPost('Bad Slug!'), admin);
    expect(slug.status).toBe(400);
    expect(slug.body.message).toMatch(/Slug may contain only/);
    const all = await call(a, 'GET', '/api/blog/all', undefined, admin);
    expect(all.body).toEqual([]);
  });

  it('keeps drafts private, publishes, and every replica sees the change at once', async () => {
    // Warm both replicas' caches with the empty state first.
    expect((await call(a, 'GET', '/api/blog')).body).toEqual([]);
    expect((await call(b, 'GET', '/api/blog/first-post')).status).toBe(404);

    const created = await call(a, 'POST', '/api/blog', newPost('first-post'), admin);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      slug: 'first-post',
      status: 'draft',
      author: 'Parley Team',
      tags: ['Voice', 'AI', 'Healthcare'],
      publishedAt: null,
    });
    expect((await call(a, 'GET', '/api/blog')).body).toEqual([]);
    const hidden = await call(a, 'GET', '/api/blog/first-post');
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe('Blog post not found');

    const dup = await call(a, 'POST', '/api/blog', newPost('first-post'), admin);
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A post with this slug already exists. Please choose a different slug.');

    const published = await call(
      a,
      'PATCH',
      `/api/admin/blog/${created.body.id}`,
      { status: 'published' },
      admin,
    );
    expect(published.status).toBe(200);
    expect(published.body.publishedAt).not.toBeNull();
    // The writing replica answers fresh immediately; the other one after the NOTIFY.
    expect((await call(a, 'GET', '/api/blog')).body.map((p: Json) => p.slug)).toEqual(['first-post']);
    await until(async () => (await call(b, 'GET', '/api/blog/first-post')).status === 200);
    await until(() =>
      events.some(
        (e) => e.subject === 'blog.post.published' && (e.payload as Json).post.id === created.body.id,
      ),
    );
  });

  it('answers lists with a total, an ETag and 304 when unchanged', async () => {
    const first = await call(a, 'GET', '/api/blog?limit=10');
    expect(first.headers.get('x-total-count')).toBe('1');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${a.url}/api/blog?limit=10`, { headers: { 'if-none-match': etag as string } });
    expect(again.status).toBe(304);
    expect(first.headers.get('cache-control')).toContain('no-cache');
  });

  it('unpublishes to draft and deletes, publishing each event', async () => {
    const post = (await call(a, 'POST', '/api/blog', newPost('second-post', { status: 'published' }), admin))
      .body;
    await until(async () => (await call(b, 'GET', '/api/blog')).body.length === 2);
    const unpublished = await call(a, 'PATCH', `/api/admin/blog/${post.id}`, { status: 'draft' }, admin);
    expect(unpublished.body.status).toBe('draft');
    await until(async () => (await call(b, 'GET', '/api/blog/second-post')).status === 404);
    expect((await call(a, 'DELETE', `/api/admin/blog/${post.id}`, undefined, admin)).body).toEqual({
      success: true,
    });
    expect((await call(a, 'DELETE', `/api/admin/blog/${post.id}`, undefined, admin)).status).toBe(404);
    await until(() =>
      ['blog.post.unpublished', 'blog.post.deleted'].every((s) =>
        events.some(
          (e) => e.subject === s && ((e.payload as Json).post?.id ?? (e.payload as Json).id) === post.id,
        ),
      ),
    );
  });

  it('publishes a true history under concurrent status changes (the row is locked)', async () => {
    const created = await call(a, 'POST', '/api/blog', newPost('race-condition', { status: 'draft' }), admin);
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const statuses = Array.from({ length: 12 }, (_, i) => (i % 2 ? 'draft' : 'published'));
    const results = await Promise.all(
      statuses.map((status) => call(b, 'PATCH', `/api/admin/blog/${id}`, { status }, admin)),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    await until(
      () => events.filter((e) => (e.payload as { post?: { id: string } }).post?.id === id).length >= 7,
    );
    await new Promise((r) => setTimeout(r, 300));
    // Replayed in order, every event is the transition from the state before it.
    const mine = events.filter((e) => (e.payload as { post?: { id: string } }).post?.id === id);
    let state = 'draft';
    for (const e of mine.slice(1)) {
      const next = (e.payload as { post: { status: string } }).post.status;
      const expected =
        next === state
          ? 'blog.post.updated'
          : next === 'published'
            ? 'blog.post.published'
            : 'blog.post.unpublished';
      expect(e.subject, `${state} → ${next}`).toBe(expected);
      state = next;
    }
  });

  it('renders a valid RSS feed and sitemap of published posts', async () => {
    const rss = await call(b, 'GET', '/rss.xml');
    expect(rss.headers.get('content-type')).toContain('application/rss+xml');
    expect(XMLValidator.validate(rss.text)).toBe(true);
    expect(rss.text).toContain('<link>https://parley.example/blog/first-post</link>');
    expect(rss.text).not.toContain('second-post');
    const sitemap = await call(b, 'GET', '/sitemap.xml');
    expect(XMLValidator.validate(sitemap.text)).toBe(true);
    expect(sitemap.text).toContain('https://parley.example/blog/first-post');
  });

  it('keeps every XSS payload inert text', async () => {
    const payloads = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '"><svg onload=alert(1)>',
      "javascript:alert('x')",
      '</script><script>alert(document.cookie)</script>',
      '{{constructor.constructor("alert(1)")()}}',
    ];
    const post = await call(
      a,
      'POST',
      '/api/blog',
      newPost('xss-check', {
        status: 'published',
        title: payloads[0],
        excerpt: payloads[1],
        content: payloads.join('\n\n'),
        tags: payloads.slice(2, 4),
      }),
      admin,
    );
    expect(post.status).toBe(201);
    const read = await call(a, 'GET', '/api/blog/xss-check');
    expect(read.headers.get('content-type')).toContain('application/json');
    expect(read.body.content).toBe(payloads.join('\n\n'));
    const rss = await call(a, 'GET', '/rss.xml');
    expect(XMLValidator.validate(rss.text)).toBe(true);
    expect(rss.text).not.toMatch(/<script|<img|<svg/i);
    const withBadImage = await call(
      a,
      'POST',
      '/api/blog',
      newPost('bad-image', { featuredImage: 'javascript:alert(1)' }),
      admin,
    );
    expect(withBadImage.status).toBe(400);
  });

  it('accepts real images only, within the size limit, and serves them immutable', async () => {
    const fake = await upload(new TextEncoder().encode('this is not a png'), 'photo.png');
    expect(fake.status).toBe(415);
    const svg = await upload(
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      'x.png',
      'image/svg+xml',
    );
    expect(svg.status).toBe(415);
    const big = await upload(Buffer.concat([PNG, Buffer.alloc(70 * 1024)]), 'big.png');
    expect(big.status).toBe(413);
    const ok = await upload(PNG, 'renamed.txt', 'text/plain');
    expect(ok.status).toBe(201);
    const { imageUrl } = (await ok.json()) as { imageUrl: string };
    expect(imageUrl).toMatch(/^\/api\/blog\/images\/[a-f0-9]{64}\.png$/);
    const img = await fetch(`${b.url}${imageUrl}`);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(`${b.url}/api/blog/images/${'0'.repeat(64)}.png`)).status).toBe(404);
  });

  it('writes an article locally, with a stored featured card, and refuses an empty topic', async () => {
    const empty = await call(
      a,
      'POST',
      '/api/admin/generate-blog',
      { topic: '   ', generateImage: true },
      admin,
    );
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Please enter a topic or description for the article');
    const gen = await call(
      a,
      'POST',
      '/api/admin/generate-blog',
      { topic: 'After-hours calls for veterinary clinics', generateImage: true },
      admin,
    );
    expect(gen.status).toBe(200);
    expect(gen.body.success).toBe(true);
    expect(gen.body.provider).toBe('local');
    expect(gen.body.post.slug).toMatch(/^[a-z0-9-]+$/);
    expect(gen.body.post.content.length).toBeGreaterThan(1500);
    const card = await fetch(`${a.url}${gen.body.post.featuredImage}`);
    expect(card.headers.get('content-type')).toBe('image/svg+xml');
    expect(card.headers.get('content-security-policy')).toContain('sandbox');
    // Its PNG rendering (same name, .png) is what share previews show.
    const png = await fetch(`${a.url}${gen.body.post.featuredImage.replace(/\.svg$/, '.png')}`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const pngBytes = Buffer.from(await png.arrayBuffer());
    expect(pngBytes.subarray(1, 4).toString()).toBe('PNG');
    expect(pngBytes.readUInt32BE(16)).toBe(1200);
    // An uploaded raster image answers only under its own type.
    expect((await fetch(`${a.url}${gen.body.post.featuredImage.replace(/\.svg$/, '.jpg')}`)).status).toBe(
      404,
    );
    const noImage = await call(
      a,
      'POST',
      '/api/admin/generate-blog',
      { topic: 'Legal intake', generateImage: false },
      admin,
    );
    expect(noImage.body.post.featuredImage).toBeNull();
    // The generated post can be saved as is.
    const saved = await call(a, 'POST', '/api/blog', { ...gen.body.post, status: 'draft' }, admin);
    expect(saved.status).toBe(201);
  });

  it('generates an image from a prompt and refuses an empty one', async () => {
    expect((await call(a, 'POST', '/api/admin/generate-image', { prompt: '' }, admin)).status).toBe(400);
    const r = await call(
      a,
      'POST',
      '/api/admin/generate-image',
      { prompt: 'A calm reception desk', provider: 'auto' },
      admin,
    );
    expect(r.body).toMatchObject({ success: true, provider: 'local' });
    expect((await fetch(`${a.url}${r.body.imageUrl}`)).status).toBe(200);
  });
});
