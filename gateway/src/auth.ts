import type { AdminRole } from '@parley/contracts';
import type { FastifyRequest } from 'fastify';

/** The signed-in admin behind a request, as the identity service resolved their session. */
export interface AdminSession {
  adminId: string;
  email?: string;
  role: AdminRole;
  mustChangePassword: boolean;
}

/**
 * Resolves the session of a request (its cookie) to an admin, or null. The identity
 * service's resolver is wired in when identity is deployed; without it no request is
 * signed in, so admin routes answer 401.
 */
export interface AuthResolver {
  resolve(request: FastifyRequest): Promise<AdminSession | null>;
}

export const noSessions: AuthResolver = {
  async resolve() {
    return null;
  },
};
