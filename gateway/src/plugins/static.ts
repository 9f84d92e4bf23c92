import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The web app's files: hashed assets cached forever, everything else (index.html is served
 * by the page fallback, plugins/pages.ts) revalidated on every visit. On the root scope, as
 * @fastify/static would be registered there directly.
 */
const plugin: FastifyPluginAsync<{ webDist: string }> = async (app, { webDist }) => {
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
};

export default fp(plugin, { name: 'parley-static' });
