import { type Static, Type } from 'typebox';

/**
 * AI writing for email campaigns (spec: email marketing §2 dialogs "AI campaign generator" and
 * "AI content optimizer", §3 results, §5 validation, §7 calls, §8 errors, §9 goals):
 * `POST /api/admin/email/generate-campaign` and `POST /api/admin/email/optimize-content`.
 * OpenAI writes when the email service has OPENAI_API_KEY; otherwise the service's local writer
 * does, and every answer says which (`provider`, `model`).
 */

/** Spec §9: the generator's goals. */
export const CAMPAIGN_GOALS = [
  'lead_generation',
  'product_launch',
  'demo_booking',
  'customer_retention',
  'feature_announcement',
  'case_study',
  'newsletter',
] as const;
export type CampaignGoal = (typeof CAMPAIGN_GOALS)[number];

export const CAMPAIGN_GOAL_LABELS: Record<CampaignGoal, string> = {
  lead_generation: 'Lead generation',
  product_launch: 'Product launch',
  demo_booking: 'Demo booking',
  customer_retention: 'Customer retention',
  feature_announcement: 'Feature announcement',
  case_study: 'Case study',
  newsletter: 'Newsletter',
};

/** Spec §9: the optimizer's goals. */
export const OPTIMIZE_GOALS = [
  'engagement',
  'conversion',
  'clarity',
  'personalization',
  'urgency',
  'authority',
] as const;
export type OptimizeGoal = (typeof OPTIMIZE_GOALS)[number];

export const OPTIMIZE_GOAL_LABELS: Record<OptimizeGoal, string> = {
  engagement: 'Engagement',
  conversion: 'Conversion',
  clarity: 'Clarity',
  personalization: 'Personalization',
  urgency: 'Urgency',
  authority: 'Authority',
};

/** The campaign fields the optimizer rewrites. */
export const OPTIMIZE_FIELDS = ['subject', 'htmlContent'] as const;
export type OptimizeField = (typeof OPTIMIZE_FIELDS)[number];

/** How a field is named in "Please add {field} content first". */
export const OPTIMIZE_FIELD_LABELS: Record<OptimizeField, string> = {
  subject: 'subject',
  htmlContent: 'HTML',
};

export const EMAIL_AI_LIMITS = {
  prompt: 2000,
  /** Company context as free text, and each text field of the structured form. */
  companyContext: 2000,
  companyField: 300,
  keywords: 12,
  /** What the optimizer reads: a subject, and an HTML body. */
  subject: 1000,
  htmlContent: 200_000,
  /** Calls per admin per minute, per replica, of each endpoint (OpenAI calls cost money). */
  perMinute: 10,
} as const;

/** The spec's texts (§5, §8). */
export const EMAIL_AI_MESSAGES = {
  promptRequired: 'Please enter a campaign prompt to generate content.',
  emptyField: (field: OptimizeField) => `Please add ${OPTIMIZE_FIELD_LABELS[field]} content first`,
  generationFailed: 'Generation failed',
  optimizationFailed: 'Optimization Failed',
} as const;

export const EMAIL_AI_PROVIDERS = ['local', 'openai'] as const;
export type EmailAiProvider = (typeof EMAIL_AI_PROVIDERS)[number];

const Text = (max: number) => Type.String({ maxLength: max });

/**
 * What the writer should know about the sending company. The web fills it from the brand
 * settings (`GET /api/admin/brand/settings`: brand name, website, address, the brand
 * analysis' tagline, tone, keywords and primary colour); the admin may edit it or write free
 * text instead. Missing fields come from the email service's settings copy (brand name,
 * website) or are left out of the copy.
 */
