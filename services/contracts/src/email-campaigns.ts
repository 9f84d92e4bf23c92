import { type Static, Type } from 'typebox';
import { PageOffset, RowId } from './http.ts';
import { MAIL_PARTS, OPTIONAL_MERGE_FIELDS } from './merge-fields.ts';

/**
 * Events of the email service's campaign and newsletter sends (published by the email
 * service; the settings service's feature discovery counts them). One event per send: a
 * campaign or newsletter sent again (a resend) publishes another event with the same id.
 *
 * Ids travel as text so the email service may number campaigns and newsletters as it likes
 * (an integer id is sent in decimal); the aggregate key is the campaign's or newsletter's id.
 */

const IsoDateTime = Type.String({ format: 'date-time' });
const Count = Type.Integer({ minimum: 0 });
const Id = Type.String({ minLength: 1, maxLength: 100 });

/** `email.campaign.sent`: a campaign went out (live, or to the test addresses in test mode). */
export const CampaignSentEvent = Type.Object({
  campaignId: Id,
  name: Type.String(),
  /** Recipients chosen for this send (after suppressions). */
  recipients: Count,
  /** Messages accepted by the transport. */
  sent: Count,
  /** Messages the transport refused. */
  failed: Count,
  /** True when test mode sent it to the saved test addresses only. */
  test: Type.Boolean(),
  sentAt: IsoDateTime,
});
export type CampaignSentEvent = Static<typeof CampaignSentEvent>;

/** `email.newsletter.sent`: a newsletter (a blog post turned into a mail, or one made by hand) went out. */
export const NewsletterSentEvent = Type.Object({
  newsletterId: Id,
  name: Type.String(),
  /** The blog post it was made from (the blog service's post id); null for a newsletter made by hand. */
  blogPostId: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  recipients: Count,
  sent: Count,
  failed: Count,
  /** True when test mode sent it to the saved test addresses only (absent in older events: false). */
  test: Type.Optional(Type.Boolean()),
  sentAt: IsoDateTime,
});
export type NewsletterSentEvent = Static<typeof NewsletterSentEvent>;

// ── campaigns: the admin API (spec: email marketing §2 Campaigns tab, §3, §4, §5, §7, §8, §9) ──

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const IntId = RowId();

/**
 * A campaign's status. The spec shows draft, scheduled and sent; the service adds sending
 * (workers are delivering it), paused (an admin stopped the workers; resume continues) and
 * cancelled (stopped for good; what was sent stays sent). Flow:
 * draft → scheduled → sending → sent, draft → sending (send now), sending ⇄ paused,
 * scheduled|sending|paused → cancelled, scheduled → draft (unschedule by editing the time away).
 */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const CampaignStatusSchema = Type.Enum(CAMPAIGN_STATUSES);

/** A recipient of one send: pending → sending → sent | failed; sending → unknown after a crash. */
export const CAMPAIGN_RECIPIENT_STATUSES = ['pending', 'sending', 'sent', 'failed', 'unknown'] as const;
export type CampaignRecipientStatus = (typeof CAMPAIGN_RECIPIENT_STATUSES)[number];

/** Spec §9: at most 2 live campaign sends (send or resend) per rolling hour. */
export const MAX_CAMPAIGNS_PER_HOUR = 2;
/** Spec §9: sending is blocked this long after a connection failure of the mail transport. */
export const CONNECTION_FAILURE_COOLDOWN_HOURS = 24;
/** Spec §5: a subject under this many characters is suggested (a tip, never a refusal). */
export const SUBJECT_TIP_LENGTH = 50;
/** What duplicate appends to the name (spec: "a new draft named with a copy suffix"). */
export const CAMPAIGN_COPY_SUFFIX = ' (Copy)';

export const CAMPAIGN_LIMITS = {
  name: 200,
  subject: 300,
  fromName: 200,
  fromEmail: 254,
  htmlContent: 1_000_000,
  textContent: 500_000,
  targets: 100_000,
  segments: 50,
} as const;

/**
 * The spec's texts for send failures (§8): the web chooses its notice by message content.
 * - blocked: "Email Sending Blocked" (temporarily blocked / connection failure, 24-hour cooling)
 * - frequency: "Campaign Frequency Limit"
 * - failed: "Email Protection Active"
 */
