import { type Static, Type } from 'typebox';
import { CampaignStatusSchema } from './email-campaigns.ts';

/**
 * Campaign analytics (email marketing §2 Analytics and Advanced analytics tabs, the engagement
 * report dialog, §3 responses, §7 calls). Every figure is counted from the campaign mails
 * themselves (one `email_tracking` row per mail, its events in `email_events`); nothing is
 * estimated except the three deliverability values the spec gives as defaults, which say so.
 *
 * Shared definitions (docs/adr/0057-what-email-reports-count.md; docs/architecture.md,
 * Email, Analytics):
 * - sent: campaign mails the transport accepted; delivered = sent − bounced.
 * - opened: mails opened by a person (a mail-privacy proxy's image fetch, e.g. Apple Mail
 *   Privacy Protection, is not a human open); proxyOpened: mails whose only opens were
 *   proxy fetches, reported apart and never in the open rate.
 * - clicked / bounced / unsubscribed / complained: mails with at least one of these.
 * - openRate, clickRate, bounceRate, unsubscribeRate: percent of sent, one decimal (as the
 *   campaign card). engagementRate: mails opened by a person or clicked, percent of delivered.
 */

const IsoDateTime = Type.String({ format: 'date-time' });
const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Count = Type.Integer({ minimum: 0 });
const Percent = Type.Number({ minimum: 0 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** Spec §9: the periods of the Advanced analytics tab. */
export const ANALYTICS_PERIODS = ['7d', '30d', '90d', '1y'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
/** Days each period covers (1y = 52 weeks, so its weekly buckets are whole). */
export const ANALYTICS_PERIOD_DAYS: Record<AnalyticsPeriod, number> = {
  '7d': 7,
  '30d': 30,
  '90d': 90,
  '1y': 364,
};
/** How many newest opens and clicks an engagement report lists (the summary counts all). */
export const ENGAGEMENT_REPORT_LIMIT = 1000;
/** Spec §9: what the deliverability health shows until these are measured. */
export const DELIVERABILITY_DEFAULTS = { reputation: 85, spamScore: 2.3, blacklistStatus: 'Clean' } as const;

/**
 * What sent the mail: a campaign, or a newsletter (whose sends run as a campaign hidden from
 * the Campaigns tab, named after the newsletter; its id is that campaign's).
 */
export const MailingKind = Type.Enum(['campaign', 'newsletter'] as const);
export type MailingKind = Static<typeof MailingKind>;

// ── GET /api/admin/email/analytics ──────────────────────────────────────────

export const CampaignAnalytics = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  kind: MailingKind,
  status: CampaignStatusSchema,
  /** When the campaign's last send finished (null while its first send runs). */
  sentAt: Nullable(IsoDateTime),
  /** Recipients of its sends so far (test mode: the test addresses). */
  recipients: Count,
  sent: Count,
  delivered: Count,
  /** Mails opened by a person (unique). */
  opens: Count,
  /** Mails only a privacy proxy fetched (not in opens or the open rate). */
  proxyOpens: Count,
  clicks: Count,
  bounces: Count,
  unsubscribes: Count,
  openRate: Percent,
  clickRate: Percent,
  bounceRate: Percent,
});
export type CampaignAnalytics = Static<typeof CampaignAnalytics>;

/** The counts of a set of campaign mails, as the Analytics tab, the period figures and a report show them. */
const MAIL_TOTALS = {
  totalSent: Count,
  totalDelivered: Count,
  /** Human opens (unique per mail); proxy-only opens are `totalProxyOpened`. */
  totalOpened: Count,
  totalProxyOpened: Count,
  totalClicked: Count,
  totalBounced: Count,
  totalUnsubscribed: Count,
};

/**
 * The Analytics tab: totals over every campaign mail ever sent, and a row per campaign that
 * has been launched (drafts never sent are left out), newest first.
 */
/**
 * Every report counts live mail only: mail of test-mode sends (to the saved test addresses)
 * is left out unless `includeTest=true` asks for it; each answer says which it counted.
 */
export const IncludeTestQuery = Type.Object({
  includeTest: Type.Optional(
    Type.Boolean({ description: 'Count the mail of test-mode sends too (default false: live mail only)' }),
  ),
});
export type IncludeTestQuery = Static<typeof IncludeTestQuery>;

/** Whether an answer counted test-mode mail (includeTest) or live mail only. */
const IncludesTestMail = Type.Boolean({ description: 'true: test-mode mail is counted too' });

export const EmailAnalyticsResponse = Type.Object({
  includesTestMail: IncludesTestMail,
  ...MAIL_TOTALS,
  openRate: Percent,
  clickRate: Percent,
  bounceRate: Percent,
  engagementRate: Percent,
  campaigns: Type.Array(CampaignAnalytics),
  generatedAt: IsoDateTime,
});
export type EmailAnalyticsResponse = Static<typeof EmailAnalyticsResponse>;

// ── GET /api/admin/email/advanced-analytics and campaign-comparison ─────────

/**
 * `period`: 7d, 30d, 90d or 1y (default 30d; anything else is a 400 naming the four).
 * `tz`: an IANA time zone (e.g. Europe/Paris) whose calendar days the trend uses (default UTC).
 */
export const AnalyticsPeriodQuery = Type.Object({
  period: Type.Optional(Type.String({ maxLength: 20, description: 'One of 7d, 30d, 90d, 1y (default 30d)' })),
  tz: Type.Optional(
    Type.String({ maxLength: 64, description: 'IANA time zone of the day buckets (default UTC)' }),
  ),
  ...IncludeTestQuery.properties,
});
export type AnalyticsPeriodQuery = Static<typeof AnalyticsPeriodQuery>;

/** The window a period answer covers: [from, to) and the previous window of equal length. */
export const AnalyticsWindow = Type.Object({
  period: Type.Enum(ANALYTICS_PERIODS),
  timeZone: Type.String(),
  /** Local midnight of the period's first day. */
  from: IsoDateTime,
  /** Now. */
  to: IsoDateTime,
  /** The previous period: as long as [from, to), just before it. */
  previousFrom: IsoDateTime,
  previousTo: IsoDateTime,
});
export type AnalyticsWindow = Static<typeof AnalyticsWindow>;

/** Figures of the campaign mails SENT in a window (whatever day they were opened). */
export const PeriodPerformance = Type.Object({
  ...MAIL_TOTALS,
  totalComplained: Count,
  /** Mails opened by a person or clicked. */
  totalEngaged: Count,
  openRate: Percent,
  clickRate: Percent,
  bounceRate: Percent,
  unsubscribeRate: Percent,
  engagementRate: Percent,
});
export type PeriodPerformance = Static<typeof PeriodPerformance>;

/**
 * One metric now and in the previous period. `change`: percent change of the value
 * (null when the previous value is 0: no base to compare with). `pointChange` (rates only):
 * the difference in percentage points (null when nothing was sent in the previous period).
 */
export const MetricChange = Type.Object({
  current: Type.Number(),
  previous: Type.Number(),
  change: Nullable(Type.Number()),
  pointChange: Type.Optional(Nullable(Type.Number())),
});
export type MetricChange = Static<typeof MetricChange>;

export const CHANGE_METRICS = [
  'sent',
  'delivered',
  'opened',
  'clicked',
  'bounced',
  'unsubscribed',
  'openRate',
  'clickRate',
  'bounceRate',
  'unsubscribeRate',
  'engagementRate',
] as const;
export type ChangeMetric = (typeof CHANGE_METRICS)[number];

/** Every metric of CHANGE_METRICS now and in the previous period. */
export const MetricChanges = Type.Object({
  sent: MetricChange,
  delivered: MetricChange,
  opened: MetricChange,
  clicked: MetricChange,
  bounced: MetricChange,
  unsubscribed: MetricChange,
  openRate: MetricChange,
  clickRate: MetricChange,
  bounceRate: MetricChange,
  unsubscribeRate: MetricChange,
  engagementRate: MetricChange,
});
export type MetricChanges = Static<typeof MetricChanges>;

/**
 * What happened in one bucket (a local day; a week of 7 days for 1y, labelled by its first
 * day). sent: mails accepted that day. opens / proxyOpens / clicks: mails first opened by a
 * person / first fetched by a privacy proxy / first clicked in the bucket (a mail opened on two
 * days counts on the first, so the buckets add up to unique counts). bounces / unsubscribes:
 * mails that bounced / unsubscribed then (each mail once).
 */
export const TrendPoint = Type.Object({
  date: IsoDate,
  sent: Count,
  opens: Count,
  proxyOpens: Count,
  clicks: Count,
  bounces: Count,
  unsubscribes: Count,
});
export type TrendPoint = Static<typeof TrendPoint>;

/** A campaign's mails sent in the window, side by side with others. */
export const CampaignPeriodRow = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  kind: MailingKind,
  status: CampaignStatusSchema,
  /** Its first mail sent in the window. */
  sentAt: IsoDateTime,
  sent: Count,
  delivered: Count,
  opens: Count,
  proxyOpens: Count,
  clicks: Count,
  bounces: Count,
  unsubscribes: Count,
  openRate: Percent,
  clickRate: Percent,
  bounceRate: Percent,
  unsubscribeRate: Percent,
  engagementRate: Percent,
});
export type CampaignPeriodRow = Static<typeof CampaignPeriodRow>;

