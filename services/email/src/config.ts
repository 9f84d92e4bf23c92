import { ServiceEnv } from '@parley/kit/config';
import { type Static, Type } from 'typebox';

export const EmailEnv = Type.Object({
  ...ServiceEnv,
  /** The settings service's key: opens the SMTP password published sealed in settings events. */
  SETTINGS_ENCRYPTION_KEY: Type.String({ minLength: 44 }),
  /** Signs tracking and unsubscribe tokens (≥ 32 characters). Generated per data directory by `pnpm start`. */
  EMAIL_SIGNING_SECRET: Type.String({ minLength: 32 }),
});
export type EmailConfig = Static<typeof EmailEnv>;
