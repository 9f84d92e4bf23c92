import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { pipeline, type Readable } from 'node:stream';
import { trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { type Exchange, refuse } from '../exchange.ts';
import type { FastRequestMetrics } from '../internal-metrics.ts';
import type { ProxyReply } from '../proxy.ts';
import { climbs, type RouteTable, type TaggedRequest } from '../route-table.ts';

/**
 * The gateway's fast path: public reads (GET/HEAD of a public, unbudgeted table route with a
 * deployed upstream) are answered from the HTTP server's request event, without building a
 * Fastify request, reply, hook chain and serialiser around a request that only passes
 * through. Measured on the project machine, that framework layer cost the gateway as much
 * CPU per request as the hop itself (docs/benchmarks.md). Everything the Fastify path adds
 * to such an answer is done here too, the same way: request id, security headers, metrics,
 * the 5xx log line, X-Forwarded-* (with Fastify's own trust-proxy rules), the edge cache and
 * compression (the same admission and proxy code: plugins/admission.ts, plugins/proxy-routes.ts).
 * Anything else, and every request while tracing is on or the gateway is closing, takes the
 * Fastify path. The whole of it is this plugin: not registered (GATEWAY_FAST_PATH=false), every
 * request goes through Fastify, and gateway/test/fast-path.test.ts holds both paths' answers
 * equal.
 */

/** How a request's client is seen (TRUST_PROXY applied): what X-Forwarded-* carry on. */
export interface ClientView {
  ip: string;
  protocol: string;
  host: string;
}

/**
 * Fastify's own reading of ip, protocol and host for a raw request, so both paths apply
 * TRUST_PROXY identically. Fastify keeps its Request class (with the trust-proxy getters) on
 * the instance; when it cannot be found (another Fastify major), undefined: no fast path.
 */
export function fastifyClientView(app: FastifyInstance): ((req: IncomingMessage) => ClientView) | undefined {
  const key = Object.getOwnPropertySymbols(app).find((s) => s.description === 'fastify.Request');
  const Request = key ? (app as unknown as Record<symbol, { prototype?: object }>)[key] : undefined;
  const proto = Request?.prototype;
  if (!proto) return undefined;
  const getter = (name: string) => {
    for (let p: object | null = proto; p; p = Object.getPrototypeOf(p)) {
      const d = Object.getOwnPropertyDescriptor(p, name);
      if (d?.get) return d.get;
    }
    return undefined;
  };
  const ip = getter('ip');
  const protocol = getter('protocol');
  const host = getter('host');
  if (!ip || !protocol || !host) return undefined;
  return (req) => {
    // The getters read this.raw, this.headers and this.socket, as on a Fastify request.
    const view = Object.create(proto) as { raw: IncomingMessage };
    view.raw = req;
    return {
      ip: ip.call(view) as string,
      protocol: protocol.call(view) as string,
      host: host.call(view) as string,
    };
  };
}

/** Whether an OpenTelemetry SDK is registered (then requests take the Fastify path, which traces). */
function tracingRegistered(): () => boolean {
  const noop = trace.getTracerProvider();
  return () => trace.getTracerProvider() !== noop;
}

/**
 * Puts `fast` in front of the Fastify app's request handler: a request it does not take
 * (returns false) goes on to Fastify untouched.
 */
function installFastPath(server: Server, fast: (req: IncomingMessage, res: ServerResponse) => boolean): void {
  const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  const fastify = handlers[0];
  if (handlers.length !== 1 || !fastify) return;
  server.removeListener('request', fastify);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!fast(req, res)) fastify.call(server, req, res);
  });
}

/** What a fast answer does beside writing itself: one per gateway, shared by every RawReply. */
export interface FastAnswers {
  /** The headers every answer carries (security headers), for an answer of this Content-Type. */
  finalHeaders(contentType: unknown): ReadonlyArray<readonly [string, string]>;
  /** Runs once the answer is handed to the socket (metrics, the 5xx log line). */
  answered(reply: RawReply, status: number): void;
}

/**
 * A reply written straight to the ServerResponse, with the methods the proxy uses on a
 * Fastify reply. Its headers are one flat [name, value, ...] list, the form Node's writeHead
 * takes as it is (an object's keys differ per answer, and each store and read of one was a
 * megamorphic lookup). What the request was (method, route label, id, URL, start) rides on
 * the reply itself, so a fast request allocates no closure for its metrics.
 */