export const TopCampaign = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  kind: MailingKind,
  sent: Count,
  openRate: Percent,
  clickRate: Percent,
  engagementRate: Percent,
  /** Always 0: no revenue is tracked (see `revenueTracked`). */
  revenue: Type.Number(),
});
export type TopCampaign = Static<typeof TopCampaign>;

/** An address book as an audience segment, with its contacts' engagement in the window. */
export const SegmentPerformance = Type.Object({
  segment: Type.String(),
  addressBookId: Type.Integer(),
  /** Contacts in the book now (all statuses). */
  size: Count,
  activeContacts: Count,
  /** Campaign mails sent in the window to contacts of this book. */
  sent: Count,
  /** Of those delivered, percent opened by a person or clicked; null when none was delivered. */
  engagement: Nullable(Percent),
});
export type SegmentPerformance = Static<typeof SegmentPerformance>;

export const AuthenticationStatus = Type.Object({
  spf: Type.Boolean(),
  dkim: Type.Boolean(),
  dmarc: Type.Boolean(),
  /** The from-address domain looked up ('' when there is none). */
  domain: Type.String(),
  selector: Type.String(),
  /** False when DNS did not answer in time: the flags then say nothing. */
  checked: Type.Boolean(),
  checkedAt: Nullable(IsoDateTime),
  /** Why the check could not tell (timeouts, SERVFAIL), else null. */
  note: Nullable(Type.String()),
});
export type AuthenticationStatus = Static<typeof AuthenticationStatus>;

