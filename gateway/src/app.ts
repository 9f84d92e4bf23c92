import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { pipeline, type Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';
import { readSessionToken, type ServiceName } from '@parley/contracts';
import {
  ASSERTION_HEADER,
  buildServiceApp,
  createLogger,
  createServiceMetrics,
  currentTraceparent,
  INTERNAL_TOKEN_HEADER,
  type ServiceInstance,
  signAssertion,
} from '@parley/kit';
import apiReference from '@scalar/fastify-api-reference';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import type { Logger } from 'pino';
import { type AdminSession, type AuthResolver, noSessions } from './auth.ts';
import { COMPRESS_THRESHOLD, compressBody, compressible, type Encoding, negotiate } from './compression.ts';
import {
  DEFAULT_METRICS_PORT,
  type GatewayConfig,
  siteOriginOf,
  trustProxyOf,
  upstreamsOf,
} from './config.ts';
import { bodyCacheKey, EdgeCache, type EdgeEntry, MAX_EDGE_BODY, surrogateMaxAge } from './edge-cache.ts';
import { fastifyClientView, installFastPath, RawReply, tracingRegistered } from './fast-path.ts';
import { identityResolver } from './identity-resolver.ts';
import { eventLoopDelayGauge, MetricsListener } from './internal-metrics.ts';
import { LazyChildLogger } from './lazy-logger.ts';
import { mergeOpenApi, type OpenApiDocument, ServiceDocuments } from './openapi.ts';
import { blogPostLookup, postDocument, postSlugOf } from './post-documents.ts';
import {
  BodyLimit,
  BodyTooLargeError,
  DEFAULT_UPSTREAM_OPTIONS,
  forward,
  forwardedHeaders,
  isConnectionFailure,
  isTimeout,
  type ProxyCall,
  type ProxyReply,
  Upstream,
} from './proxy.ts';
import { RouteBudgets } from './rate-limit.ts';
import {
  API_DOCS_PATH,
  DEFAULT_BODY_LIMIT,
  methodsOf,
  OPENAPI_PATH,
  ROUTES,
  type RouteEntry,
} from './routes.ts';
import { apiDocsContentSecurityPolicy, contentSecurityPolicy, securityHeaders } from './security.ts';
import { WebDocuments } from './web-documents.ts';

export interface GatewayOptions {
  logger?: Logger;
  /** Session resolution (identity); default: nobody is signed in. */
  auth?: AuthResolver;
}

/**
 * Internal URLs rewriteUrl routes to (never reachable from outside: any path starting with
 * `/__` is refused before routing).
 */
const PROXY_URL = '/__proxy';
const ABSENT_URL = '/__absent';
const BLOCKED_URL = '/__blocked';

/** A route-table entry with everything the per-request path needs, computed once at boot. */
interface TableRoute {
  entry: RouteEntry;
  /** The deployed upstream, or undefined (503 naming the service). */
  upstream: Upstream | undefined;
  /** admin or super_admin: a session is resolved and answers are never stored. */
  guarded: boolean;
  bodyLimit: number;
  budget: { max: number; windowSeconds: number } | undefined;
  /** A 2xx answer to a write here drops the service's edge-cached reads. */
  purges: boolean;
  /** Signing out or changing the password: the resolver's cached session must go. */
  endsSession: boolean;
  /** A public read with nothing to wait for: GET/HEAD may take the fast path (fast-path.ts). */
  fast: boolean;
}

/** One request as the gateway's checks and proxy see it, on either path. */
interface Exchange {
  raw: IncomingMessage;
  method: string;
  /** The URL the client asked for (path and query). */
  url: string;
  headers: IncomingHttpHeaders;
  id: string;
  ip: string;
  protocol: string;
  host: string;
  span: Span | undefined;
}

function exchangeOf(request: FastifyRequest): Exchange {
  return {
    raw: request.raw,
    method: request.method,
    url: request.originalUrl,
    headers: request.headers,
    id: request.id,
    ip: request.ip,
    protocol: request.protocol,
    host: request.host,
    span: request.otelSpan,
  };
}

/** What rewriteUrl matched, kept on the raw request for the handlers. */
const kRoute = Symbol('parley.route');
type TaggedRequest = IncomingMessage & { [kRoute]?: TableRoute | null; originalUrl?: string };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The largest body of a read-only POST the gateway reads to key it (speech text is ≤ 10,000 characters). */
const MAX_KEYED_BODY = 64 * 1024;
/** Identity headers only the gateway may set. */
const IDENTITY_HEADERS: ReadonlySet<string> = new Set([ASSERTION_HEADER, INTERNAL_TOKEN_HEADER]);
/** ...and, when the gateway starts its own span, the client's trace headers it replaces. */
const IDENTITY_AND_TRACE_HEADERS: ReadonlySet<string> = new Set([
  ...IDENTITY_HEADERS,
  'traceparent',
  'tracestate',
]);
/** How long a client should wait before retrying a service that is down. */
const RETRY_AFTER_S = '5';
const PROXY_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function isJsonOrMarked(request: FastifyRequest): boolean {
  const type = request.headers['content-type'] ?? '';
  return (
    /^application\/(?:[\w.+-]+\+)?json\b/i.test(type) || request.headers['x-requested-with'] === 'parley'
  );
}

/** The encoding a client accepts for proxied answers (none when it asks for no compression). */
function encodingFor(headers: IncomingHttpHeaders): Encoding | undefined {
  if (headers['x-no-compression'] !== undefined) return undefined;
  return negotiate(headers['accept-encoding']);
}

/** A path that climbs out of its prefix (`/api/blog/images/..%2f..`) is never forwarded. */
function climbs(url: string): boolean {
  if (!url.includes('.')) return false;
  const path = url.split('?', 1)[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return decoded.split(/[/\\]/).some((s) => s === '..' || s === '.');
}

/**
 * Reads a request body of at most `max` bytes; null (the rest left unread) when it is larger.
 * Never destroys the stream: the connection must stay able to carry the refusal.
 */
function readUpTo(stream: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: Buffer | null) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', reject);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        stream.pause();
        done(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks));
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', reject);
  });
}

