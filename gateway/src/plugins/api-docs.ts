import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { ServiceName } from '@parley/contracts';
import apiReference from '@scalar/fastify-api-reference';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { refuse } from '../exchange.ts';
import { mergeOpenApi, type OpenApiDocument, ServiceDocuments } from '../openapi.ts';
import { API_DOCS_PATH, OPENAPI_PATH, ROUTES } from '../routes.ts';
import { apiDocsContentSecurityPolicy } from '../security.ts';

export interface ApiDocsOptions {
  /** API_DOCS_PUBLIC: anyone may read them; else signed-in admins only. */
  docsPublic: boolean;
  /** The deployed services, whose own descriptions are merged. */
  upstreams: Partial<Record<ServiceName, string>>;
  /** How long to wait for a service's own /openapi.json (ms). */
  fetchTimeoutMs: number;
  logger: Logger;
}

const gzipAsync = promisify(gzip);

/**
 * The one API description (openapi.ts) and its interactive docs: the gateway's own routes
 * (routes.ts GATEWAY_ROUTES), admin-only unless API_DOCS_PUBLIC. Encapsulated: its onSend
 * hook (the page's CSP, gzip of the large bodies) touches these routes only.
 */
const apiDocs: FastifyPluginAsync<ApiDocsOptions> = async (docs, opts) => {
  const { docsPublic } = opts;
  const sessions = docs.sessions;
  const serviceDocs = new ServiceDocuments(opts.upstreams, opts.logger, opts.fetchTimeoutMs);
  let merged: { inputs: unknown[]; doc: OpenApiDocument } | undefined;
  async function apiDescription(): Promise<OpenApiDocument> {
    const services = await serviceDocs.all();
    const inputs = Object.values(services);
    // Rebuilt only when a service's document changed (each is kept for a minute).
    if (merged && merged.inputs.length === inputs.length && merged.inputs.every((d, i) => d === inputs[i]))
      return merged.doc;
    const doc = mergeOpenApi({ routes: ROUTES, services, docsPublic });
    merged = { inputs, doc };
    return doc;
  }
  /** The access rule of the docs routes: anyone, or a signed-in admin (any role). */
  async function docsAccess(request: FastifyRequest, reply: FastifyReply) {
    reply.header('cache-control', docsPublic ? 'no-cache' : 'no-store');
    if (docsPublic) return;
    const session = await sessions.resolve(request);
    if (!session) {
      refuse(reply, 401, 'Unauthorized', 'Please sign in to continue.');
      return reply;
    }
    if (session.mustChangePassword) {
      refuse(reply, 403, 'Password Change Required', 'Please change your password to continue.');
      return reply;
    }
  }

  // The Scalar page needs its own inline script: the page's CSP allows exactly that script
  // (its hash), on this page only.
  const policies = new Map<string, string>();
  // The Scalar bundle (4.9 MB) and the description (~350 KB) are large and the same for
  // every request: gzipped once each, off the event loop, instead of @fastify/compress's
  // brotli per request (which took tens of seconds of CPU for the bundle).
  const zipped = new Map<string, Promise<Buffer>>();
  docs.addHook('onSend', async (request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof payload !== 'string') return payload;
    if (typeof type === 'string' && type.startsWith('text/html')) {
      let policy = policies.get(payload);
      if (!policy) {
        policy = apiDocsContentSecurityPolicy(payload);
        if (policies.size < 8) policies.set(payload, policy);
      }
      reply.header('content-security-policy', policy);
    }
    const accepts = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (payload.length < 64 * 1024 || !accepts || request.headers['x-no-compression'] !== undefined)
      return payload;
    let gz = zipped.get(payload);
    if (!gz) {
      if (zipped.size >= 4) zipped.clear();
      gz = gzipAsync(payload);
      zipped.set(payload, gz);
    }
    reply.header('content-encoding', 'gzip');
    reply.header('vary', 'accept-encoding');
    reply.removeHeader('content-length');
    return gz;
  });
  docs.get(OPENAPI_PATH, { onRequest: docsAccess }, async () => apiDescription());
  await docs.register(apiReference, {
    routePrefix: API_DOCS_PATH,
    hooks: { onRequest: docsAccess },
    logLevel: 'warn',
    configuration: {
      url: OPENAPI_PATH,
      pageTitle: 'Parley API',
      withDefaultFonts: false,
      telemetry: false,
      // Nothing that calls Scalar's own services (the page's CSP would refuse them anyway).
      showDeveloperTools: 'never',
      agent: { disabled: true },
    },
  });
};

export default apiDocs;
