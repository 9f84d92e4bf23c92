import { type Static, type TObject, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';

/**
 * Environment configuration. Each service declares a TypeBox schema of the variables it
 * reads; `loadConfig` validates them once at boot and fails naming every bad or missing key.
 */

export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: string[],
  ) {
    super(`Invalid configuration for ${service}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Variables every service understands. */
export const CommonEnv = {
  NODE_ENV: Type.Optional(
    Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')]),
  ),
  LOG_LEVEL: Type.Optional(
    Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
  ),
  HOST: Type.Optional(Type.String()),
  PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ format: 'uri' })),
  /** Shared secret the gateway signs internal assertions with (≥ 32 chars). */
  INTERNAL_AUTH_SECRET: Type.String({ minLength: 32 }),
  /**
   * The public origin in front of the gateway (https://parley.example.com): the one setting
   * every absolute URL is built from (links in mail, feeds, sitemaps, Twilio callbacks, sharing
   * tags). Default http://localhost:3000; `pnpm start` sets its own.
   */
  PUBLIC_ORIGIN: Type.Optional(Type.String({ pattern: '^https?://[^/?#\\s]+/?$' })),
  /**
   * The one switch for load tests from one address: multiplies every per-client request budget
   * of every process alike (the gateway's route budgets, each service's per-route limits such as
   * PUBLIC_WRITE_RATE_LIMIT, TTS_RATE_LIMIT, LOGIN_RATE_LIMIT). Never the global budgets that
   * cap spending (TTS_PAID_CHARS_*, the daily demo-call caps) or the sign-in failure lockouts.
   * Default 1.
   */
  RATE_LIMIT_MULTIPLIER: Type.Optional(Type.Number({ minimum: 1, maximum: 1_000_000 })),
};

export const DEFAULT_PUBLIC_ORIGIN = 'http://localhost:3000';

/** The configured public origin, without a trailing slash. */
export function publicOriginOf(config: { PUBLIC_ORIGIN?: string | undefined }): string {
  return (config.PUBLIC_ORIGIN ?? DEFAULT_PUBLIC_ORIGIN).replace(/\/+$/, '');
}

/** Variables of a service that owns a database and talks on the bus. */
export const ServiceEnv = {
  ...CommonEnv,
  DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://' }),
  /** NATS server(s), comma separated. Absent = in-process bus (embedded mode only). */
  NATS_URL: Type.Optional(Type.String()),
  DATABASE_POOL_MAX: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  /** A failing event is retried for this many hours before it goes to the dead letters (default 24). */
  EVENT_RETRY_HOURS: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 24 * 30 })),
  /** Longest wait between two deliveries of a failing event (default 600 s). */
  EVENT_RETRY_MAX_DELAY_SECONDS: Type.Optional(Type.Number({ minimum: 0.01, maximum: 86_400 })),
  /** Deliveries a consumer handles at once per process (default 8). */
  EVENT_CONCURRENCY: Type.Optional(Type.Integer({ minimum: 1, maximum: 256 })),
  /** Publish attempts before an outbox event that keeps failing becomes a dead letter (default 10). */
  OUTBOX_MAX_ATTEMPTS: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  /** Days the inbox remembers handled event ids (default 7). */
  INBOX_RETENTION_DAYS: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3650 })),
};

/**
 * Reads `schema`'s keys from `env` (strings converted to the declared types) and throws a
 * ConfigError listing every problem at once.
 */
export function loadConfig<T extends TObject>(
  service: string,
  schema: T,
  env: Record<string, string | undefined> = process.env,
): Static<T> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const converted = Value.Convert(schema, raw) as Record<string, unknown>;
  const check = Compile(schema);
  if (check.Check(converted)) return converted as Static<T>;
  const problems = new Map<string, string>();
  for (const err of check.Errors(converted)) {
    const e = err as { instancePath?: string; message?: string; params?: { requiredProperties?: string[] } };
    const missing = e.params?.requiredProperties;
    if (missing?.length) {
      for (const key of missing) problems.set(key, `${key} is required`);
      continue;
    }
    const key = (e.instancePath ?? '').replace(/^\//, '') || '(root)';
    // Never echo values of secrets into logs.
    const shown = /SECRET|PASSWORD|TOKEN|KEY/.test(key) ? '(hidden)' : JSON.stringify(env[key]);
    if (!problems.has(key)) problems.set(key, `${key}: ${e.message ?? 'invalid'} (got ${shown})`);
  }
  throw new ConfigError(service, [...problems.values()]);
}
