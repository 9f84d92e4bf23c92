import type { StorageMode } from '@parley/contracts';
import { ServiceEnv } from '@parley/kit/config';
import { type Static, Type } from 'typebox';

export const SettingsEnv = Type.Object({
  ...ServiceEnv,
  /**
   * Key that seals credentials (smtp_password, ...) at rest and in events: 32 bytes, 64 hex or
   * 44 base64 characters. Generated per data directory by `pnpm start`; a Kubernetes Secret.
   */
  SETTINGS_ENCRYPTION_KEY: Type.String({ minLength: 44 }),
  /** OpenAI refines the brand analysis when set; the local analysis otherwise. */
  OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 10 })),
  /** Chat model for the brand analysis (default gpt-4o-mini). */
  SETTINGS_AI_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * Where the platform keeps its data, for the General tab: `embedded` (the PostgreSQL that
   * `pnpm start` runs) or `external` (a server of the operator's). Unset = not reported.
   */
  PARLEY_STORAGE: Type.Optional(Type.Enum(['embedded', 'external'] as const)),
  /** The embedded platform's data directory (shown with PARLEY_STORAGE=embedded). */
  PARLEY_DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  /** Brand crawls per admin client per minute (default 10). */
  SETTINGS_CRAWL_RATE_LIMIT: Type.Optional(Type.Integer({ minimum: 1 })),
  /** How long a service may take to answer a diagnostic question, in ms (default 3000). */
  DIAGNOSTICS_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 100, maximum: 60_000 })),
  /**
   * How long a save waits for each service that keeps a copy of the settings to apply it, in
   * ms (default 3000); past it the save answers with that service as pending.
   */
  SETTINGS_APPLY_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 100, maximum: 60_000 })),
  /**
   * TEST ONLY — off by default. Comma-separated `ip:port` pairs the brand crawl may reach even
   * though they are loopback or private (a fixture site in tests). Never set in production:
   * every address in it is an SSRF hole for that port.
   */
  SETTINGS_CRAWL_ALLOW_PRIVATE: Type.Optional(
    Type.String({
      pattern: '^(\\[[0-9a-fA-F:.]+\\]|[0-9.]+):\\d{1,5}(,(\\[[0-9a-fA-F:.]+\\]|[0-9.]+):\\d{1,5})*$',
    }),
  ),
});
export type SettingsConfig = Static<typeof SettingsEnv>;

export const storageModeOf = (config: SettingsConfig): StorageMode => config.PARLEY_STORAGE ?? 'unspecified';
