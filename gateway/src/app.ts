import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import type { ServiceName } from '@parley/contracts';
import {
  buildServiceApp,
  createLogger,
  createServiceMetrics,
  HTTP_DURATION_BUCKETS,
  type ServiceInstance,
} from '@parley/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import { type AuthResolver, noSessions } from './auth.ts';
import {
  DEFAULT_METRICS_PORT,
  type GatewayConfig,
  siteOriginOf,
  trustProxyOf,
  upstreamsOf,
} from './config.ts';
import { identityResolver } from './identity-resolver.ts';
import { eventLoopDelayGauge, FastRequestMetrics, MetricsListener } from './internal-metrics.ts';
import { LazyChildLogger } from './lazy-logger.ts';
import admission from './plugins/admission.ts';
import apiDocs from './plugins/api-docs.ts';
import edgeCache from './plugins/edge-cache.ts';
import fastPath from './plugins/fast-path.ts';
import pages, { pageFallback } from './plugins/pages.ts';
import proxyRoutes from './plugins/proxy-routes.ts';
import securityHeaders from './plugins/security-headers.ts';
import sessions from './plugins/sessions.ts';
import staticFiles from './plugins/static.ts';
import { DEFAULT_UPSTREAM_OPTIONS, Upstream } from './proxy.ts';
import { RouteTable } from './route-table.ts';
import { DEFAULT_BODY_LIMIT } from './routes.ts';

export { robotsTxt } from './plugins/pages.ts';

export interface GatewayOptions {
  logger?: Logger;
  /** Session resolution (identity); default: nobody is signed in. */
  auth?: AuthResolver;
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** One keep-alive pool per deployed service. */
function upstreamPools(config: GatewayConfig): Partial<Record<ServiceName, Upstream>> {
  const options = {
    ...DEFAULT_UPSTREAM_OPTIONS,
    connections: config.UPSTREAM_CONNECTIONS ?? DEFAULT_UPSTREAM_OPTIONS.connections,
    pipelining: config.UPSTREAM_PIPELINING ?? DEFAULT_UPSTREAM_OPTIONS.pipelining,
    ...(config.UPSTREAM_TIMEOUT_SECONDS
      ? { headersTimeout: Math.round(config.UPSTREAM_TIMEOUT_SECONDS * 1000) }
      : {}),
  };
  const upstreams: Partial<Record<ServiceName, Upstream>> = {};
  for (const [service, base] of Object.entries(upstreamsOf(config)) as Array<[ServiceName, string]>) {
    upstreams[service] = new Upstream(service, base, options);
  }
  return upstreams;
}

/**
 * The gateway: the route table (routes.ts) decides which service owns a path and who may
 * call it; one keep-alive pool per upstream forwards it (proxy.ts) with the request id, trace
 * context, X-Forwarded-* and, for admins, a signed assertion; every other path serves the
 * web app. Prometheus metrics are served on an internal port only (METRICS_PORT).
 *
 * This is the composition root: each part is a plugin (plugins/), registered in the order
 * its hooks must run: security headers first (every answer, errors and 404s included), then
 * compression, then what the proxy routes read (sessions, edge cache, admission), the proxy
 * routes, the fast path in front of them, docs, pages and static files.
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
  const siteOrigin = siteOriginOf(config);
  const upstreams = upstreamPools(config);
  const table = new RouteTable(upstreams, config.RATE_LIMIT_MULTIPLIER ?? 1);
  // The web app: hashed assets cached forever, index.html revalidated on every visit.
  const webDist = config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST;
  const hasWeb = existsSync(`${webDist}/index.html`);
  const pageOptions = {
    webDist,
    hasWeb,
    siteOrigin,
    blogBase: upstreamsOf(config).blog,
    testLogins: config.ADMIN_TEST_LOGINS ?? config.NODE_ENV !== 'production',
    analyticsId: config.GA_MEASUREMENT_ID,
    logger,
  };

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
    rewriteUrl: table.rewriteUrl,
    notFoundHandler: pageFallback(pageOptions),
    routeLabel: table.routeLabel,
  });

  // Per-request loggers are made when a request first logs (few do); see lazy-logger.ts.
  app.setChildLoggerFactory(
    (logger, bindings, opts) =>
      new LazyChildLogger(logger, bindings, opts as Record<string, unknown>) as unknown as FastifyBaseLogger,
  );

  await app.register(securityHeaders, {
    https: siteOrigin.startsWith('https://'),
    analytics: Boolean(config.GA_MEASUREMENT_ID),
  });
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { 2: 4 } },
  });
  await app.register(sessions, {
    auth: opts.auth ?? identity ?? noSessions,
    identity,
    secret: config.INTERNAL_AUTH_SECRET,
  });
  await app.register(edgeCache);
  await app.register(admission, {
    ownOrigins: new Set([siteOrigin]),
    secret: config.INTERNAL_AUTH_SECRET,
    logger,
  });
  await app.register(proxyRoutes, { logger });
  // The seam of the fast path: off, every request takes the Fastify path above.
  if (config.GATEWAY_FAST_PATH !== false) {
    // The fast path's request metrics, merged into the kit's two series at each scrape.
    const requestMetrics = new FastRequestMetrics(HTTP_DURATION_BUCKETS);
    requestMetrics.mergeInto(metrics);
    await app.register(fastPath, { table, requestMetrics, logger });
  }
  await app.register(apiDocs, {
    docsPublic: config.API_DOCS_PUBLIC === true,
    upstreams: upstreamsOf(config),
    fetchTimeoutMs: Math.round((config.OPENAPI_FETCH_TIMEOUT_SECONDS ?? 5) * 1000),
    logger,
  });
  await app.register(pages, { siteOrigin });
  if (hasWeb) await app.register(staticFiles, { webDist });
  else logger.warn({ webDist }, 'web bundle not found; the site answers 503 until `pnpm build` runs');

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
