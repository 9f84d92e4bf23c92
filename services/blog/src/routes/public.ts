import { BlogListQuery, type BlogPostSummary, BlogSlugParams, readingMinutes } from '@parley/contracts';
import { notFound, type ServiceInstance } from '@parley/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderRss, renderSitemap } from '../domain/feeds.ts';
import { CONTENT_TYPES, parseImageFile } from '../domain/images.ts';
import type { CachedBody } from '../repo/public-cache.ts';
import { svgToPng } from '../social-image.ts';
import type { BlogRouteContext } from './context.ts';

const FEED_SIZE = 50;
const SITEMAP_SIZE = 5000;

/** Sends a cached answer with its ETag; a matching If-None-Match gets 304. */
function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedBody, type: string) {
  reply.header('etag', entry.etag);
  // Revalidate every time (cheap: 304), so a publish or unpublish shows at once.
  reply.header('cache-control', 'public, no-cache');
  // The gateway may answer from memory for 2 s (it drops its copies on any blog write).
  reply.header('surrogate-control', 'max-age=2');
  for (const [k, v] of Object.entries(entry.headers)) reply.header(k, v);
  if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
  return reply.type(type).send(entry.body);
}

/** Public reading: post list, one post, stored images, RSS and the sitemap. */
export async function publicRoutes(app: ServiceInstance, ctx: BlogRouteContext) {
  const { repo, cache, settings, now } = ctx;

  app.get('/api/blog', { schema: { querystring: BlogListQuery } }, async (request, reply) => {
    const { limit = 20, offset = 0, tag } = request.query;
    const entry = await cache.get(`list:${limit}:${offset}:${tag ?? ''}`, async () => {
      const { items, total } = await repo.listPublished(now(), limit, offset, tag);
      const summaries: BlogPostSummary[] = items.map(
        ({ content, status, metaTitle, metaDescription, ...rest }) => ({
          ...rest,
          readingMinutes: readingMinutes(content),
        }),
      );
      return { body: JSON.stringify(summaries), headers: { 'x-total-count': String(total) } };
    });
    return sendCached(request, reply, entry, 'application/json; charset=utf-8');
  });

  app.get('/api/blog/:slug', { schema: { params: BlogSlugParams } }, async (request, reply) => {
    const { slug } = request.params;
    const entry = await cache.get(`post:${slug}`, async () => {
      const post = await repo.findPublishedBySlug(slug, now());
      return { body: post ? JSON.stringify(post) : '' };
    });
    if (!entry.body) throw notFound('Blog post not found');
    return sendCached(request, reply, entry, 'application/json; charset=utf-8');
  });

  app.get('/api/blog/images/:file', async (request, reply) => {
    const parsed = parseImageFile((request.params as { file: string }).file);
    const image = parsed ? await repo.findImage(parsed.id) : null;
    if (!image || !parsed) throw notFound('Image not found');
    // `<id>.png` of a stored SVG is its PNG rendering (for og:image, which crawlers need as PNG).
    const rendered = parsed.type === 'png' && image.contentType === CONTENT_TYPES.svg;
    if (!rendered && CONTENT_TYPES[parsed.type] !== image.contentType) throw notFound('Image not found');
    // Content-addressed: the bytes behind a name never change.
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    reply.header('x-content-type-options', 'nosniff');
    // Opened on its own, an SVG is a document: forbid script and everything else in it.
    reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    const etag = `"${parsed.id}.${parsed.type}"`;
    reply.header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    if (rendered) return reply.type(CONTENT_TYPES.png).send(await svgToPng(parsed.id, image.bytes));
    return reply.type(image.contentType).send(image.bytes);
  });

  app.get('/rss.xml', async (request, reply) => {
    const entry = await cache.get('rss', async () => {
      const { items } = await repo.listPublished(now(), FEED_SIZE, 0);
      return { body: renderRss(items, { baseUrl: settings.publicBaseUrl, name: settings.siteName }) };
    });
    return sendCached(request, reply, entry, 'application/rss+xml; charset=utf-8');
  });

  app.get('/sitemap.xml', async (request, reply) => {
    const entry = await cache.get('sitemap', async () => {
      const { items } = await repo.listPublished(now(), SITEMAP_SIZE, 0);
      return { body: renderSitemap(items, settings.publicBaseUrl) };
    });
    return sendCached(request, reply, entry, 'application/xml; charset=utf-8');
  });
}
