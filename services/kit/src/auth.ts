import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AdminRole } from '@parley/contracts';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import { HttpError } from './errors.ts';

/**
 * Internal assertion: the gateway resolves the admin session and forwards a short-lived
 * HS256 JWT in this header. Services trust nothing else for identity (ARCHITECTURE §4).
 */
export const ASSERTION_HEADER = 'x-parley-assertion';
const ISSUER = 'parley-gateway';
const AUDIENCE = 'parley-services';

export interface AdminPrincipal {
  adminId: string;
  role: AdminRole;
  email?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireAdmin()/requireRole() after the assertion was verified. */
    admin?: AdminPrincipal;
  }
}

const keyCache = new Map<string, Uint8Array>();
function keyOf(secret: string): Uint8Array {
  let k = keyCache.get(secret);
  if (!k) {
    k = new TextEncoder().encode(secret);
    keyCache.set(secret, k);
  }
  return k;
}

export async function signAssertion(
  secret: string,
  principal: AdminPrincipal,
  ttlSeconds = 60,
): Promise<string> {
  return new SignJWT({ role: principal.role, ...(principal.email ? { email: principal.email } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(principal.adminId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(keyOf(secret));
}

/**
 * Verified assertions, reused until they expire: the gateway reuses one assertion per
 * session for a while, so most requests skip the HMAC check. One map per secret.
 */
const verified = new Map<string, Map<string, { principal: AdminPrincipal; expMs: number }>>();
const VERIFIED_MAX = 10_000;

export async function verifyAssertion(secret: string, token: string): Promise<AdminPrincipal | null> {
  let bySecret = verified.get(secret);
  if (!bySecret) {
    bySecret = new Map();
    verified.set(secret, bySecret);
  }
  const hit = bySecret.get(token);
  if (hit && hit.expMs > Date.now()) return hit.principal;
  const result = await verifyAssertionUncached(secret, token);
  if (!result) return null;
  const { expMs, ...principal } = result;
  if (bySecret.size >= VERIFIED_MAX) bySecret.clear();
  bySecret.set(token, { principal, expMs });
  return principal;
}

async function verifyAssertionUncached(
  secret: string,
  token: string,
): Promise<(AdminPrincipal & { expMs: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    const role = payload.role;
    if (typeof payload.sub !== 'string' || (role !== 'admin' && role !== 'super_admin')) return null;
    if (typeof payload.exp !== 'number') return null;
    return {
      adminId: payload.sub,
      role,
      ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
      expMs: payload.exp * 1000,
    };
  } catch {
    return null;
  }
}

async function principalOf(request: FastifyRequest, secret: string): Promise<AdminPrincipal> {
  const header = request.headers[ASSERTION_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  const principal = token ? await verifyAssertion(secret, token) : null;
  if (!principal) throw new HttpError(401, 'Authentication required');
  return principal;
}

/** onRequest hook: any signed-in admin. */
export function requireAdmin(secret: string): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.admin = await principalOf(request, secret);
  };
}

/** onRequest hook: a signed-in admin with `role` (super_admin satisfies admin). */
export function requireRole(secret: string, role: AdminRole): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const principal = await principalOf(request, secret);
    if (role === 'super_admin' && principal.role !== 'super_admin') {
      throw new HttpError(403, 'This action requires the super_admin role');
    }
    request.admin = principal;
  };
}

/**
 * Service-to-service calls that no browser may make (e.g. the gateway asking identity to
 * resolve a session cookie) carry this header: an HMAC of the caller's name with the
 * shared secret. Such routes are also absent from the gateway's route table.
 */
export const INTERNAL_TOKEN_HEADER = 'x-parley-internal-token';

export function internalToken(secret: string, caller = 'gateway'): string {
  return createHmac('sha256', secret).update(`parley-internal:${caller}`).digest('hex');
}

/** onRequest hook: only callers holding the internal token. */
export function requireInternal(secret: string, caller = 'gateway'): onRequestAsyncHookHandler {
  const expected = Buffer.from(internalToken(secret, caller));
  return async (request: FastifyRequest) => {
    const header = request.headers[INTERNAL_TOKEN_HEADER];
    const got = Buffer.from(typeof header === 'string' ? header : '');
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
      throw new HttpError(401, 'Internal authentication required');
    }
  };
}
