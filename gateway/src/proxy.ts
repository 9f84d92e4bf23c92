import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { type Dispatcher, Pool } from 'undici';
import {
  COMPRESS_THRESHOLD,
  compressBody,
  compressible,
  compressStream,
  type Encoding,
  varyOnEncoding,
} from './compression.ts';

/**
 * The gateway's proxy hop: one undici pool per upstream service, and a dispatch handler that
 * writes the upstream's answer straight into the Fastify reply. Small answers (most API
 * JSON) are collected and sent as one buffer; large or unsized ones stream with backpressure.
 * Connection failures answer 503 (the service is down: retry later), timeouts 504; the
 * client never waits on a dead upstream and never gets a 502 for a service that is away.
 */

export interface UpstreamOptions {
  /** Keep-alive connections to the service. */
  connections: number;
  /** Requests in flight per connection (1 = no pipelining). */
  pipelining: number;
  /** How long the service may take to start answering (ms). */
  headersTimeout: number;
  /** Longest silence while the answer's body arrives (ms). */
  bodyTimeout: number;
  /** Longest wait for a TCP connection (ms). */
  connectTimeout: number;
}

export const DEFAULT_UPSTREAM_OPTIONS: UpstreamOptions = {
  connections: 128,
  pipelining: 1,
  headersTimeout: 60_000,
  bodyTimeout: 120_000,
  connectTimeout: 5_000,
};

/** One upstream service: its keep-alive pool and where its paths live. */
export class Upstream {
  readonly pool: Pool;
  /** Path prefix of the configured URL ('' for a bare origin). */
  readonly basePath: string;
  readonly host: string;

  constructor(
    readonly service: string,
    base: string,
    opts: UpstreamOptions,
  ) {
    const url = new URL(base);
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.host = url.host;
    this.pool = new Pool(url.origin, {
      connections: opts.connections,
      pipelining: opts.pipelining,
      headersTimeout: opts.headersTimeout,
      bodyTimeout: opts.bodyTimeout,
      connectTimeout: opts.connectTimeout,
      // Idle connections are dropped before a service's own keep-alive timeout (Fastify: 72 s)
      // would close them under a request in flight; the service's hint is honoured too.
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
    });
  }

