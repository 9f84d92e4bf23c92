import { type Static, Type } from 'typebox';
import { EngagementReportResponse } from './email-analytics.ts';
import { CampaignProgress, CampaignStatusSchema, TestSends } from './email-campaigns.ts';
import { RowId } from './http.ts';

/**
 * Newsletters (email marketing §2 Newsletter screen, §3 Newsletter entity and stored schema,
 * §4 states, §5 validation, §7 newsletter calls, §8 errors, §9 limits).
 *
 * A newsletter is sent through the campaign pipeline: its first send or schedule creates a
 * companion campaign (`campaignId`, hidden from the Campaigns tab) that carries the sends,
 * the recipients, the tracking, the scheduler and the reports. The newsletter's status
 * follows its campaign's (draft → scheduled → sending → sent; scheduled → draft when
 * unscheduled); the screen shows draft, scheduled and sent and treats sending as sent-to-be.
 */

const IsoDateTime = Type.String({ format: 'date-time' });
const Count = Type.Integer({ minimum: 0 });
const Percent = Type.Number({ minimum: 0 });
const IntId = RowId();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** Spec §9: the send dialog fetches at most this many contacts (beyond it: server-side audiences). */
export const NEWSLETTER_CONTACT_FETCH_LIMIT = 5000;
/** Spec §3: the default (and, today, only) template. */
export const NEWSLETTER_TEMPLATES = ['standard'] as const;
export type NewsletterTemplate = (typeof NEWSLETTER_TEMPLATES)[number];

export const NEWSLETTER_LIMITS = {
  name: 200,
  subject: 300,
  preheader: 200,
  htmlContent: 1_000_000,
  textContent: 500_000,
  companies: 1000,
} as const;

/** The spec's texts (§5, §8) and the service's own where the spec shows none. */
export const NEWSLETTER_MESSAGES = {
  required: 'Please fill in all required fields',
  dateTime: 'Please select a date and time',
  pastDate: 'Please choose a date and time in the future',
  notFound: 'Newsletter not found',
  postNotFound: 'Blog post not found or not published',
  notDraft: 'Only draft newsletters can be sent or scheduled',
  notSent: 'Only sent newsletters can be resent',
  notScheduled: 'Only scheduled newsletters can be unscheduled',
  notPaused: 'Only a paused newsletter can be resumed',
  busy: 'This newsletter is being sent; wait until it finishes before deleting it',
  noContacts: 'No contacts selected',
} as const;

/**
 * The notice titles of the newsletter screen (spec §8: "titled for creating a newsletter,
 * converting a blog post, fixing HTML, sending, scheduling, resending and deleting").
 */
export const NEWSLETTER_ERROR_TITLES = {
  create: 'Failed to create newsletter',
  convert: 'Failed to convert blog post',
  fixHtml: 'Failed to fix HTML',
  send: 'Failed to send newsletter',
  schedule: 'Failed to schedule newsletter',
  unschedule: 'Failed to unschedule newsletter',
  resume: 'Failed to resume newsletter',
  resend: 'Failed to resend newsletter',
  delete: 'Failed to delete newsletter',
} as const;

/** Spec §3: what conversion puts into the mail (all on by default). */
export const NewsletterCustomizations = Type.Object({
  includeImage: Type.Boolean(),
  includeReadMore: Type.Boolean(),
  includeShare: Type.Boolean(),
});
export type NewsletterCustomizations = Static<typeof NewsletterCustomizations>;
export const DEFAULT_NEWSLETTER_CUSTOMIZATIONS: NewsletterCustomizations = {
  includeImage: true,
  includeReadMore: true,
  includeShare: true,
};

