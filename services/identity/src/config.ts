import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@parley/contracts';
import { publicOriginOf, ServiceEnv } from '@parley/kit/config';
import { type Static, Type } from 'typebox';

export const IdentityEnv = Type.Object({
  ...ServiceEnv,
  /** First admin (created only when there is no admin at all). Default admin@parley.local. */
  PARLEY_ADMIN_EMAIL: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  /** First admin's password; when absent a random one is printed once at first start. */
  PARLEY_ADMIN_PASSWORD: Type.Optional(
    Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH }),
  ),
  /** Sessions expire after this many hours without use (default 24). */
  SESSION_IDLE_HOURS: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 24 * 90 })),
  /** Invitation links stay valid this many days (default 7). */
  INVITATION_TTL_DAYS: Type.Optional(Type.Integer({ minimum: 1, maximum: 90 })),
  /** Sign-in requests (of any outcome) per client IP per minute, in memory (default 60). */
  LOGIN_RATE_LIMIT: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type IdentityConfig = Static<typeof IdentityEnv>;

export interface IdentitySettings {
  sessionIdleMs: number;
  invitationTtlMs: number;
  publicBaseUrl: string;
  loginRateLimit: number;
}

export function settingsFrom(config: IdentityConfig): IdentitySettings {
  return {
    sessionIdleMs: (config.SESSION_IDLE_HOURS ?? 24) * 3_600_000,
    invitationTtlMs: (config.INVITATION_TTL_DAYS ?? 7) * 86_400_000,
    publicBaseUrl: publicOriginOf(config),
    loginRateLimit: config.LOGIN_RATE_LIMIT ?? 60,
  };
}
