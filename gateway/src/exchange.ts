import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { type Encoding, negotiate } from './compression.ts';
import type { ProxyReply } from './proxy.ts';

/** One request as the gateway's checks and proxy see it, on either path. */
export interface Exchange {
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

export function exchangeOf(request: FastifyRequest): Exchange {
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

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** How long a client should wait before retrying a service that is down. */
export const RETRY_AFTER_S = '5';

/** The gateway's own JSON refusal, written the same way into either path's reply. */
export function refuse(reply: ProxyReply, status: number, error: string, message: string) {
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.code(status);
  reply.send(JSON.stringify({ error, message }));
}

/** 413, and the connection closed when its unread body would otherwise block the next request. */
export function tooLarge(x: Exchange, reply: ProxyReply, limit: number) {
  if (!x.raw.complete) reply.header('connection', 'close');
  const mib = limit / (1024 * 1024);
  return refuse(
    reply,
    413,
    'Payload Too Large',
    `The request body is too large (at most ${mib >= 1 ? `${Math.round(mib)} MB` : `${Math.round(limit / 1024)} KB`}).`,
  );
}

/** The encoding a client accepts for proxied answers (none when it asks for no compression). */
export function encodingFor(headers: IncomingHttpHeaders): Encoding | undefined {
  if (headers['x-no-compression'] !== undefined) return undefined;
  return negotiate(headers['accept-encoding']);
}

/**
 * Reads a request body of at most `max` bytes; null (the rest left unread) when it is larger.
 * Never destroys the stream: the connection must stay able to carry the refusal.
 */
export function readUpTo(stream: IncomingMessage, max: number): Promise<Buffer | null> {
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