export const CAMPAIGN_MESSAGES = {
  frequency: 'Maximum 2 campaigns per hour',
  blocked:
    'Email sending is temporarily blocked: a connection failure to the mail server starts a 24-hour cooling period',
  noContacts: 'No contacts selected',
  noContactsLive:
    'No active recipients for this campaign. Edit the campaign to choose address books or contacts.',
  noContactsTest:
    'No active recipients for this campaign (test mode sends it to the saved test addresses only). Edit the campaign to choose address books or contacts.',
  noTestAddresses:
    'Test mode is on but no test email addresses are saved. Add them in Settings → Testing, or turn test mode off.',
  noContactsResend: 'Please select at least one contact to resend the campaign.',
  failed: 'Failed to send campaign',
  notDraft: 'Only draft campaigns can be edited, tested or launched',
  confirm: 'Sending needs confirmSend: true (a live send cannot be undone)',
} as const;

/** Who fills {{firstName}}, {{lastName}} and {{company}} when no contact is chosen (previews, test sends). */
export const SAMPLE_CONTACT = {
  email: 'john.doe@example.com',
  firstName: 'John',
  lastName: 'Doe',
  company: 'Acme Corp',
} as const;

/** The previews' "a recipient with missing fields": no first name, last name or company. */
export const MISSING_FIELDS_CONTACT = {
  email: 'no.details@example.com',
  firstName: null,
  lastName: null,
  company: null,
} as const;

/** A campaign's test-mode sends (to the saved test addresses only), kept apart from its live ones. */
export const TestSendSummary = Type.Object({
  sendId: Type.Integer(),
  status: Type.Enum(['scheduled', 'sending', 'paused', 'done', 'cancelled'] as const),
  /** Test addresses it went to. */
  recipients: Count,
  /** Live recipients the send stood in for. */
  originalRecipients: Count,
  sent: Count,
  failed: Count,
  startedAt: Nullable(IsoDateTime),
  finishedAt: Nullable(IsoDateTime),
});
export type TestSendSummary = Static<typeof TestSendSummary>;

export const TestSends = Type.Object({
  count: Count,
  /** The newest test-mode send; null when there was none. */
  last: Nullable(TestSendSummary),
});
export type TestSends = Static<typeof TestSends>;

/** Live progress of a campaign's current (or last) send. */
export const CampaignProgress = Type.Object({
  /** The send (a campaign's first send, then each resend) this describes; null before any send. */
  sendId: Nullable(Type.Integer()),
  kind: Nullable(Type.Enum(['send', 'resend'] as const)),
  status: CampaignStatusSchema,
  /** True when test mode sent it to the saved test addresses only. */
  testMode: Type.Boolean(),
  /** Recipients resolved for the send (after deduplication and suppressions). */
  total: Count,
  /** In test mode: how many live recipients the send would have had. */
  originalRecipients: Count,
  sent: Count,
  failed: Count,
  /** Handed to the transport by a worker that stopped before recording the outcome: never resent. */
  unknown: Count,
  /** Being handed to the transport now. */
  sending: Count,
  /** Not yet attempted (pending). */
  remaining: Count,
  /** Messages per second over the last 10 seconds (0 when idle). */
  rate: Type.Number({ minimum: 0 }),
  startedAt: Nullable(IsoDateTime),
  finishedAt: Nullable(IsoDateTime),
});
export type CampaignProgress = Static<typeof CampaignProgress>;

/** A campaign as the UI shows it (spec §3) plus status details and live progress. */
export const Campaign = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  subject: Type.String(),
  fromName: Type.String(),
  fromEmail: Type.String(),
  htmlContent: Type.String(),
  textContent: Nullable(Type.String()),
  status: CampaignStatusSchema,
  scheduledAt: Nullable(IsoDateTime),
  sentAt: Nullable(IsoDateTime),
  /** The spec's stored form: JSON-encoded text of a list of ids, e.g. "[1,2]". */
  targetAddressBooks: Type.String(),
  targetContacts: Type.String(),
  /** The same lists parsed. */
  targetAddressBookIds: Type.Array(Type.Integer()),
  targetContactIds: Type.Array(Type.Integer()),
  /** Target segments' ids (docs/adr/0070-segments.md); a send takes their rules at launch. */
  targetSegmentIds: Type.Array(Type.Integer()),
  trackingId: Type.String(),
  totalRecipients: Count,
  sentCount: Count,
  deliveredCount: Count,
  openCount: Count,
  clickCount: Count,
  bounceCount: Count,
  unsubscribeCount: Count,
  /** Percent of sent (0..100, one decimal). */
  openRate: Type.Number({ minimum: 0 }),
  clickRate: Type.Number({ minimum: 0 }),
  /** Spec §5 tip: a suggestion when the subject has 50 characters or more, else null. */
  subjectTip: Nullable(Type.String()),
  /** Progress of the current live send (test-mode sends never become current). */
  progress: CampaignProgress,
  /**
   * Test-mode sends: they leave the campaign as it was (a draft stays a draft), count in no
   * report unless test mail is asked for, and are listed here apart.
   */
  testSends: TestSends,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Campaign = Static<typeof Campaign>;

