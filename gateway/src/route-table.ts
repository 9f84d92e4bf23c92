import type { IncomingMessage } from 'node:http';
import type { ServiceName } from '@parley/contracts';
import type { FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import type { Upstream } from './proxy.ts';
import { DEFAULT_BODY_LIMIT, methodsOf, ROUTES, type RouteEntry } from './routes.ts';

/**
 * Internal URLs rewriteUrl routes to (never reachable from outside: any path starting with
 * `/__` is refused before routing).
 */
export const PROXY_URL = '/__proxy';
export const ABSENT_URL = '/__absent';
export const BLOCKED_URL = '/__blocked';

/** A route-table entry with everything the per-request path needs, computed once at boot. */
export interface TableRoute {
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
  /** A public read with nothing to wait for: GET/HEAD may take the fast path (plugins/fast-path.ts). */
  fast: boolean;
}

/** Paths whose route is remembered, per method (RouteTable.routeOf). */
const KNOWN_PATHS_MAX = 4096;

/** What rewriteUrl matched, kept on the raw request for the handlers. */
const kRoute = Symbol('parley.route');
export type TaggedRequest = IncomingMessage & { [kRoute]?: TableRoute | null; originalUrl?: string };

/**
 * The route table (routes.ts) as the gateway looks it up: built once at boot, consulted once
 * per request (by rewriteUrl, or first by the fast path); everything after reads the match
 * kept on the raw request.
 */
export class RouteTable {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true });

  constructor(upstreams: Partial<Record<ServiceName, Upstream>>, rateLimitMultiplier: number) {
    for (const entry of ROUTES) {
      const guarded = entry.access === 'admin' || entry.access === 'super_admin';
      const route: TableRoute = {
        entry,
        upstream: upstreams[entry.service],
        guarded,
        bodyLimit: entry.bodyLimit ?? DEFAULT_BODY_LIMIT,
        budget: entry.rateLimit && { ...entry.rateLimit, max: entry.rateLimit.max * rateLimitMultiplier },
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
      for (const method of methodsOf(entry)) this.router.on(method, entry.path, () => {}, route);
    }
  }

  /**
   * The router's answers by method and exact path: the same path always finds the same route,
   * and a map lookup costs a fraction of the router's slash folding, decoding and tree walk.
   * Bounded (paths are the client's to choose): a full map starts over.
   */
  private readonly known = new Map<string, Map<string, TableRoute | null>>();

  /** The table route of a request, looked up once (the fast path's lookup is kept for Fastify's). */
  routeOf(req: TaggedRequest, url: string): TableRoute | null {
    const tagged = req[kRoute];
    if (tagged !== undefined) return tagged;
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    let byPath = this.known.get(method);
    if (!byPath) {
      byPath = new Map();
      this.known.set(method, byPath);
    }
    let route = byPath.get(path);
    if (route === undefined) {
      route = (this.router.find(method as 'GET', path)?.store as TableRoute | undefined) ?? null;
      if (byPath.size >= KNOWN_PATHS_MAX) byPath.clear();
      byPath.set(path, route);
    }
    req[kRoute] = route;
    return route;
  }

  /** Fastify's rewriteUrl: table routes go to PROXY_URL (or ABSENT_URL), internal paths nowhere. */
  readonly rewriteUrl = (req: TaggedRequest): string => {
    const url = req.url ?? '/';
    if (url.startsWith('/__')) return BLOCKED_URL;
    // Metrics are internal (METRICS_PORT); the public entry never serves them.
    if (url === '/metrics' || url.startsWith('/metrics?') || url.startsWith('/metrics/')) return BLOCKED_URL;
    const route = this.routeOf(req, url);
    if (!route) return url;
    return route.upstream ? PROXY_URL : ABSENT_URL;
  };

  /** The metrics label: one series per table route (and one for all hashed assets, which are a route each). */
  readonly routeLabel = (request: FastifyRequest): string => {
    const tableRoute = (request.raw as TaggedRequest)[kRoute];
    if (tableRoute) return tableRoute.entry.path;
    const url = request.routeOptions.url;
    if (!url) return 'unmatched';
    return url.startsWith('/assets/') ? '/assets/*' : url;
  };
}

/** The table route rewriteUrl matched, for a handler of PROXY_URL or ABSENT_URL. */
export function matchedRoute(request: FastifyRequest): TableRoute {
  return (request.raw as TaggedRequest)[kRoute] as TableRoute;
}

/** A path that climbs out of its prefix (`/api/blog/images/..%2f..`) is never forwarded. */
export function climbs(url: string): boolean {
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
