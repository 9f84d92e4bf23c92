import { type Static, Type } from 'typebox';

// ── deliverability: the admin API (spec: email marketing §2 Deliverability tab, §3, §5, §7, §8, §9) ──

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Count = Type.Integer({ minimum: 0 });
const IsoDateTime = Type.String({ format: 'date-time' });
/** A percentage 0..100 (three decimals: complaint rates live around 0.1 %). */
const Percent = Type.Number({ minimum: 0, maximum: 100 });

/** Spec §9: the score's labels. */
export const DELIVERABILITY_LABELS = ['Excellent', 'Good', 'Needs Improvement'] as const;
export type DeliverabilityLabel = (typeof DELIVERABILITY_LABELS)[number];

/** Spec §9: 90 and up Excellent, 70 and up Good, otherwise Needs Improvement. */
export const deliverabilityLabel = (score: number): DeliverabilityLabel =>
  score >= 90 ? 'Excellent' : score >= 70 ? 'Good' : 'Needs Improvement';

/**
 * The rates the score is measured against, in percent: `good` is the industry's line (at or
 * below it costs at most 10 points), `limit` the point mailbox providers act on (30 points).
 * Bounces: 2 % is the common ESP line, 5 % where Amazon SES and others review an account.
 * Complaints: Gmail's and Yahoo's 2024 sender rules ask for < 0.1 % and never 0.3 %.
 * Unsubscribes: > 0.5 % per send is high; 2 % says the list or the content is wrong. Weight
 * scales the points (unsubscribing is the healthy alternative to a complaint: half weight).
 */
export const DELIVERABILITY_THRESHOLDS = {
  bounce: { good: 2, limit: 5, weight: 1 },
  complaint: { good: 0.1, limit: 0.3, weight: 1 },
  unsubscribe: { good: 0.5, limit: 2, weight: 0.5 },
} as const;

/** The score is measured on campaign mail sent in this many days (mailbox providers judge recent mail). */
export const DELIVERABILITY_WINDOW_DAYS = 90;

/** The records of the spec's DNS check. */
export const DNS_CHECK_KEYS = ['spf', 'dkim', 'dmarc', 'mx'] as const;
export type DnsCheckKey = (typeof DNS_CHECK_KEYS)[number];

export const DELIVERABILITY_SEVERITIES = ['critical', 'warning', 'info', 'success'] as const;
export type DeliverabilitySeverity = (typeof DELIVERABILITY_SEVERITIES)[number];

export const DeliverabilityRecommendation = Type.Object({
  /** Stable key (bounce_rate_high, dns_spf_missing, no_sends, ...). */
  code: Type.String(),
  severity: Type.Enum(DELIVERABILITY_SEVERITIES),
  text: Type.String(),
});
export type DeliverabilityRecommendation = Static<typeof DeliverabilityRecommendation>;

/** The sender-domain authentication that fed the recommendations (the DNS check, cached a few minutes). */
export const DeliverabilityAuthentication = Type.Object({
  domain: Type.String(),
  spf: Type.Boolean(),
  dkim: Type.Boolean(),
  dmarc: Type.Boolean(),
  mx: Type.Boolean(),
  /** Records whose lookup failed: unknown (shown false), not known to be missing. */
  unchecked: Type.Array(Type.Enum(DNS_CHECK_KEYS)),
  checkedAt: IsoDateTime,
});
export type DeliverabilityAuthentication = Static<typeof DeliverabilityAuthentication>;

/**
 * GET /api/admin/email/deliverability. The spec's fields (deliverabilityScore, the contact
 * counts, overallStats, recommendations) plus what they rest on. The score is null when there
 * is nothing to measure (no campaign mail sent in the window): never a made-up 100.
 */