export const CampaignList = Type.Object({ campaigns: Type.Array(Campaign) });
export type CampaignList = Static<typeof CampaignList>;

/** A list of ids: an array, or the spec's JSON-encoded text of one ("[1,2]"). */
export const IdListInput = Type.Union([
  Type.Array(IntId, { maxItems: CAMPAIGN_LIMITS.targets }),
  Type.String({ maxLength: 1_000_000 }),
]);

/**
 * POST /api/admin/email/campaigns (create) and PATCH /api/admin/email/campaigns/{id} (update,
 * any subset). The service checks the spec's rules and answers 400 with its texts: 'Name is
 * required', 'Subject is required', 'From name is required', 'From email is required',
 * 'Please enter a valid from email address'. A scheduledAt in the future makes the campaign
 * scheduled; null (or absent on create) keeps it a draft.
 */
export const CampaignInput = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  subject: Type.Optional(Type.String({ maxLength: 1000 })),
  fromName: Type.Optional(Type.String({ maxLength: 1000 })),
  fromEmail: Type.Optional(Type.String({ maxLength: 1000 })),
  htmlContent: Type.Optional(Type.String({ maxLength: CAMPAIGN_LIMITS.htmlContent })),
  textContent: Type.Optional(Nullable(Type.String({ maxLength: CAMPAIGN_LIMITS.textContent }))),
  scheduledAt: Type.Optional(Nullable(IsoDateTime)),
  targetAddressBooks: Type.Optional(IdListInput),
  targetContacts: Type.Optional(IdListInput),
  targetSegments: Type.Optional(Type.Array(IntId, { maxItems: CAMPAIGN_LIMITS.segments })),
});
export type CampaignInput = Static<typeof CampaignInput>;

export const CampaignIdParams = Type.Object({ id: IntId });
export type CampaignIdParams = Static<typeof CampaignIdParams>;

/**
 * POST /api/admin/email/campaigns/{id}/send. Recipients: the union of the active contacts of
 * addressBookIds and the active contacts of contactIds (each list defaults to the campaign's
 * targets when absent), deduplicated by address, minus the suppression list. testMode asks for
 * a test send; when the Test Environment setting is on, every send is a test send regardless.
 */
export const SendCampaignBody = Type.Object({
  contactIds: Type.Optional(Type.Array(IntId, { maxItems: CAMPAIGN_LIMITS.targets })),
  addressBookIds: Type.Optional(Type.Array(IntId, { maxItems: 1000 })),
  segmentIds: Type.Optional(Type.Array(IntId, { maxItems: CAMPAIGN_LIMITS.segments })),
  confirmSend: Type.Boolean(),
  testMode: Type.Optional(Type.Boolean()),
});
export type SendCampaignBody = Static<typeof SendCampaignBody>;

/** POST /api/admin/email/campaigns/{id}/resend: a sent campaign again, to the chosen contacts. */
export const ResendCampaignBody = Type.Object({
  contactIds: Type.Array(IntId, { maxItems: CAMPAIGN_LIMITS.targets }),
  addressBookIds: Type.Optional(Type.Array(IntId, { maxItems: 1000 })),
});
export type ResendCampaignBody = Static<typeof ResendCampaignBody>;

/**
 * The answer of send and resend. Sending is done by the workers after the answer: `queued`
 * recipients were recorded; sent and failed count what is done already (usually 0; follow
 * GET /api/admin/email/campaigns/{id}/progress).
 */