export const CompanyContext = Type.Object(
  {
    companyName: Type.Optional(Text(EMAIL_AI_LIMITS.companyField)),
    industry: Type.Optional(Text(EMAIL_AI_LIMITS.companyField)),
    /** Who the campaign is for ("dental practices in Ohio"). */
    audience: Type.Optional(Text(EMAIL_AI_LIMITS.companyField)),
    /** The promise in one sentence (the brand tagline). */
    valueProposition: Type.Optional(Text(EMAIL_AI_LIMITS.companyField)),
    /** The brand's tone ("friendly, expert"). */
    tone: Type.Optional(Text(EMAIL_AI_LIMITS.companyField)),
    website: Type.Optional(Text(EMAIL_AI_LIMITS.companyField)),
    /** The postal address the footer shows (anti-spam laws ask for one). */
    address: Type.Optional(Text(EMAIL_AI_LIMITS.companyField)),
    keywords: Type.Optional(Type.Array(Text(60), { maxItems: EMAIL_AI_LIMITS.keywords })),
    /** The button and header colour, `#rrggbb`. */
    brandColor: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })),
  },
  { additionalProperties: false },
);
export type CompanyContext = Static<typeof CompanyContext>;

/**
 * POST /api/admin/email/generate-campaign. A missing or blank prompt answers 400 'Please enter a
 * campaign prompt to generate content.'; goal defaults to lead_generation, includeImage to true.
 */
export const GenerateCampaignBody = Type.Object({
  prompt: Type.Optional(Text(EMAIL_AI_LIMITS.prompt)),
  goal: Type.Optional(Type.Enum(CAMPAIGN_GOALS)),
  includeImage: Type.Optional(Type.Boolean()),
  companyContext: Type.Optional(
    Type.Union([Text(EMAIL_AI_LIMITS.companyContext), CompanyContext, Type.Null()]),
  ),
});
export type GenerateCampaignBody = Static<typeof GenerateCampaignBody>;

/**
 * The header of a generated campaign. `image`: a PNG on the site's public origin that mail
 * clients show; `none`: no image was asked for (a coloured header band in the HTML instead).
 */
export const GeneratedHeader = Type.Object({
  kind: Type.Enum(['image', 'none'] as const),
  url: Type.Union([Type.String(), Type.Null()]),
  note: Type.String(),
});
export type GeneratedHeader = Static<typeof GeneratedHeader>;

/** Spec §3 "AI campaign generation result", plus who wrote it and the header it chose. */
export const GenerateCampaignResponse = Type.Object({
  name: Type.String(),
  subject: Type.String(),
  fromName: Type.String(),
  fromEmail: Type.String(),
  htmlContent: Type.String(),
  textContent: Type.String(),
  /** The hidden preview line at the top of the HTML. */
  preheader: Type.String(),
  goal: Type.Enum(CAMPAIGN_GOALS),
  header: GeneratedHeader,
  provider: Type.Enum(EMAIL_AI_PROVIDERS),
  model: Type.String(),
});
export type GenerateCampaignResponse = Static<typeof GenerateCampaignResponse>;

/**
 * POST /api/admin/email/optimize-content. `content` is the campaign's current subject and HTML
 * (the field named by `field` is rewritten, the other comes back unchanged), or, as a plain
 * string, the named field's content alone (the other comes back empty). An empty field answers
 * 400 'Please add {field} content first'.
 */
export const OptimizeContentBody = Type.Object({
  field: Type.Enum(OPTIMIZE_FIELDS),
  goal: Type.Enum(OPTIMIZE_GOALS),
  content: Type.Union([
    Text(EMAIL_AI_LIMITS.htmlContent),
    Type.Object({
      subject: Type.Optional(Text(EMAIL_AI_LIMITS.subject)),
      htmlContent: Type.Optional(Text(EMAIL_AI_LIMITS.htmlContent)),
    }),
  ]),
});
export type OptimizeContentBody = Static<typeof OptimizeContentBody>;

/** Spec §3 "Optimizer result" (subject and htmlContent), with what was changed and why. */
export const OptimizeContentResponse = Type.Object({
  subject: Type.String(),
  htmlContent: Type.String(),
  /** The plain-text version of the rewritten HTML (field htmlContent), else null. */
  textContent: Type.Union([Type.String(), Type.Null()]),
  field: Type.Enum(OPTIMIZE_FIELDS),
  goal: Type.Enum(OPTIMIZE_GOALS),
  /** One line per change, in the order made; empty when nothing needed changing. */
  changes: Type.Array(Type.String()),
  provider: Type.Enum(EMAIL_AI_PROVIDERS),
  model: Type.String(),
});
export type OptimizeContentResponse = Static<typeof OptimizeContentResponse>;