export const DeliverabilityHealth = Type.Object({
  /** Real DNS lookups of SPF, DKIM (selector from config) and DMARC, cached 5 minutes. */
  authenticationStatus: AuthenticationStatus,
  /** The spec's default (85), not measured: see `defaults`. */
  reputation: Type.Number(),
  /** The spec's default (2.3), not measured. */
  spamScore: Type.Number(),
  /** The spec's default ('Clean'), not measured. */
  blacklistStatus: Type.String(),
  defaults: Type.Object({
    measured: Type.Literal(false),
    source: Type.Literal('default'),
    fields: Type.Array(Type.String()),
    note: Type.String(),
  }),
  /** Measured in the window, percent of sent. */
  bounceRate: Percent,
  complaintRate: Percent,
  unsubscribeRate: Percent,
});
export type DeliverabilityHealth = Static<typeof DeliverabilityHealth>;

export const AdvancedAnalyticsResponse = Type.Object({
  ...AnalyticsWindow.properties,
  includesTestMail: IncludesTestMail,
  /** 'day' for 7d, 30d, 90d; 'week' (7 days from the period's first day) for 1y. */
  bucket: Type.Enum(['day', 'week'] as const),
  campaignPerformance: PeriodPerformance,
  previousPerformance: PeriodPerformance,
  changes: MetricChanges,
  /** campaignPerformance.engagementRate, at the top for the overview. */
  engagementRate: Percent,
  trend: Type.Array(TrendPoint),
  topPerformingCampaigns: Type.Array(TopCampaign),
  /** No order or revenue data reaches the email service: revenue figures are 0, not estimates. */
  revenueTracked: Type.Literal(false),
  audienceInsights: Type.Object({
    totalContacts: Count,
    activeSubscribers: Count,
    /** Segments are address books. */
    segmentBy: Type.Literal('addressBook'),
    segmentPerformance: Type.Array(SegmentPerformance),
    segmentsTruncated: Type.Boolean(),
  }),
  deliverabilityHealth: DeliverabilityHealth,
  generatedAt: IsoDateTime,
});
export type AdvancedAnalyticsResponse = Static<typeof AdvancedAnalyticsResponse>;

