import type { ServiceDeps } from '@parley/kit';
import type { FastifyRequest } from 'fastify';
import type { IdentitySettings } from '../config.ts';
import type { PasswordChecker } from '../crypto.ts';
import type { IdentityRepository } from '../repo/identity.repository.ts';
import type { SessionService } from '../session.service.ts';

/** What every identity route module receives from the composition root. */
export interface IdentityRouteContext {
  repo: IdentityRepository;
  sessions: SessionService;
  deps: ServiceDeps;
  settings: IdentitySettings;
  passwords: PasswordChecker;
  now: () => Date;
}

/** The request came over https (services trust the gateway's X-Forwarded-Proto). */
export const isSecure = (request: FastifyRequest) => request.protocol === 'https';

export function clientOf(request: FastifyRequest) {
  const ua = request.headers['user-agent'];
  return { userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null, ip: request.ip ?? null };
}