export const SendCampaignResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  campaignId: Type.Integer(),
  sendId: Type.Integer(),
  testMode: Type.Boolean(),
  recipients: Count,
  originalRecipients: Count,
  queued: Count,
  sent: Count,
  failed: Count,
  campaign: Campaign,
});
export type SendCampaignResponse = Static<typeof SendCampaignResponse>;

/**
 * POST /api/admin/email/send-test: the campaign's content to ONE address, at once, marked as a
 * test ('[TEST] ' subject prefix and an X-Parley-Test header); never counts toward the hourly
 * limit. `campaignId` (optional) takes unsent fields from the stored campaign.
 */
export const SendTestBody = Type.Object({
  campaignId: Type.Optional(IntId),
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  subject: Type.Optional(Type.String({ maxLength: 1000 })),
  fromName: Type.Optional(Type.String({ maxLength: 1000 })),
  fromEmail: Type.Optional(Type.String({ maxLength: 1000 })),
  htmlContent: Type.Optional(Type.String({ maxLength: CAMPAIGN_LIMITS.htmlContent })),
  textContent: Type.Optional(Nullable(Type.String({ maxLength: CAMPAIGN_LIMITS.textContent }))),
  /** One address per call (the UI calls once per address); an array of one is accepted. */
  testRecipients: Type.Union([
    Type.String({ maxLength: 320 }),
    Type.Array(Type.String({ maxLength: 320 }), { maxItems: 5 }),
  ]),
  isTest: Type.Optional(Type.Boolean()),
});
export type SendTestBody = Static<typeof SendTestBody>;

export const SendTestResponse = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  to: Type.String(),
  result: Type.Enum(['sent', 'failed', 'deferred', 'skipped'] as const),
  error: Type.Optional(Type.String()),
  /** The message in the Sent mail view. */
  id: Type.String(),
  transport: Type.String(),
});
export type SendTestResponse = Static<typeof SendTestResponse>;