export class RawReply implements ProxyReply {
  sent = false;
  private status = 200;
  private readonly headers: Array<string | string[] | number> = [];

  constructor(
    readonly raw: ServerResponse,
    readonly method: string,
    /** The metrics label: the table route's path. */
    readonly route: string,
    readonly id: string,
    readonly url: string,
    readonly started: number,
    private readonly answers: FastAnswers,
  ) {}

  private indexOf(name: string): number {
    const headers = this.headers;
    for (let i = 0; i < headers.length; i += 2) if (headers[i] === name) return i;
    return -1;
  }

  header(name: string, value: string | string[] | number): this {
    const i = this.indexOf(name);
    if (i === -1) this.headers.push(name, value);
    else this.headers[i + 1] = value;
    return this;
  }

  code(status: number): this {
    this.status = status;
    return this;
  }

  removeHeader(name: string): this {
    const i = this.indexOf(name);
    if (i !== -1) this.headers.splice(i, 2);
    return this;
  }

  getHeaders(): Record<string, string | string[] | number> {
    const out: Record<string, string | string[] | number> = {};
    const headers = this.headers;
    for (let i = 0; i < headers.length; i += 2) out[headers[i] as string] = headers[i + 1] as string;
    return out;
  }

  send(payload?: Buffer | Readable | string): this {
    if (this.sent) return this;
    this.sent = true;
    const res = this.raw;
    const head = this.method === 'HEAD';
    const type = this.indexOf('content-type');
    for (const [name, value] of this.answers.finalHeaders(type === -1 ? undefined : this.headers[type + 1]))
      this.header(name, value);
    if (payload === undefined || typeof payload === 'string' || Buffer.isBuffer(payload)) {
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      if (body) this.header('content-length', body.length);
      else if (!head && this.status !== 204 && this.status !== 304 && this.indexOf('content-length') === -1)
        this.headers.push('content-length', 0);
      res.writeHead(this.status, this.headers as string[]);
      res.end(head ? undefined : body);
      this.answers.answered(this, this.status);
      return this;
    }
    res.writeHead(this.status, this.headers as string[]);
    pipeline(payload, res, (err) => {
      // A stream that failed midway cannot be answered anew: the client sees it cut short.
      if (err && !res.destroyed) res.destroy(err);
      this.answers.answered(this, this.status);
    });
    return this;
  }
}

export interface FastPathOptions {
  table: RouteTable;
  /** The kit's request metrics as a fast answer records them (internal-metrics.ts). */
  requestMetrics: FastRequestMetrics;
  logger: Logger;
}

const plugin: FastifyPluginAsync<FastPathOptions> = async (app, { table, requestMetrics, logger }) => {
  const clientView = fastifyClientView(app);
  if (!clientView) return;
  const { admission, sendUpstream: send, securityHeadersFor } = app;
  const { admit } = admission;
  const tracing = tracingRegistered();
  let closing = false;
  const answers: FastAnswers = {
    finalHeaders: securityHeadersFor,
    answered(reply, status) {
      // What the kit's hooks record for a request that went through Fastify.
      requestMetrics.record(reply.method, reply.route, status, (performance.now() - reply.started) / 1000);
      if (status >= 500) logger.warn({ reqId: reply.id, url: reply.url, statusCode: status }, 'server error');
    },
  };

  function fastRead(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if ((method !== 'GET' && method !== 'HEAD') || closing || !clientView) return false;
    const url = req.url ?? '/';
    if (url.charCodeAt(0) !== 47 || url.startsWith('/__') || url.startsWith('/metrics')) return false;
    const route = table.routeOf(req as TaggedRequest, url);
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
    const reply = new RawReply(res, method, route.entry.path, id, url, started, answers);
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
  installFastPath(app.server, fastRead);
  app.addHook('preClose', (done) => {
    // Requests arriving from now on go through Fastify, which answers them and closes their
    // connection while the gateway closes.
    closing = true;
    done();
  });
};

/** The fast path for public reads, in front of Fastify's request handler. */
export default fp(plugin, {
  name: 'parley-fast-path',
  dependencies: ['parley-security-headers', 'parley-admission', 'parley-proxy-routes'],
});
