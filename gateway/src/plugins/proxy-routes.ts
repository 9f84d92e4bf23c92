import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { ASSERTION_HEADER, currentTraceparent, INTERNAL_TOKEN_HEADER } from '@parley/kit';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import type { Encoding } from '../compression.ts';
import { bodyCacheKey, MAX_EDGE_BODY, surrogateMaxAge } from '../edge-cache.ts';
import {
  type Exchange,
  encodingFor,
  exchangeOf,
  RETRY_AFTER_S,
  readUpTo,
  refuse,
  SAFE_METHODS,
  tooLarge,
} from '../exchange.ts';
import {
  BodyLimit,
  BodyTooLargeError,
  forward,
  forwardedHeaders,
  isConnectionFailure,
  isTimeout,
  type ProxyCall,
  type ProxyReply,
  type Upstream,
} from '../proxy.ts';
import { ABSENT_URL, climbs, matchedRoute, PROXY_URL, type TableRoute } from '../route-table.ts';
import type { RouteEntry } from '../routes.ts';

export interface ProxyRoutesOptions {
  logger: Logger;
}

/** A read-only POST's body, read to key it, and its edge key (undefined: not keyable). */
type KeyedBody = { body: Buffer; key: string | undefined };

/** Forwards an admitted request (assertion: an admin's; keyed: a read-only POST's body and key). */
export type Send = (
  x: Exchange,
  reply: ProxyReply,
  route: TableRoute,
  assertion?: string,
  keyed?: KeyedBody,
) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** What the proxy route does once a request is admitted (the fast path sends through it too). */
    sendUpstream: Send;
  }
}

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
const PROXY_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The edge key of a read-only POST: reads the (small) body the proxy would stream, keys it,
 * and hands the same bytes on to the upstream. Undefined key when the body cannot be keyed.
 */
async function readKeyedBody(raw: IncomingMessage, entry: RouteEntry): Promise<KeyedBody | 'too large'> {
  const body = await readUpTo(raw, MAX_KEYED_BODY);
  if (!body) return 'too large';
  return { body, key: bodyCacheKey(entry.path, entry.cacheKeyFields ?? [], body) };
}

