import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { COMPRESS_THRESHOLD, compressBody, compressible } from '../compression.ts';
import { EdgeCache, type EdgeEntry } from '../edge-cache.ts';
import { type Exchange, encodingFor } from '../exchange.ts';
import type { ProxyReply } from '../proxy.ts';

/** This replica's micro-cache of public reads (edge-cache.ts), and how a hit is answered. */
export interface Edge {
  cache: EdgeCache;
  /** Answers a request from a cached entry: 304 on a matching ETag, compressed when asked. */
  answer(x: Exchange, reply: ProxyReply, key: string, cached: EdgeEntry): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    edge: Edge;
  }
}

function edgeAnswers(cache: EdgeCache): Edge {
  function answer(x: Exchange, reply: ProxyReply, key: string, cached: EdgeEntry): void {
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
        cache.addVariant(key, cached, encoding, zipped);
        reply.send(zipped);
      },
      () => {
        reply.removeHeader('content-encoding');
        reply.send(cached.body);
      },
    );
  }
  return { cache, answer };
}

const plugin: FastifyPluginAsync = async (app) => {
  app.decorate('edge', edgeAnswers(new EdgeCache()));
};

/** The edge cache, shared by admission (hits), the proxy (fills, purges) and the fast path. */
export default fp(plugin, { name: 'parley-edge-cache' });
