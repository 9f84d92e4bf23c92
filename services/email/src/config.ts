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
  /** SNS topics whose notifications are accepted (comma separated ARNs); absent = any topic. */
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
  /** Tracking hits are written in batches: at most this many per batch (default 500) ... */
  TRACKING_BATCH_SIZE: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  /** ... and at least this often (default 250 ms). */
  TRACKING_FLUSH_MS: Type.Optional(Type.Integer({ minimum: 10, maximum: 60_000 })),
});
export type EmailConfig = Static<typeof EmailEnv>;

export const DEFAULT_FROM_EMAIL = 'no-reply@parley.local';
export const DEFAULT_FROM_NAME = 'Parley';
/** The company's sales address (web/src/components/contact/company.ts). */
export const DEFAULT_SUPPORT_EMAIL = 'sales@parley.ai';
