import { ServiceEnv } from '@parley/kit/config';
import { type Static, Type } from 'typebox';

export const EmailEnv = Type.Object({
  ...ServiceEnv,
  /** The settings service's key: opens the SMTP password published sealed in settings events. */
  SETTINGS_ENCRYPTION_KEY: Type.String({ minLength: 44 }),
  /** Signs tracking and unsubscribe tokens (≥ 32 characters). Generated per data directory by `pnpm start`. */
  EMAIL_SIGNING_SECRET: Type.String({ minLength: 32 }),
  /** Sender when the settings name none (`smtp_from_email` / `smtp_from_name`). */
  MAIL_FROM_EMAIL: Type.Optional(Type.String({ format: 'email' })),
  MAIL_FROM_NAME: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  /** Where booking and contact notifications go when the `support_email` setting is empty. */
  SUPPORT_EMAIL: Type.Optional(Type.String({ format: 'email' })),
  /** Amazon SES: set the region to send through SES (SendRawEmail) instead of SMTP or the local mailbox. */
  SES_REGION: Type.Optional(Type.String({ pattern: '^[a-z]{2}(-[a-z]+)+-\\d$' })),
  /** SES API endpoint override (a local moto_server in tests). */
  SES_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Credentials; absent = the AWS SDK's default chain (instance role, IRSA, env). */
  SES_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  SES_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** SES configuration set (event publishing to SNS). */
  SES_CONFIGURATION_SET: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * SNS topics whose notifications (and subscription confirmations) are accepted, comma
   * separated ARNs; absent = none: every SNS message is refused.
   */
  SNS_TOPIC_ARNS: Type.Optional(Type.String()),
  /**
   * TESTS ONLY: origins besides https://sns.<region>.amazonaws.com from which signing
   * certificates and subscription confirmations are fetched (comma separated). Off by default.
   */
  SNS_TEST_CERT_ORIGINS: Type.Optional(Type.String()),
  /** DKIM signing of SMTP mail (nodemailer): domain, selector and the PEM private key. */
  DKIM_DOMAIN: Type.Optional(Type.String({ minLength: 1 })),
  DKIM_SELECTOR: Type.Optional(Type.String({ minLength: 1 })),
  DKIM_PRIVATE_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** Name servers the deliverability DNS check asks (comma separated `host` or `host:port`); absent = the system's. */
  DNS_SERVERS: Type.Optional(Type.String({ minLength: 1 })),
  /** The longest one DNS check may take, all lookups together (default 3000 ms); unanswered lookups are reported as errors. */
  DNS_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 100, maximum: 30_000 })),
  /** AI campaign writing (src/writer): OpenAI writes and optimizes when set; the local writer otherwise. */
  OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 10 })),
  /** The OpenAI chat model (default gpt-4o-mini). */
  EMAIL_AI_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  /** Generate and optimize calls per admin per minute, per replica, each (default 10). */
  EMAIL_AI_RATE_LIMIT: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  /** Tracking hits are written in batches: at most this many per batch (default 500) ... */
  TRACKING_BATCH_SIZE: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  /** ... and at least this often (default 250 ms). */
  TRACKING_FLUSH_MS: Type.Optional(Type.Integer({ minimum: 10, maximum: 60_000 })),
  /** Contacts written since are copied into the search index this often (default 1000 ms). */
  SEARCH_INDEX_MS: Type.Optional(Type.Integer({ minimum: 10, maximum: 3_600_000 })),
  /** Campaign sends (src/campaigns): this replica runs a sender (default true; 'false' = API only). */
  CAMPAIGN_WORKER: Type.Optional(Type.Boolean()),
  /** Messages per second this replica hands to the transport (token bucket); 0 or absent = no limit. */
  CAMPAIGN_RATE_PER_SECOND: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000 })),
  /**
   * A sliding window shared by every replica (listmonk's "sliding window limit"): at most this
   * many campaign messages in any CAMPAIGN_WINDOW_SECONDS (default 3600). Absent = no window.
   */
  CAMPAIGN_WINDOW_MESSAGES: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
  CAMPAIGN_WINDOW_SECONDS: Type.Optional(Type.Number({ minimum: 1, maximum: 2_592_000 })),
  /**
   * Live campaign sends (send or resend) per rolling hour, all replicas together (default 2,
   * the spec's limit). Raised only where one admin's hour is not the point: the browser suite,
   * a load test.
   */
  CAMPAIGN_LIVE_SENDS_PER_HOUR: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  /** Recipients one claim takes (default 200). */
  CAMPAIGN_BATCH_SIZE: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
  /** Messages one replica has at the transport at once (default 20). */
  CAMPAIGN_CONCURRENCY: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  /** Pooled SMTP connections per replica (default 5). */
  CAMPAIGN_SMTP_CONNECTIONS: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  /** A claimed recipient not settled after this long is marked unknown (default 300 s). */
  CAMPAIGN_LEASE_SECONDS: Type.Optional(Type.Number({ minimum: 0.1, maximum: 86_400 })),
  /** Temporary (4xx) refusals: first retry after this long, doubling (default 60 s) ... */
  CAMPAIGN_RETRY_BASE_SECONDS: Type.Optional(Type.Number({ minimum: 0, maximum: 86_400 })),
  /** ... up to this many attempts in all (default 4). */
  CAMPAIGN_MAX_ATTEMPTS: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
  /** An idle sender looks for work this often (default 500 ms). */
  CAMPAIGN_POLL_MS: Type.Optional(Type.Integer({ minimum: 10, maximum: 60_000 })),
  /** The scheduler and the lease reaper run this often (default 2000 ms). */
  CAMPAIGN_TICK_MS: Type.Optional(Type.Integer({ minimum: 10, maximum: 600_000 })),
  /** Sent mail keeps every message this many days (default 30); older ones are pruned. */
  SENT_MAIL_RETENTION_DAYS: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
  /** Sent mail's pruning runs this often (default 600000 ms: 10 minutes) ... */
  SENT_MAIL_PRUNE_MS: Type.Optional(Type.Integer({ minimum: 100, maximum: 86_400_000 })),
  /** ... deleting at most this many messages per statement (default 5000). */
  SENT_MAIL_PRUNE_BATCH: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  /** Connection failures in one batch that start the 24-hour cooling period (default 3). */
  CAMPAIGN_CONNECTION_FAILURES: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
});
export type EmailConfig = Static<typeof EmailEnv>;

export const DEFAULT_FROM_EMAIL = 'no-reply@parley.local';
export const DEFAULT_FROM_NAME = 'Parley';
/** The company's sales address (web/src/components/contact/company.ts). */
export const DEFAULT_SUPPORT_EMAIL = 'sales@parley.ai';