  /**
   * Closes the pool: requests in flight finish, then every connection is closed, so a
   * service stopping after the gateway finds no idle connection of ours left open.
   */
  async close(graceMs = 2000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    const outcome = await Promise.race([this.pool.close().then(() => 'closed' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') await this.pool.destroy();
  }
}

/** Headers that describe one connection (RFC 9110 §7.6.1), never forwarded in either direction. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

/** Request headers the gateway sets itself (or that undici derives from the body). */
const REPLACED_REQUEST_HEADERS = new Set([
  ...HOP_BY_HOP,
  'host',
  'expect',
  'content-length',
  'x-request-id',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
]);

/** Names listed in a Connection header (hop-by-hop by declaration), or none. */
function connectionTokens(value: string | string[] | undefined): Set<string> | undefined {
  if (value === undefined) return undefined;
  const v = Array.isArray(value) ? value.join(',') : value;
  const lower = v.toLowerCase();
  if (lower === 'keep-alive' || lower === 'close') return undefined;
  return new Set(lower.split(',').map((t) => t.trim()));
}

/**
 * The upstream request's headers as undici's flat [name, value, ...] list: the client's
 * end-to-end headers minus `drop` (identity headers nobody outside may send), then `extra`.
 */
export function forwardedHeaders(
  incoming: IncomingHttpHeaders,
  drop: ReadonlySet<string>,
  extra: ReadonlyArray<string>,
): string[] {
  const out: string[] = [];
  const listed = connectionTokens(incoming.connection);
  for (const name in incoming) {
    if (REPLACED_REQUEST_HEADERS.has(name) || drop.has(name) || listed?.has(name)) continue;
    const value = incoming[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) out.push(name, v);
    else out.push(name, value);
  }
  for (const v of extra) out.push(v);
  return out;
}

/** Passes a streamed request body on, failing once it grows past `limit` bytes. */
export class BodyLimit extends Transform {
  private seen = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.seen += chunk.length;
    if (this.seen > this.limit) return done(new BodyTooLargeError(this.limit));
    done(null, chunk);
  }
}

export class BodyTooLargeError extends Error {
  readonly code = 'PARLEY_BODY_TOO_LARGE';
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes.`);
  }
}

/**
 * What the proxy writes an answer into: a Fastify reply, or the gateway's fast path's own
 * (plugins/fast-path.ts), which has the same few methods over a bare ServerResponse.
 */
export interface ProxyReply {
  header(name: string, value: string | string[] | number): unknown;
  code(status: number): unknown;
  send(payload?: Buffer | Readable | string): unknown;
  removeHeader(name: string): unknown;
  getHeaders(): Record<string, string | string[] | number | undefined>;
  readonly sent: boolean;
  readonly raw: ServerResponse;
}

/** Answers up to this size are collected and sent as one buffer; larger ones stream. */
const BUFFERED_MAX = 64 * 1024;

export interface ProxyCall {
  upstream: Upstream;
  method: string;
  /** Upstream path and query. */
  path: string;
  headers: string[];
  body: Buffer | Readable | null;
  /** Retry once on a connection failure before any answer (GET/HEAD: nothing was done). */
  retryable: boolean;
  /** The encoding the client accepts (compressible answers are compressed), or none. */
  encoding: Encoding | undefined;
  /**
   * Called with the answer's headers before they are copied; returns the edge-cache TTL
   * (seconds) when the answer may be cached, and may drop headers (Surrogate-Control).
   */
  onHeaders?: (status: number, headers: Record<string, string | string[]>) => number;
  /**
   * Called with a cacheable answer's full (uncompressed) body before it is sent; returns a
   * place to keep the compressed copy, if the answer is compressed.
   */
  onCacheable?: (
    status: number,
    body: Buffer,
    ttl: number,
  ) => ((encoding: Encoding, body: Buffer) => void) | undefined;
  /** Answers a failure that happened before any of the upstream's answer was sent. */
  onFailure: (reply: ProxyReply, err: Error) => void;
  /** Largest cacheable answer collected whole. */
  cacheableMax: number;
}

/**
 * The undici handler of one proxied request: copies status and end-to-end headers into the
 * reply, then either collects the body (small or cacheable answers) or streams it.
 */
class ReplyHandler implements Dispatcher.DispatchHandler {
  private started = false;
  private chunks: Buffer[] | null = null;
  private stream: Readable | null = null;
  /** The answer's end-to-end headers as [name, value, ...], copied into the reply once the answer is sure. */
  private readonly headers: Array<string | string[]> = [];
  private ttl = 0;
  private status = 0;
  private attempts = 1;
  /** The answer may be compressed for this client (type, encoding and status allow it). */
  private compress = false;

  constructor(
    private readonly call: ProxyCall,
    private readonly request: IncomingMessage,
    private readonly reply: ProxyReply,
  ) {}

  dispatch() {
    const { call } = this;
    call.upstream.pool.dispatch(
      { method: call.method, path: call.path, headers: call.headers, body: call.body },
      this,
    );
  }

  onRequestStart() {}

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ) {
    this.started = true;
    this.status = statusCode;
    const h = headers as Record<string, string | string[]>;
    this.ttl = this.call.onHeaders?.(statusCode, h) ?? 0;
    const listed = connectionTokens(h.connection);
    let length: string | undefined;
    for (const name in h) {
      const value = h[name];
      if (value === undefined || HOP_BY_HOP.has(name) || listed?.has(name)) continue;
      // The gateway's own request id is already on the reply (the same id the service saw).
      if (name === 'x-request-id') continue;
      if (name === 'content-length') {
        length = value as string;
        continue;
      }
      this.headers.push(name, value);
    }
    const size = length === undefined ? Number.POSITIVE_INFINITY : Number(length);
    if (compressible(statusCode, h['content-type'], h['content-encoding'], h['cache-control'])) {
      // Whether or not this client gets it compressed, a shared cache must know it depends.
      const headers = this.headers;
      let vary = 0;
      while (vary < headers.length && headers[vary] !== 'vary') vary += 2;
      if (vary < headers.length) headers[vary + 1] = varyOnEncoding(headers[vary + 1] as string | string[]);
      else headers.push('vary', 'accept-encoding');
      this.compress = this.call.encoding !== undefined && this.call.method !== 'HEAD';
    }
    if (this.call.method === 'HEAD' || statusCode === 204 || statusCode === 304) {
      if (length !== undefined && this.call.method === 'HEAD') this.headers.push('content-length', length);
      this.chunks = [];
    } else if (size <= BUFFERED_MAX || (this.ttl > 0 && size <= this.call.cacheableMax)) {
      this.chunks = [];
    } else {
      this.ttl = 0;
      const stream = new Readable({
        read: () => controller.resume(),
        destroy: (err, done) => {
          // The client went away (or the answer failed): stop reading from the service.
          if (!stream.readableEnded) controller.abort(err ?? new Error('client closed'));
          done(err);
        },
      });
      this.stream = stream;
      this.writeHead();
      const encoding = this.compress ? this.call.encoding : undefined;
      if (encoding) {
        const zipped = compressStream(encoding);
        pipeline(stream, zipped, () => {});
        this.reply.header('content-encoding', encoding);
        this.reply.send(zipped);
      } else {
        if (length !== undefined) this.reply.header('content-length', length);
        this.reply.send(stream);
      }
    }
  }

  private writeHead() {
    const reply = this.reply;
    const headers = this.headers;
    for (let i = 0; i < headers.length; i += 2)
      reply.header(headers[i] as string, headers[i + 1] as string | string[]);
    reply.code(this.status);
    // The client is still sending a body the service did not wait for: this connection
    // cannot carry another request, so it is closed after the answer.
    if (!this.request.complete) reply.header('connection', 'close');
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer) {
    if (this.chunks) this.chunks.push(chunk);
    else if (this.stream && !this.stream.push(chunk)) controller.pause();
  }

  onResponseEnd() {
    const chunks = this.chunks;
    if (!chunks) {
      this.stream?.push(null);
      return;
    }
    this.writeHead();
    if (this.call.method === 'HEAD' || this.status === 204 || this.status === 304) {
      this.reply.send();
      return;
    }
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    const keep = this.ttl > 0 ? this.call.onCacheable?.(this.status, body, this.ttl) : undefined;
    const encoding = this.call.encoding;
    if (!this.compress || !encoding || body.length < COMPRESS_THRESHOLD) {
      this.reply.send(body);
      return;
    }
    compressBody(body, encoding).then(
      (zipped) => {
        keep?.(encoding, zipped);
        this.reply.header('content-encoding', encoding);
        this.reply.send(zipped);
      },
      () => this.reply.send(body),
    );
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error) {
    if (this.stream) {
      // Part of the answer is on its way to the client: all that is left is to cut it short.
      this.stream.destroy(err);
      return;
    }
    if (this.reply.sent) return;
    if (!this.started && this.call.retryable && this.attempts < 2 && isConnectionFailure(err)) {
      // A keep-alive connection the service closed as we reused it, or a replica that just
      // went away: a GET did nothing yet, so one more try on a fresh connection is safe.
      this.attempts++;
      this.dispatch();
      return;
    }
    this.call.onFailure(this.reply, err);
  }
}

/** Forwards a request to its upstream and writes the answer into the reply. */
export function forward(request: IncomingMessage, reply: ProxyReply, call: ProxyCall): void {
  new ReplyHandler(call, request, reply).dispatch();
}

const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** The service could not be reached (down, restarting, connection dropped): retry later. */
export function isConnectionFailure(err: Error): boolean {
  return CONNECTION_FAILURES.has((err as NodeJS.ErrnoException).code ?? '');
}

/** The service was reached but did not answer in time. */
export function isTimeout(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}
