import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { contentSecurityPolicy, securityHeaders } from '../security.ts';

export interface SecurityHeadersOptions {
  /** The site is served over https: HSTS too. */
  https: boolean;
  /** Google Analytics is configured: the CSP lets gtag.js in. */
  analytics: boolean;
}

/** Sets the security headers on an answer's headers (the CSP on HTML documents only). */
export type HeaderWriter = (headers: Record<string, string | string[] | number>) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** The same headers, for an answer written outside Fastify (plugins/fast-path.ts). */
    securityHeaders: HeaderWriter;
  }
}

/**
 * Every answer carries the security headers, errors and 404s included; HTML documents also
 * the CSP. On the root scope (fastify-plugin), registered before anything that answers.
 */
const plugin: FastifyPluginAsync<SecurityHeadersOptions> = async (app, opts) => {
  const csp = contentSecurityPolicy({ analytics: opts.analytics });
  const headersForAll = securityHeaders({ https: opts.https });
  // A plain callback hook: an async one would cost a promise per request for no waiting.
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (const [name, value] of headersForAll) reply.header(name, value);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html'))
      reply.header('content-security-policy', csp);
    done(null, payload);
  });
  app.decorate('securityHeaders', (headers: Record<string, string | string[] | number>) => {
    for (const [name, value] of headersForAll) headers[name] = value;
    const type = headers['content-type'];
    if (typeof type === 'string' && type.startsWith('text/html')) headers['content-security-policy'] = csp;
  });
};

export default fp(plugin, { name: 'parley-security-headers' });
