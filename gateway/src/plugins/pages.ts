import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { blogPostLookup, postDocument, postSlugOf } from '../post-documents.ts';
import { BLOCKED_URL } from '../route-table.ts';
import { WebDocuments } from '../web-documents.ts';

export interface PagesOptions {
  /** The built web app (index.html, assets/ and the prerendered pages). */
  webDist: string;
  /** Whether it is built (else every page answers 503). */
  hasWeb: boolean;
  /** The configured public origin: the only one absolute URLs are built from. */
  siteOrigin: string;
  /** The blog service's base URL, for the post pages' titles and sharing tags; unset: none. */
  blogBase: string | undefined;
  /** The developer test login screens are served (ADMIN_TEST_LOGINS). */
  testLogins: boolean;
  /** GA_MEASUREMENT_ID, handed to the app in a meta tag. */
  analyticsId: string | undefined;
  logger: Logger;
}

/** The developer test login screens, off in production (ADMIN_TEST_LOGINS). */
const TEST_LOGIN_PATHS = new Set(['/admin/simple', '/admin/test']);

/**
 * The answer to every path nothing else serves: a JSON 404 under /api (and for refused
 * internal paths), 405 for a change, else the web app's page (client-side routes and
 * unknown pages, which the app renders as its 404 page). The kit sets it as the app's only
 * not-found handler (services/kit/src/app.ts), so it is handed over at build, not registered.
 */
export function pageFallback(opts: PagesOptions) {
  const { webDist, hasWeb, siteOrigin, testLogins, analyticsId } = opts;
  const documents = new WebDocuments(webDist);
  const lookupPost = opts.blogBase ? blogPostLookup(opts.blogBase, opts.logger) : undefined;
  return async function notFound(request: FastifyRequest, reply: FastifyReply) {
    const path = request.originalUrl.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path === '/api' || request.url === BLOCKED_URL) {
      return reply
        .code(404)
        .send({ error: 'Not Found', message: `Route ${request.method} ${path} not found` });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply
        .code(405)
        .header('allow', 'GET, HEAD')
        .send({ error: 'Method Not Allowed', message: 'Method not allowed' });
    }
    if (!hasWeb) {
      return reply.code(503).type('text/plain').send('The web app is not built. Run `pnpm build`.');
    }
    // The public pages that need no data come prerendered, so they paint before any script runs.
    reply.header('cache-control', 'no-cache');
    let { html } = await documents.forPage(path, request.originalUrl.includes('?'), siteOrigin);
    const slug = lookupPost ? postSlugOf(path) : undefined;
    if (lookupPost && slug !== undefined) {
      const page = postDocument(html, await lookupPost(slug), siteOrigin);
      html = page.html;
      reply.code(page.status);
    }
    if (!testLogins && TEST_LOGIN_PATHS.has(path)) {
      // The app shows its 404 page where it finds this tag (admin/pages/test-login.tsx).
      html = html.replace('</head>', '    <meta name="parley-test-logins" content="off" />\n  </head>');
      reply.code(404);
    }
    if (analyticsId) {
      // The app reads its analytics id from this tag.
      const tag = `<meta name="parley-ga-id" content="${analyticsId}" />`;
      html = html.replace('</head>', `    ${tag}\n  </head>`);
    }
    return reply.type('text/html; charset=utf-8').send(html);
  };
}

/** robots.txt of the site: everything public may be crawled; admin screens and the API may not. */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /blog-admin',
    'Disallow: /bookings-admin',
    'Disallow: /api/',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

const plugin: FastifyPluginAsync<{ siteOrigin: string }> = async (app, { siteOrigin }) => {
  // Crawlers: the public site yes, the back office and the API no; the sitemap (blog service)
  // needs an absolute URL, from the configured origin (never the request's Host).
  app.get('/robots.txt', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return reply.type('text/plain; charset=utf-8').send(robotsTxt(siteOrigin));
  });
};

/** The site's own routes beside the page fallback: robots.txt. */
export default fp(plugin, { name: 'parley-pages' });
