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
    /** The same headers as a list, for an answer of this Content-Type (made once, at boot). */
    securityHeadersFor(contentType: unknown): ReadonlyArray<readonly [string, string]>;
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
  const forHtml = [...headersForAll, ['content-security-policy', csp] as const];
  const headersFor = (type: unknown) =>
    typeof type === 'string' && type.startsWith('text/html') ? forHtml : headersForAll;
  app.decorate('securityHeadersFor', headersFor);
  app.decorate('securityHeaders', (headers: Record<string, string | string[] | number>) => {
    for (const [name, value] of headersFor(headers['content-type'])) headers[name] = value;
  });
};

export default fp(plugin, { name: 'parley-security-headers' });