/** A newsletter as the screen shows it (spec §3) plus its send's live progress. */
export const Newsletter = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  subject: Type.String(),
  preheader: Nullable(Type.String()),
  fromName: Type.String(),
  fromEmail: Type.String(),
  htmlContent: Type.String(),
  textContent: Nullable(Type.String()),
  template: Type.String(),
  customizations: NewsletterCustomizations,
  /** The blog post it was made from; null for a newsletter created by hand. */
  blogPostId: Nullable(Type.String()),
  /** The companion campaign that carries its sends; null until the first send or schedule. */
  campaignId: Nullable(Type.Integer()),
  status: CampaignStatusSchema,
  trackingId: Type.String(),
  scheduledAt: Nullable(IsoDateTime),
  sentAt: Nullable(IsoDateTime),
  /** Recipients of the current send. */
  totalRecipients: Count,
  sentCount: Count,
  openCount: Count,
  clickCount: Count,
  openRate: Percent,
  clickRate: Percent,
  progress: Nullable(CampaignProgress),
  /** Test-mode sends, apart: the newsletter stays a draft after one. */
  testSends: TestSends,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Newsletter = Static<typeof Newsletter>;

/** GET /api/admin/newsletters: the spec's "newsletters array", newest first. */
export const NewsletterList = Type.Array(Newsletter);
export type NewsletterList = Static<typeof NewsletterList>;

export const NewsletterIdParams = Type.Object({ id: IntId });
export type NewsletterIdParams = Static<typeof NewsletterIdParams>;

/** POST /api/admin/newsletters: name, subject and htmlContent required ('Please fill in all required fields'). */
export const NewsletterInput = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  subject: Type.Optional(Type.String({ maxLength: 1000 })),
  preheader: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  htmlContent: Type.Optional(Type.String({ maxLength: NEWSLETTER_LIMITS.htmlContent })),
  textContent: Type.Optional(Nullable(Type.String({ maxLength: NEWSLETTER_LIMITS.textContent }))),
});
export type NewsletterInput = Static<typeof NewsletterInput>;

/** A published post of the email service's blog copy, as the Convert Blog Posts tab lists it. */
export const NewsletterBlogPostSummary = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  title: Type.String(),
  excerpt: Nullable(Type.String()),
  author: Type.String(),
  featuredImage: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  publishedAt: Nullable(IsoDateTime),
  /** Newsletters already made from it. */
  newsletterCount: Count,
});
export type NewsletterBlogPostSummary = Static<typeof NewsletterBlogPostSummary>;

/** GET /api/admin/newsletters/blog-posts: the published posts of the copy, newest first. */
export const NewsletterBlogPostList = Type.Object({ posts: Type.Array(NewsletterBlogPostSummary) });
export type NewsletterBlogPostList = Static<typeof NewsletterBlogPostList>;

export const ConvertBlogParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export type ConvertBlogParams = Static<typeof ConvertBlogParams>;

/** POST /api/admin/newsletters/convert-blog/{id}: the spec sends no body; these are optional. */
export const ConvertBlogBody = Type.Object({
  customizations: Type.Optional(Type.Partial(NewsletterCustomizations)),
  preheader: Type.Optional(Type.String({ maxLength: NEWSLETTER_LIMITS.preheader })),
});
export type ConvertBlogBody = Static<typeof ConvertBlogBody>;

/**
 * Who receives a send, resolved by the server (so the dialog works beyond the 5,000 contacts it
 * fetches): every active contact of every address book; chosen contacts; or the active contacts
 * whose company is one of the chosen names (compared trimmed and case-insensitively). Always
 * deduplicated by address and minus the suppression list.
 */
export const NewsletterAudience = Type.Union([
  Type.Object({ type: Type.Literal('all') }),
  Type.Object({
    type: Type.Literal('contacts'),
    contactIds: Type.Array(IntId, { minItems: 1, maxItems: 100_000 }),
  }),
  Type.Object({
    type: Type.Literal('companies'),
    companies: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
      minItems: 1,
      maxItems: NEWSLETTER_LIMITS.companies,
    }),
  }),
]);
export type NewsletterAudience = Static<typeof NewsletterAudience>;

/**
 * POST /api/admin/newsletters/{id}/send. The spec's body (newsletterId, contactIds, confirmSend,
 * testMode) plus `audience`; contactIds alone means audience contacts. Neither: 400 'No contacts
 * selected'. Test mode (asked, or the Test Environment setting) sends to the saved test addresses.
 */
