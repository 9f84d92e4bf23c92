import { type ResolveSessionResponse, readSessionToken } from '@parley/contracts';
import { INTERNAL_TOKEN_HEADER, internalToken } from '@parley/kit';
import type { Logger } from 'pino';
import type { AdminSession, AuthResolver } from './auth.ts';

export interface IdentityResolverOptions {
  identityUrl: string;
  secret: string;
  logger: Logger;
  /**
   * How long an answer is reused. A sign-out or revocation takes effect at the latest this
   * long after it happened (default 3 s); it also bounds the load on identity.
   */
  cacheMs?: number;
  now?: () => number;
}

interface CacheEntry {
  session: AdminSession | null;
  until: number;
}

const MAX_ENTRIES = 10_000;

/**
 * Resolves the session cookie through the identity service (`/internal/sessions/resolve`,
 * internal token), with a short cache and one in-flight call per token.
 */
export function identityResolver(
  opts: IdentityResolverOptions,
): AuthResolver & { forget(token: string): void } {
  const cacheMs = opts.cacheMs ?? 3000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, CacheEntry>();
  const inflight = new Map<string, Promise<AdminSession | null>>();
  const header = internalToken(opts.secret, 'gateway');
  const url = `${opts.identityUrl.replace(/\/+$/, '')}/internal/sessions/resolve`;

  async function lookup(token: string): Promise<AdminSession | null> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: header },
      body: JSON.stringify({ token }),
      signal: AbortSignal.timeout(5000),
    });
    if (res.status === 401 || res.status === 400) return null;
    if (!res.ok) throw new Error(`identity answered ${res.status}`);
    const body = (await res.json()) as ResolveSessionResponse;
    return {
      adminId: body.adminId,
      email: body.email,
      role: body.role,
      mustChangePassword: body.mustChangePassword,
    };
  }

  return {
    async resolve(request) {
      const token = readSessionToken(request.headers.cookie);
      if (!token) return null;
      const hit = cache.get(token);
      if (hit && hit.until > now()) return hit.session;
      let pending = inflight.get(token);
      if (!pending) {
        pending = lookup(token).finally(() => inflight.delete(token));
        inflight.set(token, pending);
      }
      let session: AdminSession | null;
      try {
        session = await pending;
      } catch (err) {
        // Identity down: nobody is signed in (401), which fails closed; not cached.
        opts.logger.warn({ err }, 'session resolution failed');
        return null;
      }
      if (cache.size >= MAX_ENTRIES) cache.clear();
      cache.set(token, { session, until: now() + cacheMs });
      return session;
    },
    forget(token) {
      cache.delete(token);
    },
  };
}
