import { type Static, Type } from 'typebox';
import { PageOffset, UuidId } from './http.ts';
import { literalUnion } from './schema.ts';
import { MAIL_TRANSPORTS } from './settings.ts';

/**
 * API contracts of the email service's mail half: the settings screen's test sends, the
 * Sent mail view (every message the platform sent, stored as MIME), tracking and unsubscribe.
 */

const IsoDateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** At most 5 test addresses (spec: admin back office §9). */
export const MAX_TEST_EMAILS = 5;

/** POST /api/admin/settings/test-email. Entries are checked by the service (spec messages). */
export const TestEmailBody = Type.Object({
  emails: Type.Array(Type.String({ maxLength: 320 }), { maxItems: 50 }),
});
export type TestEmailBody = Static<typeof TestEmailBody>;

/** POST /api/admin/email/test-tracking. */
export const TestTrackingBody = Type.Object({ email: Type.String({ maxLength: 320 }) });
export type TestTrackingBody = Static<typeof TestTrackingBody>;

export const TestSendResult = Type.Object({
  to: Type.String(),
  result: literalUnion(['sent', 'failed', 'deferred', 'skipped'] as const),
  error: Type.Optional(Type.String()),
  /** The message in the Sent mail view. */
  id: Type.String(),
});

export const TestEmailResponse = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  transport: Type.String(),
  results: Type.Array(TestSendResult),
});
export type TestEmailResponse = Static<typeof TestEmailResponse>;

export const TestTrackingResponse = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  transport: Type.String(),
  trackingId: Type.String(),
  id: Type.String(),
});
export type TestTrackingResponse = Static<typeof TestTrackingResponse>;

/**
 * GET /api/admin/email/transport: where mail goes now (as the settings are saved now), what
 * the admin chose (`mail_transport`, null while never chosen) and which choices the email
 * service can honour (SES only when the operator configured it: SES_REGION).
 */
export const MailTransportStatus = Type.Object({
  chosen: Nullable(literalUnion(MAIL_TRANSPORTS)),
  /** The transport in force, or null when the chosen one cannot be used (see `problem`). */
  current: Nullable(literalUnion(MAIL_TRANSPORTS)),
  description: Type.String(),
  problem: Nullable(Type.String()),
  smtp: Type.Object({ available: Type.Boolean(), host: Nullable(Type.String()), port: Type.Integer() }),
  ses: Type.Object({ available: Type.Boolean(), region: Nullable(Type.String()) }),
});
export type MailTransportStatus = Static<typeof MailTransportStatus>;

export const MAIL_STATUSES = ['pending', 'sending', 'sent', 'failed', 'unknown'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** Sent mail counts the messages of a search up to this many (`totalExact` false beyond). */
export const SENT_MAIL_COUNT_CAP = 10_000;
/** How long Sent mail keeps every message by default (SENT_MAIL_RETENTION_DAYS). */
export const DEFAULT_SENT_MAIL_RETENTION_DAYS = 30;

/**
 * GET /api/admin/email/outbox: newest first; `before` (the previous page's `nextCursor`) pages
 * on; the filters are indexed: `to` an address or its beginning (any case), `campaignId`, `kind`.
 * `q` matches recipient or subject anywhere (it reads the messages newest first until a page
 * is found: slower on a large mailbox).
 */
export const OutboxQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: PageOffset(),
  before: Type.Optional(Type.String({ maxLength: 200 })),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  to: Type.Optional(Type.String({ maxLength: 320 })),
  campaignId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  kind: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
});
export type OutboxQuery = Static<typeof OutboxQuery>;

export const SentMailSummary = Type.Object({
  id: Type.String(),
  messageId: Type.String(),
  kind: Type.String(),
  from: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  status: literalUnion(MAIL_STATUSES),
  transport: Nullable(Type.String()),
  hasCalendar: Type.Boolean(),
  marketing: Type.Boolean(),
  sizeBytes: Type.Integer(),
  lastError: Nullable(Type.String()),
  createdAt: IsoDateTime,
  sentAt: Nullable(IsoDateTime),
  /** The campaign (or newsletter's campaign) it belongs to. */
  campaignId: Nullable(Type.Integer()),
  testMode: Type.Boolean(),
  /** Kept as metadata; its content is rendered again from its send's on view (campaign mail). */
  rendered: Type.Boolean(),
});
export type SentMailSummary = Static<typeof SentMailSummary>;

export const OutboxPage = Type.Object({
  items: Type.Array(SentMailSummary),
  /** Messages matching the filters, counted up to SENT_MAIL_COUNT_CAP. */
  total: Type.Integer(),
  totalExact: Type.Boolean(),
  /** The `before` of the next (older) page; null on the last. */
  nextCursor: Nullable(Type.String()),
  /** Every message is kept this many days (SENT_MAIL_RETENTION_DAYS), then pruned. */
  retentionDays: Type.Integer(),
  /** The campaigns and newsletters that sent mail, newest first (the campaign filter). */
  campaigns: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      kind: literalUnion(['campaign', 'newsletter'] as const),
    }),
  ),
  /** The transport new mail goes through now (local, smtp, ses) and where to. */
  transport: Type.String(),
  transportDescription: Type.String(),
});
export type OutboxPage = Static<typeof OutboxPage>;

export const SentMailTracking = Type.Object({
  trackingId: Type.String(),
  status: Type.String(),
  openCount: Type.Integer(),
  proxyOpenCount: Type.Integer(),
  clickCount: Type.Integer(),
  openedAt: Nullable(IsoDateTime),
  clickedAt: Nullable(IsoDateTime),
  lastClickUrl: Nullable(Type.String()),
  deviceType: Nullable(Type.String()),
  browserType: Nullable(Type.String()),
  bouncedAt: Nullable(IsoDateTime),
  unsubscribedAt: Nullable(IsoDateTime),
});

export const SentMailDetail = Type.Object({
  ...SentMailSummary.properties,
  /** The HTML part passed through sanitize-html: show it in a sandboxed frame only. */
  html: Nullable(Type.String()),
  text: Nullable(Type.String()),
  headers: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
  /** The whole message as sent (MIME; campaign mail rendered again from its send's content). */
  raw: Type.String(),
  /** The text/calendar part (invite.ics), when the message carries one. */
  calendar: Nullable(Type.String()),
  attachments: Type.Array(
    Type.Object({ filename: Type.String(), contentType: Type.String(), sizeBytes: Type.Integer() }),
  ),
  tracking: Nullable(SentMailTracking),
  /** Why the content cannot be shown (a campaign mail whose campaign was deleted), or null. */
  contentNote: Nullable(Type.String()),
});
export type SentMailDetail = Static<typeof SentMailDetail>;

export const MailIdParams = Type.Object({ id: UuidId() });

export const TrackingIdParams = Type.Object({ trackingId: Type.String({ maxLength: 200 }) });
export const ClickQuery = Type.Object({
  u: Type.Optional(Type.String({ maxLength: 4096 })),
  s: Type.Optional(Type.String({ maxLength: 100 })),
});
export const UnsubscribeParams = Type.Object({ token: Type.String({ maxLength: 200 }) });

export const UnsubscribeResponse = Type.Object({ success: Type.Literal(true), message: Type.String() });
