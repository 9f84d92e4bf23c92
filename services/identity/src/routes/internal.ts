import { ErrorBody, ResolveSessionBody, ResolveSessionResponse } from '@parley/contracts';
import { HttpError, type ServiceInstance } from '@parley/kit';
import { hashToken } from '../crypto.ts';
import type { IdentityRouteContext } from './context.ts';

/**
 * Service-to-service routes (internal token header; absent from the gateway's public table).
 * The gateway resolves the session cookie here, caches the answer briefly, and forwards a
 * signed assertion to the owning service.
 */
export async function internalRoutes(app: ServiceInstance, ctx: IdentityRouteContext) {
  const { repo, deps, settings, now } = ctx;

  app.post(
    '/internal/sessions/resolve',
    {
      onRequest: deps.auth.internal,
      schema: { body: ResolveSessionBody, response: { 200: ResolveSessionResponse, 401: ErrorBody } },
    },
    async (request, reply) => {
      const session = await repo.resolveSession(hashToken(request.body.token), now(), settings.sessionIdleMs);
      if (!session) throw new HttpError(401, 'Session expired or unknown');
      reply.header('cache-control', 'no-store');
      return { ...session, expiresAt: session.expiresAt.toISOString() };
    },
  );
}