const gzipAsync = promisify(gzip);

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * The gateway: the route table (routes.ts) decides which service owns a path and who may
 * call it; one keep-alive pool per upstream forwards it (proxy.ts) with the request id, trace
 * context, X-Forwarded-* and, for admins, a signed assertion; every other path serves the
 * web app. Prometheus metrics are served on an internal port only (METRICS_PORT).
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
  const siteOrigin = siteOriginOf(config);
  const ownOrigins = new Set([siteOrigin]);
  const https = siteOrigin.startsWith('https://');
  const csp = contentSecurityPolicy({ analytics: Boolean(config.GA_MEASUREMENT_ID) });
  const headersForAll = securityHeaders({ https });
  const budgets = new RouteBudgets(config.INTERNAL_AUTH_SECRET);
  const multiplier = config.RATE_LIMIT_MULTIPLIER ?? 1;

  const upstreamOptions = {
    ...DEFAULT_UPSTREAM_OPTIONS,
    connections: config.UPSTREAM_CONNECTIONS ?? DEFAULT_UPSTREAM_OPTIONS.connections,
    pipelining: config.UPSTREAM_PIPELINING ?? DEFAULT_UPSTREAM_OPTIONS.pipelining,
    ...(config.UPSTREAM_TIMEOUT_SECONDS
      ? { headersTimeout: Math.round(config.UPSTREAM_TIMEOUT_SECONDS * 1000) }
      : {}),
  };
  const upstreams: Partial<Record<ServiceName, Upstream>> = {};
  for (const [service, base] of Object.entries(upstreamsOf(config)) as Array<[ServiceName, string]>) {
    upstreams[service] = new Upstream(service, base, upstreamOptions);
  }

  const table = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true });
  for (const entry of ROUTES) {
    const guarded = entry.access === 'admin' || entry.access === 'super_admin';
    const route: TableRoute = {
      entry,
      upstream: upstreams[entry.service],
      guarded,
      bodyLimit: entry.bodyLimit ?? DEFAULT_BODY_LIMIT,
      budget: entry.rateLimit && { ...entry.rateLimit, max: entry.rateLimit.max * multiplier },
      purges:
        !entry.cacheKeyFields &&
        (guarded || entry.access === 'signed-webhook' || entry.purgesEdgeCache === true),
      endsSession: entry.path === '/api/admin/logout' || entry.path === '/api/admin/change-password',
      fast:
        entry.access === 'public' &&
        upstreams[entry.service] !== undefined &&
        !entry.rateLimit &&
        !entry.cacheKeyFields,
    };
    for (const method of methodsOf(entry)) table.on(method, entry.path, () => {}, route);
  }

  /** The table route of a request, looked up once (the fast path's lookup is kept for Fastify's). */
  function routeOf(req: TaggedRequest, url: string): TableRoute | null {
    const known = req[kRoute];
    if (known !== undefined) return known;
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const q = url.indexOf('?');
    const found = table.find(method as 'GET', q === -1 ? url : url.slice(0, q));
    const route = (found?.store as TableRoute | undefined) ?? null;
    req[kRoute] = route;
    return route;
  }

  // The route table is consulted once per request, here (or on the fast path); everything
  // after reads kRoute.
  const rewriteUrl = (req: TaggedRequest): string => {
    const url = req.url ?? '/';
    if (url.startsWith('/__')) return BLOCKED_URL;
    // Metrics are internal (METRICS_PORT); the public entry never serves them.
    if (url === '/metrics' || url.startsWith('/metrics?') || url.startsWith('/metrics/')) return BLOCKED_URL;
    const route = routeOf(req, url);
    if (!route) return url;
    return route.upstream ? PROXY_URL : ABSENT_URL;
  };

  // The web app: hashed assets cached forever, index.html revalidated on every visit.
  const webDist = config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST;
  /** The developer test login screens, off in production (ADMIN_TEST_LOGINS). */
  const TEST_LOGIN_PATHS = new Set(['/admin/simple', '/admin/test']);
  const hasWeb = existsSync(`${webDist}/index.html`);
  const documents = new WebDocuments(webDist);
  const blogBase = upstreamsOf(config).blog;
  const lookupPost = blogBase ? blogPostLookup(blogBase, logger) : undefined;
  const testLoginsOn = config.ADMIN_TEST_LOGINS ?? config.NODE_ENV !== 'production';
  async function notFound(request: FastifyRequest, reply: FastifyReply) {
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
    // Client-side routes (and unknown pages, which the app renders as its 404 page); the
    // public pages that need no data come prerendered, so they paint before any script runs.
    reply.header('cache-control', 'no-cache');
    let { html } = await documents.forPage(path, request.originalUrl.includes('?'), siteOrigin);
    const slug = lookupPost ? postSlugOf(path) : undefined;
    if (lookupPost && slug !== undefined) {
      const page = postDocument(html, await lookupPost(slug), siteOrigin);
      html = page.html;
      reply.code(page.status);
    }
    if (!testLoginsOn && TEST_LOGIN_PATHS.has(path)) {
      // The app shows its 404 page where it finds this tag (admin/pages/test-login.tsx).
      html = html.replace('</head>', '    <meta name="parley-test-logins" content="off" />\n  </head>');
      reply.code(404);
    }
    if (config.GA_MEASUREMENT_ID) {
      // The app reads its analytics id from this tag.
      const tag = `<meta name="parley-ga-id" content="${config.GA_MEASUREMENT_ID}" />`;
      html = html.replace('</head>', `    ${tag}\n  </head>`);
    }
    return reply.type('text/html; charset=utf-8').send(html);
  }

  const metrics = createServiceMetrics('gateway');
  const loopDelay = eventLoopDelayGauge(metrics.registry);
  const app = await buildServiceApp({
    name: 'gateway',
    logger,
    metrics,
    readiness: {},
    // Bodies of proxied routes are never parsed here (they stream to the service, within each
    // route's own limit); this bounds the few the gateway reads itself.
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: trustProxyOf(config.TRUST_PROXY),
    rewriteUrl,
    notFoundHandler: notFound,
    // One series per table route (and one for all hashed assets, which are a route each).
    routeLabel: (request) => {
      const tableRoute = (request.raw as TaggedRequest)[kRoute];
      if (tableRoute) return tableRoute.entry.path;
      const url = request.routeOptions.url;
      if (!url) return 'unmatched';
      return url.startsWith('/assets/') ? '/assets/*' : url;
    },
  });

  // Per-request loggers are made when a request first logs (few do); see lazy-logger.ts.
  app.setChildLoggerFactory(
    (logger, bindings, opts) =>
      new LazyChildLogger(logger, bindings, opts as Record<string, unknown>) as unknown as FastifyBaseLogger,
  );

  // Every answer carries the security headers; HTML documents also the CSP. A plain
  // callback hook: an async one would cost a promise per request for no waiting.
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (const [name, value] of headersForAll) reply.header(name, value);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html'))
      reply.header('content-security-policy', csp);
    done(null, payload);
  });
  /** The same headers, for an answer of the fast path. */
  function finalHeaders(headers: Record<string, string | string[] | number>) {
    for (const [name, value] of headersForAll) headers[name] = value;
    const type = headers['content-type'];
    if (typeof type === 'string' && type.startsWith('text/html')) headers['content-security-policy'] = csp;
  }

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
  function sendEdge(x: Exchange, reply: ProxyReply, key: string, cached: EdgeEntry): void {
    for (const name in cached.headers) reply.header(name, cached.headers[name] as string);
    reply.header('x-cache', 'HIT');
    if (cached.etag && x.headers['if-none-match'] === cached.etag) {
      reply.code(304);
      reply.send();
      return;
    }
    reply.code(cached.status);
    const h = cached.headers;
    const encoding =
      x.method !== 'HEAD' &&
      cached.body.length >= COMPRESS_THRESHOLD &&
      compressible(cached.status, h['content-type'], h['content-encoding'], h['cache-control'])
        ? encodingFor(x.headers)
        : undefined;
    if (!encoding) {
      reply.send(cached.body);
      return;
    }
    reply.header('content-encoding', encoding);
    const ready = cached.variants[encoding];
    if (ready) {
      reply.send(ready);
      return;
    }
    // The first hit asking for this encoding compresses (off the loop) and keeps the copy.
    compressBody(cached.body, encoding).then(
      (zipped) => {
        edge.addVariant(key, cached, encoding, zipped);
        reply.send(zipped);
      },
      () => {
        reply.removeHeader('content-encoding');
        reply.send(cached.body);
      },
    );
  }

  function refuse(reply: ProxyReply, status: number, error: string, message: string) {
    reply.header('content-type', 'application/json; charset=utf-8');
    reply.code(status);
    reply.send(JSON.stringify({ error, message }));
  }

  /** 413, and the connection closed when its unread body would otherwise block the next request. */
  function tooLarge(x: Exchange, reply: ProxyReply, limit: number) {
    if (!x.raw.complete) reply.header('connection', 'close');
    const mib = limit / (1024 * 1024);
    return refuse(
      reply,
      413,
      'Payload Too Large',
      `The request body is too large (at most ${mib >= 1 ? `${Math.round(mib)} MB` : `${Math.round(limit / 1024)} KB`}).`,
    );
  }

  /**
   * The checks every table route passes before anything is forwarded, all synchronous:
   * edge-cache hits, CSRF and the body limit. Returns true when it answered. (Per-IP budgets
   * are counted after these, by withinBudget.)
   */
  function admit(x: Exchange, reply: ProxyReply, route: TableRoute): boolean {
    const { entry } = route;
    const method = x.method;
    if (route.guarded) {
      // Answers of the back office hold personal data: no browser or shared cache keeps them.
      reply.header('cache-control', 'no-store');
    } else if (entry.access === 'public' && (method === 'GET' || method === 'HEAD')) {
      const cached = edge.get(x.url);
      if (cached) {
        sendEdge(x, reply, x.url, cached);
        return true;
      }
    }
    if (!SAFE_METHODS.has(method)) {
      if (entry.access !== 'signed-webhook' && !entry.signedTokenInPath) {
        // CSRF: a state change must come from our own pages. Browsers send Origin on every
        // cross-site POST; a foreign one is refused. Webhooks and signed-token links carry
        // their own authority, which a forged cross-site request cannot have.
        const origin = x.headers.origin;
        if (origin && origin !== `${x.protocol}://${x.host}` && !ownOrigins.has(origin)) {
          refuse(reply, 403, 'Forbidden', 'Cross-site request refused.');
          return true;
        }
      }
      const length = x.headers['content-length'];
      if (length !== undefined && Number(length) > route.bodyLimit) {
        tooLarge(x, reply, route.bodyLimit);
        return true;
      }
    }
    return false;
  }

  /** The access rules of admin routes: a JSON (or marked) change, a session, the right role. */
  async function authorise(request: FastifyRequest, reply: ProxyReply, route: TableRoute) {
    if (!SAFE_METHODS.has(request.method) && !isJsonOrMarked(request)) {
      // Cookie-authenticated changes need a JSON body or our header: neither can be sent
      // cross-site without a CORS preflight, which the gateway never grants.
      refuse(
        reply,
        415,
        'Unsupported Media Type',
        'Send a JSON body or the X-Requested-With: parley header.',
      );
      return undefined;
    }
    const session = await auth.resolve(request);
    if (!session) {
      refuse(reply, 401, 'Unauthorized', 'Please sign in to continue.');
      return undefined;
    }
    if (route.entry.access === 'super_admin' && session.role !== 'super_admin') {
      refuse(reply, 403, 'Forbidden', 'This action requires the super_admin role');
      return undefined;
    }
    if (session.mustChangePassword && !route.entry.allowPendingPasswordChange) {
      refuse(reply, 403, 'Password Change Required', 'Please change your password to continue.');
      return undefined;
    }
    return assertionFor(session);
  }

  /**
   * The edge key of a read-only POST: reads the (small) body the proxy would stream, keys it,
   * and hands the same bytes on to the upstream. Undefined key when the body cannot be keyed.
   */
  async function readKeyedBody(
    raw: IncomingMessage,
    entry: RouteEntry,
  ): Promise<{ body: Buffer; key: string | undefined } | 'too large'> {
    const body = await readUpTo(raw, MAX_KEYED_BODY);
    if (!body) return 'too large';
    return { body, key: bodyCacheKey(entry.path, entry.cacheKeyFields ?? [], body) };
  }

  /** Answers a request whose upstream failed before any of its answer was sent. */
  function failed(x: Exchange, reply: ProxyReply, service: string, err: Error) {
    if (reply.raw.destroyed || x.raw.socket?.destroyed) return; // the client went away
    if (!x.raw.complete) reply.header('connection', 'close');
    if (err instanceof BodyTooLargeError || err.cause instanceof BodyTooLargeError) {
      const limit = err instanceof BodyTooLargeError ? err.limit : (err.cause as BodyTooLargeError).limit;
      tooLarge(x, reply, limit);
      return;
    }
    if (isTimeout(err)) {
      logger.warn({ err, service }, 'upstream timed out');
      refuse(
        reply,
        504,
        'Gateway Timeout',
        `The ${service} service did not answer in time. Please try again.`,
      );
      return;
    }
    if (isConnectionFailure(err)) {
      logger.warn({ err, service }, 'upstream unavailable');
      reply.header('retry-after', RETRY_AFTER_S);
      refuse(
        reply,
        503,
        'Service Unavailable',
        `The ${service} service is not available right now. Please try again in a few seconds.`,
      );
      return;
    }
    if ((err as NodeJS.ErrnoException).code === 'UND_ERR_INVALID_ARG') {
      // A header Node accepted but HTTP forbids forwarding (undici checks every value).
      refuse(reply, 400, 'Bad Request', 'The request has a header that cannot be forwarded.');
      return;
    }
    logger.error({ err, service }, 'upstream answered something that is not HTTP');
    refuse(reply, 502, 'Bad Gateway', `The ${service} service gave an invalid answer. Please try again.`);
  }

  /** Forwards an admitted request (assertion: an admin's; keyed: a read-only POST's body and key). */
  function send(
    x: Exchange,
    reply: ProxyReply,
    route: TableRoute,
    assertion?: string,
    keyed?: { body: Buffer; key: string | undefined },
  ) {
    const upstream = route.upstream as Upstream;
    const { entry } = route;
    const method = x.method;
    const url = x.url;
    if (climbs(url)) {
      refuse(reply, 400, 'Bad Request', 'The path is not valid.');
      return;
    }
    const extra = ['x-request-id', x.id, 'x-forwarded-for', x.ip, 'x-forwarded-proto', x.protocol];
    if (x.host) extra.push('x-forwarded-host', x.host);
    const span = x.span;
    let drop = IDENTITY_HEADERS;
    // Only a recording span (an SDK is registered) has a context worth sending; otherwise the
    // client's own trace headers pass on untouched, at no cost.
    if (span?.isRecording()) {
      const tp = currentTraceparent(trace.setSpan(ROOT_CONTEXT, span));
      if (tp) {
        extra.push('traceparent', tp);
        drop = IDENTITY_AND_TRACE_HEADERS;
      }
    }
    if (assertion) extra.push(ASSERTION_HEADER, assertion);

    let body: Buffer | Readable | null = null;
    if (keyed) {
      body = keyed.body;
    } else if (method !== 'GET' && method !== 'HEAD') {
      const length = x.headers['content-length'];
      if (length !== undefined) {
        if (length !== '0') {
          body = x.raw;
          extra.push('content-length', length);
        }
      } else if (x.headers['transfer-encoding'] !== undefined) {
        // No declared length: count while streaming, and stop at the route's limit.
        const limited = new BodyLimit(route.bodyLimit);
        pipeline(x.raw, limited, () => {});
        body = limited;
      }
    }

    const unsafe = !SAFE_METHODS.has(method);
    const edgeKey = keyed?.key ?? (entry.access === 'public' && method === 'GET' ? url : undefined);
    const call: ProxyCall = {
      upstream,
      method,
      path: upstream.basePath + (entry.upstreamPath ?? url),
      headers: forwardedHeaders(x.headers, drop, extra),
      body,
      retryable: method === 'GET' || method === 'HEAD',
      encoding: encodingFor(x.headers),
      cacheableMax: MAX_EDGE_BODY,
      onHeaders: (status, headers) => {
        if (route.guarded) headers['cache-control'] = 'no-store';
        if (route.endsSession && identity) {
          const token = readSessionToken(x.headers.cookie);
          if (token) identity.forget(token);
        }
        // A successful write by someone entitled to it: this replica's cached public reads
        // of the service may be stale now (other replicas follow within their TTL).
        if (unsafe && route.purges && status >= 200 && status < 300) edge.purge(entry.service);
        const surrogate = headers['surrogate-control'];
        if (surrogate === undefined) return 0;
        delete headers['surrogate-control'];
        if (!edgeKey || status !== 200 || headers['set-cookie'] !== undefined) return 0;
        return surrogateMaxAge(surrogate);
      },
      onCacheable: (status, body, ttl) => {
        if (!edgeKey) return undefined;
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(reply.getHeaders())) {
          if (v !== undefined && k !== 'content-length' && k !== 'x-request-id' && k !== 'connection')
            headers[k] = String(v);
        }
        const kept = edge.set(
          edgeKey,
          { service: entry.service, status, headers, body, etag: headers.etag },
          ttl,
        );
        return kept && ((encoding, zipped) => edge.addVariant(edgeKey, kept, encoding, zipped));
      },
      onFailure: (r, err) => failed(x, r, entry.service, err),
    };
    forward(x.raw, reply, call);
  }

  /**
   * Counts the request against its route's per-IP budget, kept by the owning service for every
   * gateway replica (rate-limit.ts). False when it answered: 429 past the budget, 503 when the
   * count could not be had (the service would not have answered the request either).
   */
  async function withinBudget(x: Exchange, reply: ProxyReply, route: TableRoute): Promise<boolean> {
    const { budget, upstream, entry } = route;
    if (!budget || !upstream) return true;
    let wait: number;
    try {
      wait = await budgets.hit(upstream, `${entry.path}|${x.ip}`, budget);
    } catch (err) {
      logger.warn({ err, service: entry.service }, 'budget count failed');
      if (reply.sent || x.raw.socket?.destroyed) return false;
      if (!x.raw.complete) reply.header('connection', 'close');
      reply.header('retry-after', RETRY_AFTER_S);
      refuse(
        reply,
        503,
        'Service Unavailable',
        `The ${entry.service} service is not available right now. Please try again in a few seconds.`,
      );
      return false;
    }
    if (!wait) return true;
    reply.header('retry-after', String(wait));
    refuse(reply, 429, 'Too Many Requests', `Too many requests. Please try again in ${wait} seconds.`);
    return false;
  }

  /** Budgeted routes, admin routes and read-only POSTs: the parts that wait (budget, session, body), then forward. */
  async function sendAfterChecks(request: FastifyRequest, x: Exchange, reply: ProxyReply, route: TableRoute) {
    if (!(await withinBudget(x, reply, route))) return;
    let assertion: string | undefined;
    if (route.guarded) {
      assertion = await authorise(request, reply, route);
      if (!assertion) return;
    }
    if (route.entry.cacheKeyFields && x.method === 'POST') {
      const keyed = await readKeyedBody(x.raw, route.entry);
      if (keyed === 'too large') {
        tooLarge(x, reply, MAX_KEYED_BODY);
        return;
      }
      const cached = keyed.key ? edge.get(keyed.key) : undefined;
      if (cached && keyed.key) {
        sendEdge(x, reply, keyed.key, cached);
        return;
      }
      send(x, reply, route, assertion, keyed);
      return;
    }
    send(x, reply, route, assertion);
  }

  // The fast path (fast-path.ts): public reads answered from the server's request event.
  const clientView = fastifyClientView(app);
  const tracing = tracingRegistered();
  let closing = false;
  const fastReadsEnabled = clientView !== undefined && config.GATEWAY_FAST_PATH !== false;
  function fastRead(req: IncomingMessage, res: import('node:http').ServerResponse): boolean {
    const method = req.method;
    if ((method !== 'GET' && method !== 'HEAD') || closing || !clientView) return false;
    const url = req.url ?? '/';
    if (url.charCodeAt(0) !== 47 || url.startsWith('/__') || url.startsWith('/metrics')) return false;
    const route = routeOf(req as TaggedRequest, url);
    if (!route?.fast || climbs(url) || tracing()) return false;
    const started = performance.now();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && given ? given : randomUUID();
    const view = clientView(req);
    const x: Exchange = {
      raw: req,
      method,
      url,
      headers: req.headers,
      id,
      ip: view.ip,
      protocol: view.protocol,
      host: view.host,
      span: undefined,
    };
    const reply = new RawReply(res, method === 'HEAD', finalHeaders, (status) => {
      // What the kit's hooks record for a request that went through Fastify.
      const labels = { method, route: route.entry.path, status_code: String(status) };
      metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
      metrics.httpRequests.inc(labels);
      if (status >= 500) logger.warn({ reqId: id, url, statusCode: status }, 'server error');
    });
    reply.header('x-request-id', id);
    try {
      if (!admit(x, reply, route)) send(x, reply, route);
    } catch (err) {
      // Fastify would turn a throw in a handler into a 500; no request may crash the process.
      logger.error({ err, reqId: id }, 'gateway fast path failed');
      if (!reply.sent) refuse(reply, 500, 'Internal Server Error', 'Something went wrong on our side.');
    }
    return true;
  }
  if (fastReadsEnabled) installFastPath(app.server, fastRead);
  app.addHook('preClose', (done) => {
    // Requests arriving from now on go through Fastify, which answers them and closes their
    // connection while the gateway closes.
    closing = true;
    done();
  });

  // Every table route with a deployed upstream. Bodies are never parsed: they stream on to
  // the service (or are read by readKeyedBody), so this context accepts any content type.
  await app.register(async (proxied) => {
    proxied.removeAllContentTypeParsers();
    proxied.addContentTypeParser('*', (_request, _payload, done) => done(null));
    proxied.route({
      method: PROXY_METHODS,
      url: PROXY_URL,
      // Compressed by the proxy itself, off the event loop (compression.ts); request bodies
      // pass on as sent, Content-Encoding included.
      compress: false,
      decompress: false,
      // No response schema, no validation: the handler is the whole proxy.
      handler(request, reply) {
        const route = (request.raw as TaggedRequest)[kRoute] as TableRoute;
        const x = exchangeOf(request);
        if (admit(x, reply, route)) return;
        if (route.budget || route.guarded || route.entry.cacheKeyFields) {
          sendAfterChecks(request, x, reply, route).catch((err: Error) => {
            logger.error({ err }, 'gateway access check failed');
            if (!reply.sent) refuse(reply, 500, 'Internal Server Error', 'Something went wrong on our side.');
          });
          return;
        }
        send(x, reply, route);
      },
    });

    // Access is enforced first, so the answer for a missing service never leaks to strangers.
    proxied.route({
      method: PROXY_METHODS,
      url: ABSENT_URL,
      compress: false,
      decompress: false,
      handler: async (request, reply) => {
        const route = (request.raw as TaggedRequest)[kRoute] as TableRoute;
        if (admit(exchangeOf(request), reply, route)) return reply;
        if (route.guarded && !(await authorise(request, reply, route))) return reply;
        return reply.code(503).send({
          error: 'Service Unavailable',
          message: `The ${route.entry.service} service is not available in this deployment.`,
        });
      },
    });
  });

  // The one API description (openapi.ts) and its interactive docs: the gateway's own routes
  // (routes.ts GATEWAY_ROUTES), admin-only unless API_DOCS_PUBLIC.
  const docsPublic = config.API_DOCS_PUBLIC === true;
  const serviceDocs = new ServiceDocuments(
    upstreamsOf(config),
    logger,
    Math.round((config.OPENAPI_FETCH_TIMEOUT_SECONDS ?? 5) * 1000),
  );
  let merged: { inputs: unknown[]; doc: OpenApiDocument } | undefined;
  async function apiDescription(): Promise<OpenApiDocument> {
    const services = await serviceDocs.all();
    const inputs = Object.values(services);
    // Rebuilt only when a service's document changed (each is kept for a minute).
    if (merged && merged.inputs.length === inputs.length && merged.inputs.every((d, i) => d === inputs[i]))
      return merged.doc;
    const doc = mergeOpenApi({ routes: ROUTES, services, docsPublic });
    merged = { inputs, doc };
    return doc;
  }
  /** The access rule of the docs routes: anyone, or a signed-in admin (any role). */
  async function docsAccess(request: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', docsPublic ? 'no-cache' : 'no-store');
    if (docsPublic) return;
    const session = await auth.resolve(request);
    if (!session) {
      refuse(reply, 401, 'Unauthorized', 'Please sign in to continue.');
      return reply;
    }
    if (session.mustChangePassword) {
      refuse(reply, 403, 'Password Change Required', 'Please change your password to continue.');
      return reply;
    }
  }
  await app.register(async (docs) => {
    // The Scalar page needs its own inline script: the page's CSP allows exactly that script
    // (its hash), on this page only.
    const policies = new Map<string, string>();
    // The Scalar bundle (4.9 MB) and the description (~350 KB) are large and the same for
    // every request: gzipped once each, off the event loop, instead of @fastify/compress's
    // brotli per request (which took tens of seconds of CPU for the bundle).
    const zipped = new Map<string, Promise<Buffer>>();
    docs.addHook('onSend', async (request, reply, payload) => {
      const type = reply.getHeader('content-type');
      if (typeof payload !== 'string') return payload;
      if (typeof type === 'string' && type.startsWith('text/html')) {
        let policy = policies.get(payload);
        if (!policy) {
          policy = apiDocsContentSecurityPolicy(payload);
          if (policies.size < 8) policies.set(payload, policy);
        }
        reply.header('content-security-policy', policy);
      }
      const accepts = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
      if (payload.length < 64 * 1024 || !accepts || request.headers['x-no-compression'] !== undefined)
        return payload;
      let gz = zipped.get(payload);
      if (!gz) {
        if (zipped.size >= 4) zipped.clear();
        gz = gzipAsync(payload);
        zipped.set(payload, gz);
      }
      reply.header('content-encoding', 'gzip');
      reply.header('vary', 'accept-encoding');
      reply.removeHeader('content-length');
      return gz;
    });
    docs.get(OPENAPI_PATH, { onRequest: docsAccess }, async () => apiDescription());
    await docs.register(apiReference, {
      routePrefix: API_DOCS_PATH,
      hooks: { onRequest: docsAccess },
      logLevel: 'warn',
      configuration: {
        url: OPENAPI_PATH,
        pageTitle: 'Parley API',
        withDefaultFonts: false,
        telemetry: false,
        // Nothing that calls Scalar's own services (the page's CSP would refuse them anyway).
        showDeveloperTools: 'never',
        agent: { disabled: true },
      },
    });
  });

  // Crawlers: the public site yes, the back office and the API no; the sitemap (blog service)
  // needs an absolute URL, from the configured origin (never the request's Host).
  app.get('/robots.txt', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return reply.type('text/plain; charset=utf-8').send(robotsTxt(siteOrigin));
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

  // Metrics on their own port, opened with the public one; pools closed with the app, so a
  // service stopping after the gateway has no connection of ours left to wait for.
  const metricsListener = new MetricsListener(metrics.registry, logger);
  app.addHook('onListen', async () => {
    const port = config.METRICS_PORT ?? DEFAULT_METRICS_PORT;
    const address = await metricsListener.listen(port, config.HOST ?? '0.0.0.0');
    if (address) logger.info({ port: address.port }, `metrics at http://127.0.0.1:${address.port}/metrics`);
  });
  app.addHook('onClose', async () => {
    loopDelay.stop();
    await Promise.all([metricsListener.close(), ...Object.values(upstreams).map((u) => u.close())]);
  });

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