export const SendNewsletterBody = Type.Object({
  newsletterId: Type.Optional(IntId),
  contactIds: Type.Optional(Type.Array(IntId, { maxItems: 100_000 })),
  audience: Type.Optional(NewsletterAudience),
  confirmSend: Type.Boolean(),
  testMode: Type.Optional(Type.Boolean()),
});
export type SendNewsletterBody = Static<typeof SendNewsletterBody>;

/** POST /api/admin/newsletters/{id}/resend: a sent newsletter again. */
export const ResendNewsletterBody = Type.Object({
  contactIds: Type.Optional(Type.Array(IntId, { maxItems: 100_000 })),
  audience: Type.Optional(NewsletterAudience),
});
export type ResendNewsletterBody = Static<typeof ResendNewsletterBody>;

/**
 * POST /api/admin/newsletters/{id}/schedule: scheduledAt required ('Please select a date and
 * time') and in the future; recipients resolved at dispatch time.
 */
export const ScheduleNewsletterBody = Type.Object({
  scheduledAt: Type.Optional(Type.String({ maxLength: 100 })),
  contactIds: Type.Optional(Type.Array(IntId, { maxItems: 100_000 })),
  audience: Type.Optional(NewsletterAudience),
});
export type ScheduleNewsletterBody = Static<typeof ScheduleNewsletterBody>;

/** The answer of send, resend, schedule, unschedule and resume. */
export const NewsletterSendResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  newsletterId: Type.Integer(),
  sendId: Nullable(Type.Integer()),
  testMode: Type.Boolean(),
  recipients: Count,
  originalRecipients: Count,
  newsletter: Newsletter,
});
export type NewsletterSendResponse = Static<typeof NewsletterSendResponse>;

/** GET /api/admin/newsletters/audience: what the By Industry tab offers, counted by the server. */
export const NewsletterAudienceSummary = Type.Object({
  /** Active, unsuppressed contacts by distinct address (what All Contacts sends to). */
  totalContacts: Count,
  companies: Type.Array(Type.Object({ company: Type.String(), count: Count })),
});
export type NewsletterAudienceSummary = Static<typeof NewsletterAudienceSummary>;

/** POST /api/admin/newsletters/audience/count: how many an audience reaches (the will-receive count). */
export const NewsletterAudienceCount = Type.Object({ recipients: Count });
export type NewsletterAudienceCount = Static<typeof NewsletterAudienceCount>;

/**
 * POST /api/admin/newsletters/{id}/merge-check: the pre-send check (MergeCheckResponse) for the
 * audience the send dialog holds.
 */
export const NewsletterMergeCheckBody = Type.Object({
  audience: NewsletterAudience,
  testMode: Type.Optional(Type.Boolean()),
});
export type NewsletterMergeCheckBody = Static<typeof NewsletterMergeCheckBody>;

/** GET /api/admin/newsletters/{id}/preview?contact=missing: as a recipient with no name or company sees it. */
export const NewsletterPreviewQuery = Type.Object({
  contact: Type.Optional(Type.Enum(['sample', 'missing'] as const)),
});
export type NewsletterPreviewQuery = Static<typeof NewsletterPreviewQuery>;

/** GET /api/admin/newsletters/{id}/preview: the rendered mail, sanitised, with the sample contact. */
export const NewsletterPreview = Type.Object({
  subject: Type.String(),
  preheader: Nullable(Type.String()),
  html: Type.String(),
  text: Type.String(),
});
export type NewsletterPreview = Static<typeof NewsletterPreview>;

/** One newsletter's figures (spec §3: totalSent, totalOpened, totalClicked, openRate, clickRate). */
export const NewsletterAnalyticsRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: CampaignStatusSchema,
  sentAt: Nullable(IsoDateTime),
  totalSent: Count,
  totalOpened: Count,
  totalClicked: Count,
  openRate: Percent,
  clickRate: Percent,
});
export type NewsletterAnalyticsRow = Static<typeof NewsletterAnalyticsRow>;

/**
 * GET /api/admin/newsletters/analytics (all newsletters) and GET /api/admin/newsletters/{id}/analytics
 * (one: `campaigns` then holds that newsletter's row only). Counted like campaign analytics.
 */