/** GET /api/admin/email/campaigns/{id}/recipients: who got the current (or a given) send. */
export const CampaignRecipientsQuery = Type.Object({
  sendId: Type.Optional(IntId),
  status: Type.Optional(Type.Enum(CAMPAIGN_RECIPIENT_STATUSES)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: PageOffset(),
});
export type CampaignRecipientsQuery = Static<typeof CampaignRecipientsQuery>;

export const CampaignRecipient = Type.Object({
  email: Type.String(),
  contactId: Nullable(Type.Integer()),
  status: Type.Enum(CAMPAIGN_RECIPIENT_STATUSES),
  attempts: Count,
  lastError: Nullable(Type.String()),
  trackingId: Nullable(Type.String()),
  sentAt: Nullable(IsoDateTime),
});
export type CampaignRecipient = Static<typeof CampaignRecipient>;

export const CampaignRecipientPage = Type.Object({
  sendId: Nullable(Type.Integer()),
  items: Type.Array(CampaignRecipient),
  total: Count,
});
export type CampaignRecipientPage = Static<typeof CampaignRecipientPage>;

// ── Delivery log ───────────────────────────────────────────────────────────────────────

/**
 * A recipient's outcome in a campaign's delivery log: queued (waiting or being sent), sent,
 * failed (refused for good), unknown (the sender stopped mid-send: not resent), bounced (a
 * bounce came back for it, or its address was refused at send time), complained (marked as spam).
 */
export const DELIVERY_STATUSES = ['queued', 'sent', 'failed', 'unknown', 'bounced', 'complained'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** A delivery log page is at most this long; the export has every row. */
export const DELIVERY_LOG_MAX_LIMIT = 500;

/**
 * GET /api/admin/email/campaigns/{id}/delivery-log (and …/delivery-log/export, CSV, the same
 * filters): one send's recipients (the current one unless `sendId` names another), by address;
 * `after` (the previous page's `nextCursor`) pages on. `q`: an address or its beginning.
 */
export const DeliveryLogQuery = Type.Object({
  sendId: Type.Optional(IntId),
  status: Type.Optional(Type.Enum(DELIVERY_STATUSES)),
  opened: Type.Optional(Type.Boolean()),
  clicked: Type.Optional(Type.Boolean()),
  unsubscribed: Type.Optional(Type.Boolean()),
  q: Type.Optional(Type.String({ maxLength: 320 })),
  after: Type.Optional(Type.String({ maxLength: 500 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: DELIVERY_LOG_MAX_LIMIT, default: 50 })),
});
export type DeliveryLogQuery = Static<typeof DeliveryLogQuery>;

export const DeliveryLogEntry = Type.Object({
  email: Type.String(),
  contactId: Nullable(Type.Integer()),
  status: Type.Enum(DELIVERY_STATUSES),
  attempts: Count,
  lastError: Nullable(Type.String()),
  sentAt: Nullable(IsoDateTime),
  /** Human opens; opens fetched by a privacy proxy (Apple MPP, ...) apart. */
  opens: Count,
  proxyOpens: Count,
  clicks: Count,
  openedAt: Nullable(IsoDateTime),
  clickedAt: Nullable(IsoDateTime),
  unsubscribedAt: Nullable(IsoDateTime),
});
export type DeliveryLogEntry = Static<typeof DeliveryLogEntry>;

export const DeliveryLogSend = Type.Object({
  id: Type.Integer(),
  kind: Type.Enum(['send', 'resend'] as const),
  testMode: Type.Boolean(),
  status: Type.String(),
  startedAt: Nullable(IsoDateTime),
  total: Count,
});
export type DeliveryLogSend = Static<typeof DeliveryLogSend>;

export const DeliveryLogPage = Type.Object({
  campaignId: Type.Integer(),
  /** The campaign's name (a newsletter's for its campaign) and what it is. */
  name: Type.String(),
  kind: Type.Enum(['campaign', 'newsletter'] as const),
  /** The send shown; null before the campaign's first send. */
  send: Nullable(DeliveryLogSend),
  /** Every send of the campaign, newest first. */
  sends: Type.Array(DeliveryLogSend),
  /** The whole send's figures, with the unfiltered first page only (null when filtered or paging on). */
  counts: Nullable(
    Type.Object({
      total: Count,
      queued: Count,
      sent: Count,
      failed: Count,
      unknown: Count,
      bounced: Count,
      complained: Count,
      opened: Count,
      clicked: Count,
      unsubscribed: Count,
    }),
  ),
  items: Type.Array(DeliveryLogEntry),
  nextCursor: Nullable(Type.String()),
});
export type DeliveryLogPage = Static<typeof DeliveryLogPage>;
// ── the pre-send check of merge fields ──────────────────────────────────────

/**
 * One optional merge field the mail uses without a fallback (in `parts`), and how many of the
 * send's real recipients (as the send resolves them: deduplicated, less suppressions) have no
 * value for it: they see nothing there.
 */
export const MergeCheckField = Type.Object({
  field: Type.Enum(OPTIONAL_MERGE_FIELDS),
  label: Type.String(),
  parts: Type.Array(Type.Enum(MAIL_PARTS)),
  missing: Count,
  /** "212 of 8,000 recipients have no company and no fallback: they will see nothing there (subject)." */
  message: Type.String(),
});
export type MergeCheckField = Static<typeof MergeCheckField>;

export const MergeCheckResponse = Type.Object({
  /** The live audience now. */
  recipients: Count,
  /** Every optional field used without a fallback, with its count (0 when nobody lacks it). */
  fields: Type.Array(MergeCheckField),
  /** The fields some recipients lack: to be acknowledged before launching. */
  warnings: Type.Array(Type.String()),
  /** The send would go to the saved test addresses only (asked for, or Test Environment Mode). */
  testMode: Type.Boolean(),
  testAddresses: Count,
  /** In test mode: what the test addresses (who have no contact data) will see. */
  testNote: Nullable(Type.String()),
});
export type MergeCheckResponse = Static<typeof MergeCheckResponse>;

/**
 * POST /api/admin/email/campaigns/{id}/merge-check: the pre-send check for the audience the
 * send dialog holds (each list defaults to the campaign's targets, as for a send).
 */
export const CampaignMergeCheckBody = Type.Object({
  contactIds: Type.Optional(Type.Array(IntId, { maxItems: CAMPAIGN_LIMITS.targets })),
  addressBookIds: Type.Optional(Type.Array(IntId, { maxItems: 1000 })),
  segmentIds: Type.Optional(Type.Array(IntId, { maxItems: CAMPAIGN_LIMITS.segments })),
  testMode: Type.Optional(Type.Boolean()),
});
export type CampaignMergeCheckBody = Static<typeof CampaignMergeCheckBody>;