/** Answers a request whose upstream failed before any of its answer was sent. */
function failed(logger: Logger, x: Exchange, reply: ProxyReply, service: string, err: Error) {
  if (reply.raw.destroyed || x.raw.socket?.destroyed) return; // the client went away
  if (!x.raw.complete) reply.header('connection', 'close');
  if (err instanceof BodyTooLargeError || err.cause instanceof BodyTooLargeError) {
    const limit = err instanceof BodyTooLargeError ? err.limit : (err.cause as BodyTooLargeError).limit;
    tooLarge(x, reply, limit);
    return;
  }
  if (isTimeout(err)) {
    logger.warn({ err, service }, 'upstream timed out');
    refuse(reply, 504, 'Gateway Timeout', `The ${service} service did not answer in time. Please try again.`);
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

const plugin: FastifyPluginAsync<ProxyRoutesOptions> = async (app, { logger }) => {
  const { edge, sessions, admission } = app;
  const { admit, withinBudget } = admission;

  /**
   * One forwarded request as the proxy sees it, with its hooks as methods: nothing is allocated
   * per request beyond this object (closures in an object literal cost a function each, and the
   * bundle's keepNames a defineProperty on each, measured in the gateway's profile).
   */
  class RouteCall implements ProxyCall {
    readonly upstream: Upstream;
    readonly method: string;
    readonly path: string;
    readonly retryable: boolean;
    readonly encoding: Encoding | undefined;
    readonly cacheableMax = MAX_EDGE_BODY;

    constructor(
      private readonly x: Exchange,
      private readonly reply: ProxyReply,
      private readonly route: TableRoute,
      private readonly edgeKey: string | undefined,
      readonly headers: string[],
      readonly body: Buffer | Readable | null,
    ) {
      const upstream = route.upstream as Upstream;
      this.upstream = upstream;
      this.method = x.method;
      this.path = upstream.basePath + (route.entry.upstreamPath ?? x.url);
      this.retryable = x.method === 'GET' || x.method === 'HEAD';
      this.encoding = encodingFor(x.headers);
    }

    onHeaders(status: number, headers: Record<string, string | string[]>): number {
      const { route } = this;
      if (route.guarded) headers['cache-control'] = 'no-store';
      if (route.endsSession) sessions.ended(this.x.headers);
      // A successful write by someone entitled to it: this replica's cached public reads
      // of the service may be stale now (other replicas follow within their TTL).
      if (route.purges && status >= 200 && status < 300 && !SAFE_METHODS.has(this.method))
        edge.cache.purge(route.entry.service);
      const surrogate = headers['surrogate-control'];
      if (surrogate === undefined) return 0;
      delete headers['surrogate-control'];
      if (!this.edgeKey || status !== 200 || headers['set-cookie'] !== undefined) return 0;
      return surrogateMaxAge(surrogate);
    }

    onCacheable(status: number, body: Buffer, ttl: number) {
      const edgeKey = this.edgeKey;
      if (!edgeKey) return undefined;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(this.reply.getHeaders())) {
        if (v !== undefined && k !== 'content-length' && k !== 'x-request-id' && k !== 'connection')
          headers[k] = String(v);
      }
      const kept = edge.cache.set(
        edgeKey,
        { service: this.route.entry.service, status, headers, body, etag: headers.etag },
        ttl,
      );
      return (
        kept &&
        ((encoding: Encoding, zipped: Buffer) => edge.cache.addVariant(edgeKey, kept, encoding, zipped))
      );
    }

    onFailure(reply: ProxyReply, err: Error) {
      failed(logger, this.x, reply, this.route.entry.service, err);
    }
  }

  const send: Send = (x, reply, route, assertion, keyed) => {
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

    const edgeKey = keyed?.key ?? (entry.access === 'public' && method === 'GET' ? url : undefined);
    const call = new RouteCall(x, reply, route, edgeKey, forwardedHeaders(x.headers, drop, extra), body);
    forward(x.raw, reply, call);
  };

  /** Budgeted routes, admin routes and read-only POSTs: the parts that wait (budget, session, body), then forward. */
  async function sendAfterChecks(request: FastifyRequest, x: Exchange, reply: ProxyReply, route: TableRoute) {
    if (!(await withinBudget(x, reply, route))) return;
    let assertion: string | undefined;
    if (route.guarded) {
      assertion = await sessions.authorise(request, reply, route);
      if (!assertion) return;
    }
    if (route.entry.cacheKeyFields && x.method === 'POST') {
      const keyed = await readKeyedBody(x.raw, route.entry);
      if (keyed === 'too large') {
        tooLarge(x, reply, MAX_KEYED_BODY);
        return;
      }
      const cached = keyed.key ? edge.cache.get(keyed.key) : undefined;
      if (cached && keyed.key) {
        edge.answer(x, reply, keyed.key, cached);
        return;
      }
      send(x, reply, route, assertion, keyed);
      return;
    }
    send(x, reply, route, assertion);
  }

  app.decorate('sendUpstream', send);

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
        const route = matchedRoute(request);
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
        const route = matchedRoute(request);
        if (admit(exchangeOf(request), reply, route)) return reply;
        if (route.guarded && !(await sessions.authorise(request, reply, route))) return reply;
        return reply.code(503).send({
          error: 'Service Unavailable',
          message: `The ${route.entry.service} service is not available in this deployment.`,
        });
      },
    });
  });
};

/**
 * The proxy routes from the table (routes.ts): admission, then budget, session and keyed body
 * where the route has them, then the hop (proxy.ts). On the root scope for `sendUpstream`;
 * the routes themselves live in their own context, which parses no body.
 */
export default fp(plugin, {
  name: 'parley-proxy-routes',
  dependencies: ['parley-edge-cache', 'parley-sessions', 'parley-admission'],
});
