import type { IncomingHttpHeaders } from 'node:http';
import { readSessionToken } from '@parley/contracts';
import { signAssertion } from '@parley/kit';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AdminSession, AuthResolver } from '../auth.ts';
import { refuse, SAFE_METHODS } from '../exchange.ts';
import type { ProxyReply } from '../proxy.ts';
import type { TableRoute } from '../route-table.ts';

export interface SessionsOptions {
  /** Resolves a request's session (identity-resolver.ts, a test's own, or nobody). */
  auth: AuthResolver;
  /** The identity service's resolver, whose cached sessions a sign-out drops; null without one. */
  identity: { forget(token: string): void } | null;
  /** Signs the assertions the services verify (INTERNAL_AUTH_SECRET). */
  secret: string;
}

/** Who is signed in, and whether they may call an admin route. */
export interface Sessions {
  resolve(request: FastifyRequest): ReturnType<AuthResolver['resolve']>;
  /**
   * The access rules of admin routes: a JSON (or marked) change, a session, the right role.
   * The admin's signed assertion, or undefined when it answered (415, 401 or 403).
   */
  authorise(request: FastifyRequest, reply: ProxyReply, route: TableRoute): Promise<string | undefined>;
  /** A sign-out or password change went through: the session the cookie names is not cached on. */
  ended(headers: IncomingHttpHeaders): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
  }
}

function isJsonOrMarked(request: FastifyRequest): boolean {
  const type = request.headers['content-type'] ?? '';
  return (
    /^application\/(?:[\w.+-]+\+)?json\b/i.test(type) || request.headers['x-requested-with'] === 'parley'
  );
}

const plugin: FastifyPluginAsync<SessionsOptions> = async (app, { auth, identity, secret }) => {
  // One signed assertion per admin identity, reused for half its 60 s lifetime: signing
  // (and the services' verification, which caches too) then costs nothing per request.
  const assertions = new Map<string, { token: string; until: number }>();
  async function assertionFor(session: AdminSession): Promise<string> {
    const key = `${session.adminId}|${session.role}|${session.email ?? ''}`;
    const hit = assertions.get(key);
    if (hit && hit.until > Date.now()) return hit.token;
    const token = await signAssertion(secret, {
      adminId: session.adminId,
      role: session.role,
      ...(session.email ? { email: session.email } : {}),
    });
    if (assertions.size >= 10_000) assertions.clear();
    assertions.set(key, { token, until: Date.now() + 30_000 });
    return token;
  }

  async function authorise(request: FastifyRequest, reply: ProxyReply, route: TableRoute) {
    if (!SAFE_METHODS.has(request.method) && !isJsonOrMarked(request)) {
      // Cookie-authenticated changes need a JSON body or our header: neither can be sent
      // cross-site without a CORS preflight, which the gateway never grants.
      refuse(
        reply,
        415,
        'Unsupported Media Type',
        'Send a JSON body or the X-Requested-With: parley header.',
      );
      return undefined;
    }
    const session = await auth.resolve(request);
    if (!session) {
      refuse(reply, 401, 'Unauthorized', 'Please sign in to continue.');
      return undefined;
    }
    if (route.entry.access === 'super_admin' && session.role !== 'super_admin') {
      refuse(reply, 403, 'Forbidden', 'This action requires the super_admin role');
      return undefined;
    }
    if (session.mustChangePassword && !route.entry.allowPendingPasswordChange) {
      refuse(reply, 403, 'Password Change Required', 'Please change your password to continue.');
      return undefined;
    }
    return assertionFor(session);
  }

  app.decorate('sessions', {
    resolve: (request: FastifyRequest) => auth.resolve(request),
    authorise,
    ended(headers: IncomingHttpHeaders) {
      if (!identity) return;
      const token = readSessionToken(headers.cookie);
      if (token) identity.forget(token);
    },
  });
};

/** Identity and sessions: the resolver, the admin access rules and the assertion cache. */
export default fp(plugin, { name: 'parley-sessions' });
