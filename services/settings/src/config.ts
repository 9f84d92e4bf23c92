import { ServiceEnv } from '@parley/kit/config';
import { type Static, Type } from 'typebox';

export const SettingsEnv = Type.Object({
  ...ServiceEnv,
  /**
   * Key that seals credentials (smtp_password, ...) at rest and in events: 32 bytes, 64 hex or
   * 44 base64 characters. Generated per data directory by `pnpm start`; a Kubernetes Secret.
   */
  SETTINGS_ENCRYPTION_KEY: Type.String({ minLength: 44 }),
});
export type SettingsConfig = Static<typeof SettingsEnv>;