export const DeliverabilityReport = Type.Object({
  /** true: mail of test-mode sends was counted too (includeTest=true); else live mail only. */
  includesTestMail: Type.Boolean(),
  /** 0..100, or null when nothing was measured (see `measured` and `basis`). */
  deliverabilityScore: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  scoreLabel: Nullable(Type.Enum(DELIVERABILITY_LABELS)),
  measured: Type.Boolean(),
  /** What the score rests on, in a sentence. */
  basis: Type.String(),
  windowDays: Type.Integer({ minimum: 1 }),
  /** Campaign mail sent in the window and what happened to it; the rates the score uses. */
  rates: Type.Object({
    sent: Count,
    delivered: Count,
    bounced: Count,
    complained: Count,
    unsubscribed: Count,
    /** bounced / sent */
    bounceRate: Percent,
    /** complained / delivered */
    complaintRate: Percent,
    /** unsubscribed / delivered */
    unsubscribeRate: Percent,
  }),
  /** Points each rate took off 100 (0 when nothing was measured). */
  penalties: Type.Object({
    bounce: Type.Number({ minimum: 0 }),
    complaint: Type.Number({ minimum: 0 }),
    unsubscribe: Type.Number({ minimum: 0 }),
  }),
  /** Contacts in all address books (as the Contacts tab counts them: one per book entry). */
  totalContacts: Count,
  activeContacts: Count,
  unsubscribedContacts: Count,
  bouncedContacts: Count,
  /** All campaign mail ever sent. */
  overallStats: Type.Object({
    totalSent: Count,
    /** Sent and not bounced (accepted by the receiving server, no bounce came back). */
    totalDelivered: Count,
    /** Opened by a person (opens fetched by a privacy proxy such as Apple MPP are not counted). */
    totalOpened: Count,
    totalClicked: Count,
    totalBounced: Count,
    totalUnsubscribed: Count,
    totalComplained: Count,
    /** Refused by the mail server when handed over (never left). */
    totalFailed: Count,
  }),
  /** Spec: a list of texts, most urgent first. */
  recommendations: Type.Array(Type.String()),
  /** The same recommendations with a key and a severity. */
  recommendationDetails: Type.Array(DeliverabilityRecommendation),
  /** Sender domains checked for the recommendations (the settings' sender and recent campaigns' senders). */
  authentication: Type.Array(DeliverabilityAuthentication),
  generatedAt: IsoDateTime,
});
export type DeliverabilityReport = Static<typeof DeliverabilityReport>;

// ── DNS check ──

/**
 * pass: published and fine; warning: published, with advice to strengthen it (SPF `?all`,
 * DMARC `p=none`); missing: not published; invalid: published but does not count (two SPF
 * records, a revoked DKIM key, a null MX); error: the lookup failed, nothing could be told.
 */
export const DNS_CHECK_STATUSES = ['pass', 'warning', 'missing', 'invalid', 'error'] as const;
export type DnsCheckStatus = (typeof DNS_CHECK_STATUSES)[number];

export const DnsRecordSuggestion = Type.Object({
  type: Type.Enum(['TXT', 'MX'] as const),
  /** The full DNS name to publish it at. */
  name: Type.String(),
  value: Type.String(),
});
export type DnsRecordSuggestion = Static<typeof DnsRecordSuggestion>;

export const DnsRecordCheck = Type.Object({
  key: Type.Enum(DNS_CHECK_KEYS),
  /** SPF, DKIM, DMARC, MX */
  label: Type.String(),
  ok: Type.Boolean(),
  status: Type.Enum(DNS_CHECK_STATUSES),
  /** The DNS name looked up. */
  name: Type.String(),
  /** The records found there (for MX: the hosts, by priority). */
  found: Type.Array(Type.String()),
  /** What it means and what to do, in a sentence or two. */
  advice: Type.String(),
  /** A record to publish (or to replace the found one with), when one can be suggested. */
  suggestion: Nullable(DnsRecordSuggestion),
  /** Why the lookup failed (status error). */
  error: Nullable(Type.String()),
});
export type DnsRecordCheck = Static<typeof DnsRecordCheck>;

/** GET /api/admin/email/dns-check?domain= (optional: another sender domain than the settings' sender). */
export const DnsCheckQuery = Type.Object({
  domain: Type.Optional(Type.String({ minLength: 1, maxLength: 253 })),
});
export type DnsCheckQuery = Static<typeof DnsCheckQuery>;

/**
 * GET /api/admin/email/dns-check: the spec's flags (spf, dkim, dmarc, mx) of the sender's
 * domain, with the records found and what to publish. Answered 200 even when lookups time
 * out: the flags are then false and `errors` says which lookups failed and why.
 */
export const DnsCheckResult = Type.Object({
  spf: Type.Boolean(),
  dkim: Type.Boolean(),
  dmarc: Type.Boolean(),
  mx: Type.Boolean(),
  domain: Type.String(),
  /** The address whose domain was checked (the settings' sender), null when a domain was asked for. */
  fromAddress: Nullable(Type.String()),
  /** The DKIM selector looked up (DKIM_SELECTOR, default "default"). */
  selector: Type.String(),
  records: Type.Object({
    spf: Nullable(Type.String()),
    dkim: Nullable(Type.String()),
    dmarc: Nullable(Type.String()),
    mx: Type.Array(Type.String()),
  }),
  checks: Type.Array(DnsRecordCheck),
  /** Failed lookups by flag (spf, dkim, dmarc, mx, or domain). */
  errors: Type.Record(Type.String(), Type.String()),
  /** The name servers asked. */
  nameServers: Type.Array(Type.String()),
  durationMs: Type.Integer({ minimum: 0 }),
  checkedAt: IsoDateTime,
});
export type DnsCheckResult = Static<typeof DnsCheckResult>;