export const NewsletterAnalytics = Type.Object({
  /** true: test-mode mail was counted too (includeTest=true); else live mail only. */
  includesTestMail: Type.Boolean(),
  totalSent: Count,
  totalOpened: Count,
  totalClicked: Count,
  openRate: Percent,
  clickRate: Percent,
  campaigns: Type.Array(NewsletterAnalyticsRow),
});
export type NewsletterAnalytics = Static<typeof NewsletterAnalytics>;

/** GET /api/admin/newsletters/{id}/engagement-report: the campaign report of its companion campaign. */
export const NewsletterEngagementReport = EngagementReportResponse;
export type NewsletterEngagementReport = EngagementReportResponse;

/** What 'Fix HTML Issues' looks at: draft newsletters, and (when asked) draft email campaigns. */
export const FIX_HTML_KINDS = ['newsletter', 'campaign'] as const;
export type FixHtmlKind = (typeof FIX_HTML_KINDS)[number];

/** One change of a draft's HTML: what goes (`before`), what comes (`after`), and the HTML just before it. */
export const FixHtmlHunk = Type.Object({
  context: Type.String(),
  before: Type.String(),
  after: Type.String(),
});
export type FixHtmlHunk = Static<typeof FixHtmlHunk>;

/** POST /api/admin/campaigns/fix-html: one draft's repairs (proposed by a dry run, or made). */
export const FixHtmlItem = Type.Object({
  kind: Type.Enum(FIX_HTML_KINDS),
  id: Type.Integer(),
  name: Type.String(),
  /** What changes, in words ("inlined <style> CSS into 12 elements", "made 3 relative URLs absolute", ...). */
  changes: Type.Array(Type.String()),
  /** The content the proposal was made from: applying it is refused once the draft was edited. */
  fingerprint: Type.String(),
  /** The HTML's changes, compared by meaning (what a serialiser only writes differently is no change). */
  diff: Type.Object({ hunks: Type.Array(FixHtmlHunk), truncated: Type.Boolean() }),
  /** The plain-text part it writes for a draft that had none (its first 2,000 characters), else null. */
  textPart: Nullable(Type.String()),
});
export type FixHtmlItem = Static<typeof FixHtmlItem>;

export const FixHtmlSelection = Type.Object({
  kind: Type.Enum(FIX_HTML_KINDS),
  id: IntId,
  fingerprint: Type.String({ minLength: 1, maxLength: 100 }),
});
export type FixHtmlSelection = Static<typeof FixHtmlSelection>;

/**
 * POST /api/admin/campaigns/fix-html. `dryRun: true`: what would change in each draft of
 * `kinds` (default both), nothing written. `apply`: fixes exactly those drafts, each only if it
 * is still a draft with the content its proposal was made from (its fingerprint). Neither (the
 * spec's call, no body): fixes every draft of `kinds` at once.
 */
export const FixHtmlBody = Type.Object({
  dryRun: Type.Optional(Type.Boolean()),
  kinds: Type.Optional(
    Type.Array(Type.Enum(FIX_HTML_KINDS), { minItems: 1, maxItems: 2, uniqueItems: true }),
  ),
  apply: Type.Optional(Type.Array(FixHtmlSelection, { minItems: 1, maxItems: 1000 })),
});
export type FixHtmlBody = Static<typeof FixHtmlBody>;

/**
 * The answer: `items` are the proposals (dry run) or the drafts fixed; `skipped` the chosen
 * drafts left as they are, with the reason. Idempotent: a second run finds nothing.
 */
export const FixHtmlResponse = Type.Object({
  success: Type.Literal(true),
  dryRun: Type.Boolean(),
  kinds: Type.Array(Type.Enum(FIX_HTML_KINDS)),
  fixedCount: Count,
  checkedCount: Count,
  items: Type.Array(FixHtmlItem),
  skipped: Type.Array(
    Type.Object({
      kind: Type.Enum(FIX_HTML_KINDS),
      id: Type.Integer(),
      name: Type.String(),
      reason: Type.String(),
    }),
  ),
  message: Type.String(),
});
export type FixHtmlResponse = Static<typeof FixHtmlResponse>;
