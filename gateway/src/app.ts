import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import proxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { readSessionToken, type ServiceName } from '@parley/contracts';
import {
  ASSERTION_HEADER,
  buildServiceApp,
  createLogger,
  createServiceMetrics,
  currentTraceparent,
  HttpError,
  INTERNAL_TOKEN_HEADER,
  type ServiceInstance,
  signAssertion,
} from '@parley/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import type { Logger } from 'pino';
import { type AdminSession, type AuthResolver, noSessions } from './auth.ts';
import { type GatewayConfig, trustProxyOf, upstreamsOf } from './config.ts';
import { bodyCacheKey, EdgeCache, type EdgeEntry, surrogateMaxAge } from './edge-cache.ts';
import { identityResolver } from './identity-resolver.ts';
import { blogPostLookup, postDocument, postSlugOf } from './post-documents.ts';
import { WindowLimiter } from './rate-limit.ts';
import { methodsOf, ROUTES, type RouteEntry } from './routes.ts';
import { applySecurityHeaders, contentSecurityPolicy } from './security.ts';
import { publicOrigin, WebDocuments } from './web-documents.ts';

export interface GatewayOptions {
  logger?: Logger;
  /** Session resolution (identity); default: nobody is signed in. */
  auth?: AuthResolver;
}

/** Internal URL prefixes the route table rewrites to (never reachable from outside). */
const UPSTREAM_PREFIX = '/__up/';
const ABSENT_PREFIX = '/__absent/';

/** What rewriteUrl matched, kept on the raw request for the hooks. */
const kEntry = Symbol('parley.routeEntry');
type TaggedRequest = IncomingMessage & { [kEntry]?: RouteEntry };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The largest body of a read-only POST the gateway reads to key it (speech text is ≤ 10,000 characters). */
const MAX_KEYED_BODY = 64 * 1024;