/** GET /api/admin/email/campaign-comparison: the campaigns that sent mail in the window, newest first. */
export const CampaignComparisonResponse = Type.Object({
  ...AnalyticsWindow.properties,
  includesTestMail: IncludesTestMail,
  campaigns: Type.Array(CampaignPeriodRow),
  /** More campaigns sent in the window than listed (the newest 100 are). */
  truncated: Type.Boolean(),
  /** All campaign mails sent in the window together. */
  totals: PeriodPerformance,
  generatedAt: IsoDateTime,
});
export type CampaignComparisonResponse = Static<typeof CampaignComparisonResponse>;

// ── GET /api/admin/email/campaigns/{id}/engagement-report ───────────────────

const Person = {
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  contactEmail: Type.String(),
  company: Nullable(Type.String()),
  contactId: Nullable(Type.Integer()),
};

export const EngagementOpen = Type.Object({
  ...Person,
  /** First open (by a person; for a proxy open: the proxy's first fetch). */
  openedAt: IsoDateTime,
  lastOpenedAt: Nullable(IsoDateTime),
  openCount: Count,
  /** False for a person's open; true in `proxyOpens`. */
  proxy: Type.Boolean(),
  /** apple-mpp, gmail-proxy, yahoo-proxy (proxy opens only). */
  proxyName: Nullable(Type.String()),
  deviceType: Nullable(Type.String()),
});
export type EngagementOpen = Static<typeof EngagementOpen>;

export const EngagementClick = Type.Object({
  ...Person,
  clickedAt: IsoDateTime,
  lastClickedAt: Nullable(IsoDateTime),
  clickCount: Count,
  lastClickUrl: Nullable(Type.String()),
});
export type EngagementClick = Static<typeof EngagementClick>;

export const EngagementSummary = Type.Object({
  ...MAIL_TOTALS,
  openRate: Percent,
  clickRate: Percent,
});
export type EngagementSummary = Static<typeof EngagementSummary>;

export const EngagementReportResponse = Type.Object({
  success: Type.Literal(true),
  includesTestMail: IncludesTestMail,
  campaign: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    status: CampaignStatusSchema,
    sentAt: Nullable(IsoDateTime),
  }),
  engagementReport: Type.Object({
    /** Mails opened by a person, newest first (at most ENGAGEMENT_REPORT_LIMIT). */
    opens: Type.Array(EngagementOpen),
    /** Mails only a privacy proxy fetched, apart from the opens. */
    proxyOpens: Type.Array(EngagementOpen),
    clicks: Type.Array(EngagementClick),
    summary: EngagementSummary,
    limit: Count,
    truncated: Type.Object({ opens: Type.Boolean(), proxyOpens: Type.Boolean(), clicks: Type.Boolean() }),
  }),
});
export type EngagementReportResponse = Static<typeof EngagementReportResponse>;
