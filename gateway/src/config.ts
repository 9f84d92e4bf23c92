import { SERVICE_NAMES, type ServiceName } from '@parley/contracts';
import { CommonEnv } from '@parley/kit';
import { type Static, Type } from 'typebox';

const upstream = (service: string) =>
  Type.Optional(
    Type.String({
      pattern: '^https?://',
      description: `Base URL of the ${service} service; unset = not deployed (503)`,
    }),
  );

/** The gateway's environment, validated once at boot (kit's loadConfig names every bad key). */
export const GatewayEnv = Type.Object({
  ...CommonEnv,
  IDENTITY_URL: upstream('identity'),
  BOOKING_URL: upstream('booking'),
  BLOG_URL: upstream('blog'),
  VOICE_URL: upstream('voice'),
  EMAIL_URL: upstream('email'),
  SETTINGS_URL: upstream('settings'),
  /** Built web bundle (index.html + assets/); default web/dist of this repository. */
  WEB_DIST_DIR: Type.Optional(Type.String()),
  /** Fastify trustProxy for the gateway: hops or CIDRs of the load balancer in front; default none. */
  TRUST_PROXY: Type.Optional(Type.String()),
  /** Keep-alive connections per upstream (default 128). */
  UPSTREAM_CONNECTIONS: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
  /**
   * How long a service may take to start answering before the gateway answers 504 (default
   * 60 s; AI writing is the slowest route).
   */
  UPSTREAM_TIMEOUT_SECONDS: Type.Optional(Type.Number({ minimum: 0.01, maximum: 3600 })),
  /**
   * Public reads answered without the Fastify request pipeline (default true; false sends
   * every request through Fastify, for comparison or if the fast path is ever in doubt).
   */
  GATEWAY_FAST_PATH: Type.Optional(Type.Boolean()),
  /** Requests in flight on one upstream connection (HTTP/1.1 pipelining; default 1 = none). */
  UPSTREAM_PIPELINING: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  /**
   * Port of the internal listener serving Prometheus /metrics (default 9464, the port the
   * chart's ServiceMonitor scrapes; 0 = any free port). Never served on the public PORT.
   */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /**
   * Google Analytics 4 measurement id (G-XXXXXXX). Set: the web app loads gtag.js and reports
   * page views and the spec's events; unset: analytics is a no-op and no script is loaded.
   */
  GA_MEASUREMENT_ID: Type.Optional(Type.String({ pattern: '^G-[A-Z0-9]{4,20}$' })),
  /**
   * Public origin (https://parley.example): the only origin absolute URLs (canonical links,
   * sharing tags, robots.txt) are built from, an accepted Origin of state changes, and HSTS
   * when https. Unset: http://localhost:PORT (never the request's Host header).
   */
  PUBLIC_ORIGIN: Type.Optional(Type.String({ pattern: '^https?://[^/?#\\s]+/?$' })),
  /**
   * The API description (GET /api/openapi.json) and its interactive docs (/api/docs): false
   * (default) = signed-in admins only; true = anyone (docs/adr/0021-api-docs-admin-only-by-default.md).
   */
  API_DOCS_PUBLIC: Type.Optional(Type.Boolean()),
  /**
   * The developer test login screens (/admin/simple, /admin/test): on by default, off by
   * default when NODE_ENV=production (the images, the chart, kustomize and compose); off, the
   * gateway answers them 404 (docs/adr/0033-developer-test-logins-off-in-production.md).
   */
  ADMIN_TEST_LOGINS: Type.Optional(Type.Boolean()),
  /** How long the gateway waits for a service's own /openapi.json (default 5 s). */
  OPENAPI_FETCH_TIMEOUT_SECONDS: Type.Optional(Type.Number({ minimum: 0.1, maximum: 60 })),
});

export type GatewayConfig = Static<typeof GatewayEnv>;

const UPSTREAM_KEYS = {
  identity: 'IDENTITY_URL',
  booking: 'BOOKING_URL',
  blog: 'BLOG_URL',
  voice: 'VOICE_URL',
  email: 'EMAIL_URL',
  settings: 'SETTINGS_URL',
} as const satisfies Record<ServiceName, keyof GatewayConfig>;

export const DEFAULT_METRICS_PORT = 9464;

/**
 * The site's public origin, from configuration only: a Host header is the client's to choose,
 * so reflecting it into pages or robots.txt would let anyone poison a shared cache.
 */
export function siteOriginOf(config: GatewayConfig): string {
  if (config.PUBLIC_ORIGIN) return config.PUBLIC_ORIGIN.replace(/\/+$/, '');
  return `http://localhost:${config.PORT ?? 3000}`;
}

/** The configured upstream of each deployed service. */
export function upstreamsOf(config: GatewayConfig): Partial<Record<ServiceName, string>> {
  const out: Partial<Record<ServiceName, string>> = {};
  for (const service of SERVICE_NAMES) {
    const url = config[UPSTREAM_KEYS[service]];
    if (url) out[service] = url.replace(/\/+$/, '');
  }
  return out;
}

/** Parses TRUST_PROXY ("2" → hop count, "true"/"false", else CIDR list). */
export function trustProxyOf(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}