function isJsonOrMarked(request: FastifyRequest): boolean {
  const type = request.headers['content-type'] ?? '';
  return (
    /^application\/(?:[\w.+-]+\+)?json\b/i.test(type) || request.headers['x-requested-with'] === 'parley'
  );
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * The gateway: the route table (routes.ts) decides which service owns a path and who may
 * call it; one keep-alive proxy per upstream forwards it with the request id, trace
 * context, X-Forwarded-* and, for admins, a signed assertion; every other path serves
 * the web app.
 */
export async function buildGateway(
  config: GatewayConfig,
  opts: GatewayOptions = {},
): Promise<ServiceInstance> {
  const logger = opts.logger ?? createLogger('gateway', config.LOG_LEVEL);
  const identity =
    !opts.auth && config.IDENTITY_URL
      ? identityResolver({ identityUrl: config.IDENTITY_URL, secret: config.INTERNAL_AUTH_SECRET, logger })
      : null;
  const auth = opts.auth ?? identity ?? noSessions;
  const ownOrigins = new Set(config.PUBLIC_ORIGIN ? [config.PUBLIC_ORIGIN.replace(/\/+$/, '')] : []);
  const upstreams = upstreamsOf(config);
  const https = config.PUBLIC_ORIGIN?.startsWith('https://') ?? false;
  const csp = contentSecurityPolicy({ analytics: Boolean(config.GA_MEASUREMENT_ID) });
  const limiter = new WindowLimiter();

  const table = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true });
  for (const entry of ROUTES) {
    for (const method of methodsOf(entry)) table.on(method, entry.path, () => {}, entry);
  }

  const rewriteUrl = (req: TaggedRequest): string => {
    const url = req.url ?? '/';
    if (url.startsWith('/__')) return '/__blocked';
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const q = url.indexOf('?');
    const found = table.find(method as 'GET', q === -1 ? url : url.slice(0, q));
    const entry = found?.store as RouteEntry | undefined;
    if (!entry) return url;
    req[kEntry] = entry;
    return upstreams[entry.service]
      ? `${UPSTREAM_PREFIX}${entry.service}${url}`
      : `${ABSENT_PREFIX}${entry.service}`;
  };

  // The web app: hashed assets cached forever, index.html revalidated on every visit.
  const webDist = config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST;
  const hasWeb = existsSync(`${webDist}/index.html`);
  const documents = new WebDocuments(webDist);
  const lookupPost = upstreams.blog ? blogPostLookup(upstreams.blog, logger) : undefined;
  async function notFound(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path === '/api' || path.startsWith('/__')) {
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
    // Client-side routes (and unknown pages, which the app renders as its 404 page); the
    // public pages that need no data come prerendered, so they paint before any script runs.
    reply.header('cache-control', 'no-cache');
    const origin = publicOrigin(config.PUBLIC_ORIGIN, request.protocol, request.host);
    let { html } = await documents.forPage(path, request.url.includes('?'), origin);
    const slug = lookupPost ? postSlugOf(path) : undefined;
    if (lookupPost && slug !== undefined) {
      const page = postDocument(html, await lookupPost(slug), origin);
      html = page.html;
      reply.code(page.status);
    }
    if (config.GA_MEASUREMENT_ID) {
      // The app reads its analytics id from this tag.
      const tag = `<meta name="parley-ga-id" content="${config.GA_MEASUREMENT_ID}" />`;
      html = html.replace('</head>', `    ${tag}\n  </head>`);
    }
    return reply.type('text/html; charset=utf-8').send(html);
  }

  const metrics = createServiceMetrics('gateway');
  const app = await buildServiceApp({
    name: 'gateway',
    logger,
    metrics,
    readiness: {},
    // Uploads (blog images) pass through; the owning service enforces its own limit.
    bodyLimit: 25 * 1024 * 1024,
    trustProxy: trustProxyOf(config.TRUST_PROXY),
    rewriteUrl,
    notFoundHandler: notFound,
    routeLabel: (request) =>
      (request.raw as TaggedRequest)[kEntry]?.path ?? request.routeOptions.url ?? 'unmatched',
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    applySecurityHeaders(reply, { https, csp });
    return payload;
  });

  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { 2: 4 } },
  });

  // One signed assertion per admin identity, reused for half its 60 s lifetime: signing
  // (and the services' verification, which caches too) then costs nothing per request.
  const assertions = new Map<string, { token: string; until: number }>();
  async function assertionFor(session: AdminSession): Promise<string> {
    const key = `${session.adminId}|${session.role}|${session.email ?? ''}`;
    const hit = assertions.get(key);
    if (hit && hit.until > Date.now()) return hit.token;
    const token = await signAssertion(config.INTERNAL_AUTH_SECRET, {
      adminId: session.adminId,
      role: session.role,
      ...(session.email ? { email: session.email } : {}),
    });
    if (assertions.size >= 10_000) assertions.clear();
    assertions.set(key, { token, until: Date.now() + 30_000 });
    return token;
  }

  const edge = new EdgeCache();
  function sendEdge(request: FastifyRequest, reply: FastifyReply, cached: EdgeEntry) {
    reply.headers(cached.headers);
    reply.header('x-cache', 'HIT');
    if (cached.etag && request.headers['if-none-match'] === cached.etag) return reply.code(304).send();
    return reply.code(cached.status).send(cached.body);
  }
  const SURROGATE = Symbol('parley.surrogateMaxAge');
  const EDGE_KEY = Symbol('parley.edgeKey');
  type WithSurrogate = FastifyRequest & { [SURROGATE]?: number; [EDGE_KEY]?: string };

  /**
   * The edge key of a read-only POST: reads the (small) body the proxy would stream, keys it,
   * and hands the same bytes on to the upstream. Undefined when the body cannot be keyed.
   */
  async function keyOfBody(request: FastifyRequest, entry: RouteEntry): Promise<string | undefined> {
    const fields = entry.cacheKeyFields;
    const stream = request.body;
    if (!fields || !(stream instanceof Readable)) return undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_KEYED_BODY) throw new HttpError(413, 'The request body is too large.');
      chunks.push(chunk);
    }
    const body = Buffer.concat(chunks);
    request.body = Readable.from([body]);
    return bodyCacheKey(entry.path, fields, body);
  }

  // Access control of the route table, before anything is forwarded.
  async function enforceAccess(request: FastifyRequest, reply: FastifyReply) {
    const entry = (request.raw as TaggedRequest)[kEntry];
    if (!entry) return reply.code(404).send({ error: 'Not Found', message: 'Not found' });
    if (entry.access === 'public' && (request.method === 'GET' || request.method === 'HEAD')) {
      const cached = edge.get(request.url);
      if (cached) return sendEdge(request, reply, cached);
    }
    // Never trust identity headers from outside.
    delete request.headers[ASSERTION_HEADER];
    delete request.headers[INTERNAL_TOKEN_HEADER];
    if (entry.rateLimit) {
      const budget = { ...entry.rateLimit, max: entry.rateLimit.max * (config.RATE_LIMIT_MULTIPLIER ?? 1) };
      const wait = limiter.hit(`${entry.path}|${request.ip}`, budget);
      if (wait) {
        return reply
          .code(429)
          .header('retry-after', String(wait))
          .send({
            error: 'Too Many Requests',
            message: `Too many requests. Please try again in ${wait} seconds.`,
          });
      }
    }
    const unsafe = !SAFE_METHODS.has(request.method);
    if (unsafe && entry.access !== 'signed-webhook') {
      // CSRF: a state change must come from our own pages. Browsers send Origin on every
      // cross-site POST; a foreign one is refused.
      const origin = request.headers.origin;
      if (origin && origin !== `${request.protocol}://${request.host}` && !ownOrigins.has(origin)) {
        return reply.code(403).send({ error: 'Forbidden', message: 'Cross-site request refused.' });
      }
    }
    if (entry.cacheKeyFields && entry.access === 'public' && request.method === 'POST') {
      const key = await keyOfBody(request, entry);
      if (key) {
        (request as WithSurrogate)[EDGE_KEY] = key;
        const cached = edge.get(key);
        if (cached) return sendEdge(request, reply, cached);
      }
    }
    if (entry.access !== 'admin' && entry.access !== 'super_admin') return;
    if (unsafe && !isJsonOrMarked(request)) {
      // Cookie-authenticated changes need a JSON body or our header: neither can be sent
      // cross-site without a CORS preflight, which the gateway never grants.
      return reply.code(415).send({
        error: 'Unsupported Media Type',
        message: 'Send a JSON body or the X-Requested-With: parley header.',
      });
    }
    const session = await auth.resolve(request);
    if (!session)
      return reply.code(401).send({ error: 'Unauthorized', message: 'Please sign in to continue.' });
    if (entry.access === 'super_admin' && session.role !== 'super_admin') {
      return reply
        .code(403)
        .send({ error: 'Forbidden', message: 'This action requires the super_admin role' });
    }
    if (session.mustChangePassword && !entry.allowPendingPasswordChange) {
      return reply
        .code(403)
        .send({ error: 'Forbidden', message: 'Please change your password to continue.' });
    }
    request.headers[ASSERTION_HEADER] = await assertionFor(session);
  }

  // Signing out or changing the password changes what the session resolves to: drop this
  // replica's cached answer once identity has answered (other replicas follow within the TTL).
  // A write to a service drops this replica's cached public answers of that service.
  app.addHook('onResponse', async (request) => {
    const entry = (request.raw as TaggedRequest)[kEntry];
    if (entry && !SAFE_METHODS.has(request.method) && !entry.cacheKeyFields && upstreams[entry.service])
      edge.purge(entry.service);
  });
  if (identity) {
    app.addHook('onResponse', async (request) => {
      const path = (request.raw as TaggedRequest)[kEntry]?.path;
      if (path !== '/api/admin/logout' && path !== '/api/admin/change-password') return;
      const token = readSessionToken(request.headers.cookie);
      if (token) identity.forget(token);
    });
  }

  const connections = config.UPSTREAM_CONNECTIONS ?? 128;
  for (const [service, base] of Object.entries(upstreams) as Array<[ServiceName, string]>) {
    await app.register(proxy, {
      upstream: base,
      prefix: `${UPSTREAM_PREFIX}${service}`,
      rewritePrefix: '',
      preHandler: enforceAccess,
      // One keep-alive pool per upstream (undici).
      undici: {
        connections,
        pipelining: 1,
        keepAliveTimeout: 60_000,
        headersTimeout: 60_000,
        bodyTimeout: 120_000,
      },
      // reply-from would log every proxied request at info level.
      disableRequestLogging: true,
      replyOptions: {
        rewriteHeaders: (headers, request) => {
          const ttl = surrogateMaxAge(headers['surrogate-control']);
          if (headers['surrogate-control'] === undefined) return headers;
          const { 'surrogate-control': _, ...rest } = headers;
          if (request && ttl > 0) (request as WithSurrogate)[SURROGATE] = ttl;
          return rest;
        },
        onResponse: (request, reply, res) => {
          const ttl = (request as WithSurrogate)[SURROGATE] ?? 0;
          const entry = (request.raw as TaggedRequest)[kEntry];
          const key =
            (request as WithSurrogate)[EDGE_KEY] ??
            (request.method === 'GET' && entry?.access === 'public' ? request.url : undefined);
          if (!ttl || !key || res.statusCode !== 200 || reply.hasHeader('set-cookie')) {
            return void reply.send(res.stream);
          }
          // Cacheable: read the (small) body once, keep it, send it.
          const chunks: Buffer[] = [];
          res.stream.on('data', (c: Buffer) => chunks.push(c));
          res.stream.on('error', (err: Error) => void reply.send(err));
          res.stream.on('end', () => {
            const body = Buffer.concat(chunks);
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(reply.getHeaders())) {
              if (v !== undefined && k !== 'content-length' && k !== 'x-request-id' && k !== 'connection')
                headers[k] = String(v);
            }
            edge.set(key, { service, status: 200, headers, body, etag: headers.etag }, ttl);
            void reply.send(body);
          });
        },
        rewriteRequestHeaders: (request, headers) => {
          const out: Record<string, string | string[] | undefined> = { ...headers };
          out['x-request-id'] = request.id;
          // The client IP as the gateway judged it (TRUST_PROXY): services trust this hop only.
          out['x-forwarded-for'] = request.ip;
          out['x-forwarded-proto'] = request.protocol;
          out['x-forwarded-host'] = request.host;
          const span = request.otelSpan;
          const tp = span ? currentTraceparent(trace.setSpan(ROOT_CONTEXT, span)) : undefined;
          if (tp) out.traceparent = tp;
          return out as typeof headers;
        },
        onError: (reply, { error }) => {
          logger.warn({ err: error, service }, 'upstream unavailable');
          void reply.code(502).send({
            error: 'Bad Gateway',
            message: `The ${service} service is not responding. Please try again shortly.`,
          });
        },
      },
    });
  }

  // Access is enforced first, so the answer for a missing service never leaks to strangers.
  app.all(`${ABSENT_PREFIX}:service`, { preHandler: enforceAccess }, async (request, reply) => {
    const { service } = request.params as { service: string };
    return reply.code(503).send({
      error: 'Service Unavailable',
      message: `The ${service} service is not available in this deployment.`,
    });
  });

  // Crawlers: the public site yes, the back office and the API no; the sitemap (blog service)
  // needs an absolute URL, from PUBLIC_ORIGIN or else the address the crawler asked for.
  app.get('/robots.txt', async (request, reply) => {
    const origin = publicOrigin(config.PUBLIC_ORIGIN, request.protocol, request.host);
    reply.header('cache-control', 'public, max-age=3600');
    return reply.type('text/plain; charset=utf-8').send(robotsTxt(origin));
  });

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      cacheControl: false,
      preCompressed: false,
      setHeaders(reply, path) {
        reply.header(
          'cache-control',
          path.includes('/assets/')
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=0, must-revalidate',
        );
      },
    });
  } else {
    logger.warn({ webDist }, 'web bundle not found; the site answers 503 until `pnpm build` runs');
  }

  return app;
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
