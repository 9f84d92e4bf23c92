import { type Static, Type } from 'typebox';
import { SERVICE_NAMES } from './enums.ts';

const IsoDateTime = Type.String({ format: 'date-time' });

/** Longest setting key and category (spec: Settings entry). */
export const SETTING_KEY_MAX = 100;
export const SETTING_CATEGORY_MAX = 50;

/**
 * `settings.setting.changed`: one setting's new state. The stream of these events is the
 * settings store's changelog: a consumer rebuilds the current settings from it on first start
 * (its durable starts at the beginning of the stream) by keeping, per key, the event with the
 * highest `version`. Secrets never travel in clear: `value` is null and `sealedValue` holds the
 * value sealed with SETTINGS_ENCRYPTION_KEY (kit/src/secrets.ts, associated data = the key),
 * which only services that need the credential hold.
 */
export const SettingChangedEvent = Type.Object({
  key: Type.String({ minLength: 1, maxLength: SETTING_KEY_MAX }),
  category: Type.String({ maxLength: SETTING_CATEGORY_MAX }),
  description: Type.Union([Type.String(), Type.Null()]),
  /** The value in clear; null for a secret (see sealedValue) or a deleted setting. */
  value: Type.Union([Type.String(), Type.Null()]),
  secret: Type.Boolean(),
  /** A secret's value, sealed (v1.<iv>.<tag>.<data>); absent for ordinary settings. */
  sealedValue: Type.Optional(Type.String()),
  /** The setting was removed. */
  deleted: Type.Boolean(),
  /** Grows with every change of this key: keep the highest. */
  version: Type.Integer({ minimum: 1 }),
  updatedAt: IsoDateTime,
});
export type SettingChangedEvent = Static<typeof SettingChangedEvent>;

// ── API of the settings service (validation, serialisation and the web's types) ──────────
// This file must not import events.ts: events.ts imports it (SettingChangedEvent), and the
// cycle would leave one side's schemas uninitialised. Shapes shared with the bus
// (DiagnosticResult, DeadLetterInfo) are repeated here; a test in services/settings keeps
// them identical.

/** Longest value of any setting; longest description. */
export const SETTING_VALUE_MAX = 10_000;
export const SETTING_DESCRIPTION_MAX = 500;
/** At most this many test email addresses (spec §9). */
export const TEST_EMAIL_MAX = 5;
export const DEFAULT_SMTP_PORT = 587;

/** The keys the screens use (spec §3 "Settings entry"); each has a type rule. */
export const KNOWN_SETTING_KEYS = [
  'smtp_host',
  'smtp_port',
  'smtp_username',
  'smtp_password',
  'smtp_from_name',
  'smtp_from_email',
  'brand_name',
  'brand_voice',
  'website_url',
  'support_email',
  'company_address',
  'company_phone',
  'test_email_addresses',
  'test_environment_enabled',
  'mail_transport',
] as const;
export type KnownSettingKey = (typeof KNOWN_SETTING_KEYS)[number];

export const isKnownSettingKey = (key: string): key is KnownSettingKey =>
  (KNOWN_SETTING_KEYS as readonly string[]).includes(key);

/** Category a known key is filed under when the caller names none (others: `general`). */
export const SETTING_CATEGORY_OF: Record<KnownSettingKey, string> = {
  smtp_host: 'smtp',
  smtp_port: 'smtp',
  smtp_username: 'smtp',
  smtp_password: 'smtp',
  smtp_from_name: 'smtp',
  smtp_from_email: 'smtp',
  brand_name: 'brand',
  brand_voice: 'brand',
  website_url: 'brand',
  support_email: 'brand',
  company_address: 'brand',
  company_phone: 'brand',
  test_email_addresses: 'testing',
  test_environment_enabled: 'testing',
  mail_transport: 'smtp',
};

/**
 * Where the platform's mail goes, chosen by the admin (`mail_transport`): kept in the local
 * mailbox (Email → Sent mail, nothing delivered), sent through the saved SMTP server, or
 * through Amazon SES, which the operator configures on the email service (SES_REGION): only
 * then can it be chosen. Never saved: the email service's earlier rule (SES when configured,
 * else SMTP when a host is saved, else the local mailbox).
 */
export const MAIL_TRANSPORTS = ['local', 'smtp', 'ses'] as const;
export type MailTransportName = (typeof MAIL_TRANSPORTS)[number];
export const MAIL_TRANSPORT_LABELS: Record<MailTransportName, string> = {
  local: 'Local mailbox',
  smtp: 'SMTP server',
  ses: 'Amazon SES',
};

/** A setting key: letters, digits, `_ . : -`, starting with a letter or digit. */
export const SETTING_KEY_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.:-]*$';

/**
 * Credentials are sealed at rest, never returned and published sealed: `smtp_password` and
 * any key whose name says it is a credential (password, secret, token, API key, private key).
 */
export function isSecretSettingKey(key: string): boolean {
  return /pass(word|wd)|secret|token|api[_.-]?key|private[_.-]?key|credential/i.test(key);
}

/**
 * One setting as the API shows it. A secret's value is never returned: `value` is null,
 * `secret` true and `isSet` says whether one is stored.
 */
export const SettingEntry = Type.Object({
  key: Type.String(),
  value: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  category: Type.String(),
  secret: Type.Boolean(),
  isSet: Type.Boolean(),
  /** Grows with every change (the `version` of its settings.setting.changed events). */
  version: Type.Integer({ minimum: 1 }),
  updatedAt: IsoDateTime,
});
export type SettingEntry = Static<typeof SettingEntry>;

export const SettingsList = Type.Array(SettingEntry);
export type SettingsList = Static<typeof SettingsList>;

/** POST /api/admin/settings: one setting per call (spec §5: the forms send one call per field). */
export const SaveSettingBody = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: SETTING_KEY_MAX }),
    value: Type.String(),
    description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: SETTING_CATEGORY_MAX })),
  },
  { additionalProperties: false },
);
export type SaveSettingBody = Static<typeof SaveSettingBody>;

export const SaveSettingResponse = Type.Object({
  success: Type.Literal(true),
  /** False when the value, description and category were already these (no new version). */
  changed: Type.Boolean(),
  setting: SettingEntry,
  /**
   * Services that keep a copy of the settings and had not confirmed applying this one when the
   * save answered (not running, or too slow): it is saved, and reaches them with its event, but
   * until then they may still act on the previous value. Empty: in force everywhere.
   */
  pending: Type.Array(Type.Enum(SERVICE_NAMES)),
});
export type SaveSettingResponse = Static<typeof SaveSettingResponse>;

// ── Brand intelligence ────────────────────────────────────────────────────────────────

export const BRAND_PROVIDERS = ['local', 'openai'] as const;
export type BrandProvider = (typeof BRAND_PROVIDERS)[number];

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** Spec §3 "Brand analysis result", plus where it came from. Colours are `#rrggbb`. */
export const BrandAnalysis = Type.Object({
  colors: Type.Object({ primary: NullableString, secondary: NullableString, accent: NullableString }),
  voice: Type.Object({
    tone: Type.String(),
    personality: Type.String(),
    writingStyle: Type.String(),
    /** By term weight, strongest first (the screen shows the first 5). */
    keywords: Type.Array(Type.String()),
  }),
  typography: Type.Object({ primaryFont: NullableString, secondaryFont: NullableString }),
  messaging: Type.Object({ tagline: Type.String(), ctaStyle: Type.String() }),
  /** Who wrote it: the local analysis, or OpenAI refining it. */
  provider: Type.Enum(BRAND_PROVIDERS),
  /** The saved website that was crawled, and every document read (pages and stylesheets). */
  url: Type.String(),
  sources: Type.Array(Type.String()),
  /** The most used non-neutral colours, strongest first. */
  palette: Type.Array(Type.String()),
  analyzedAt: IsoDateTime,
});
export type BrandAnalysis = Static<typeof BrandAnalysis>;

export const BrandCrawlResponse = Type.Object({ analysis: BrandAnalysis });
export type BrandCrawlResponse = Static<typeof BrandCrawlResponse>;

export const BrandSettingsResponse = Type.Object({
  success: Type.Literal(true),
  settings: Type.Object({
    brandName: NullableString,
    brandVoice: NullableString,
    websiteUrl: NullableString,
    supportEmail: NullableString,
    companyAddress: NullableString,
    companyPhone: NullableString,
    /** The last brand analysis, or null before the first crawl. */
    analysis: Type.Union([BrandAnalysis, Type.Null()]),
  }),
});
export type BrandSettingsResponse = Static<typeof BrandSettingsResponse>;

// ── Diagnostics ───────────────────────────────────────────────────────────────────────

const ServiceNameSchema = Type.Enum(SERVICE_NAMES);
const DiagnosticStatusSchema = Type.Enum(['success', 'warning', 'error'] as const);

/** The six test cards of the Diagnostics tab (spec §7), in screen order. */
export const DIAGNOSTIC_TESTS = [
  {
    id: 'database-connection',
    name: 'Database Connection',
    description: "Pings every service's PostgreSQL database and reports its latency.",
    category: 'Infrastructure',
  },
  {
    id: 'email-smtp',
    name: 'Email SMTP',
    description:
      "Verifies the email service's chosen mail transport (the local mailbox, an SMTP login or Amazon SES).",
    category: 'Email',
  },
  {
    id: 'voice-api',
    name: 'Voice API',
    description: 'Synthesises a short phrase with the speech engine.',
    category: 'Voice',
  },
  {
    id: 'twilio-integration',
    name: 'Twilio Integration',
    description: 'Checks the Twilio credentials when calls go through Twilio.',
    category: 'Voice',
  },
  {
    id: 'openai-api',
    name: 'OpenAI API',
    description: 'Checks the OpenAI key the blog writer uses.',
    category: 'AI',
  },
  {
    id: 'api-endpoints',
    name: 'API Endpoints',
    description: 'Every service answers and is ready to serve requests.',
    category: 'Infrastructure',
  },
] as const;
export type DiagnosticTestId = (typeof DIAGNOSTIC_TESTS)[number]['id'];
export const DIAGNOSTIC_TEST_IDS = DIAGNOSTIC_TESTS.map((t) => t.id) as DiagnosticTestId[];

/** Any id is accepted by the schema; an unknown one answers 404. */
export const DiagnosticTestParams = Type.Object({ testId: Type.String({ minLength: 1, maxLength: 100 }) });
export type DiagnosticTestParams = Static<typeof DiagnosticTestParams>;

/** What one service answered for one check (same fields as DiagnosticResult, plus who). */
export const ServiceCheck = Type.Object({
  service: ServiceNameSchema,
  status: DiagnosticStatusSchema,
  result: Type.String(),
  details: Type.String(),
  duration: Type.Number({ minimum: 0 }),
});
export type ServiceCheck = Static<typeof ServiceCheck>;

/** POST /api/admin/diagnostics/{testId}: spec §7's answer, plus each service's part. */
export const DiagnosticRunResponse = Type.Object({
  status: DiagnosticStatusSchema,
  result: Type.String(),
  details: Type.String(),
  /** Milliseconds the whole test took, round trips included. */
  duration: Type.Number({ minimum: 0 }),
  checks: Type.Array(ServiceCheck),
});
export type DiagnosticRunResponse = Static<typeof DiagnosticRunResponse>;

export const SERVICE_STATES = ['ready', 'not_ready', 'not_running'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];
export const STORAGE_MODES = ['embedded', 'external', 'unspecified'] as const;
export type StorageMode = (typeof STORAGE_MODES)[number];

/** GET /api/admin/settings/status: the General tab's platform status and data storage. */
export const PlatformStatus = Type.Object({
  services: Type.Array(
    Type.Object({
      service: ServiceNameSchema,
      /** ready = answered and its database answered; not_ready = answered, database did not. */
      state: Type.Enum(SERVICE_STATES),
      database: Type.Union([
        Type.Object({ status: DiagnosticStatusSchema, details: Type.String(), latencyMs: Type.Number() }),
        Type.Null(),
      ]),
      /** Round trip over the bus in ms; null when it did not answer. */
      answeredInMs: Type.Union([Type.Number(), Type.Null()]),
      error: NullableString,
    }),
  ),
  bus: Type.Object({ kind: Type.Enum(['nats', 'in-process'] as const), connected: Type.Boolean() }),
  storage: Type.Object({
    mode: Type.Enum(STORAGE_MODES),
    /** Host and port of the PostgreSQL server (never credentials). */
    server: Type.String(),
    /** The settings service's own database; every service has its own. */
    database: Type.String(),
    /** Where the embedded server keeps its files, when known. */
    dataDir: NullableString,
    description: Type.String(),
  }),
  checkedAt: IsoDateTime,
});
export type PlatformStatus = Static<typeof PlatformStatus>;

/** Same shape as DeadLetterInfo in events.ts (kept identical by a test). */
export const DeadLetterItem = Type.Object({
  kind: Type.Enum(['consumer', 'outbox'] as const),
  id: Type.String(),
  consumer: Type.Union([Type.String(), Type.Null()]),
  eventId: Type.String(),
  subject: Type.String(),
  error: Type.String(),
  deliveries: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  replayRequested: Type.Boolean(),
});
export type DeadLetterItem = Static<typeof DeadLetterItem>;

/** GET /api/admin/diagnostics/dead-letters: every service's dead letters (or why not). */
export const DeadLettersResponse = Type.Object({
  services: Type.Array(
    Type.Object({
      service: ServiceNameSchema,
      reachable: Type.Boolean(),
      error: NullableString,
      deadLetters: Type.Array(DeadLetterItem),
    }),
  ),
  total: Type.Integer({ minimum: 0 }),
});
export type DeadLettersResponse = Static<typeof DeadLettersResponse>;

export const ReplayDeadLettersBody = Type.Object(
  {
    service: ServiceNameSchema,
    ids: Type.Union([
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 500 }),
      Type.Literal('all'),
    ]),
  },
  { additionalProperties: false },
);
export type ReplayDeadLettersBody = Static<typeof ReplayDeadLettersBody>;

export const ReplayDeadLettersResponse = Type.Object({
  service: ServiceNameSchema,
  queued: Type.Integer({ minimum: 0 }),
});
export type ReplayDeadLettersResponse = Static<typeof ReplayDeadLettersResponse>;

// ── Feature discovery (spec §2 "Feature-discovery panel", §3 "Feature recommendation", §7) ──
// The settings service keeps a projection of the platform's activity (bookings, calls, posts,
// address books, imports, campaigns, newsletters) from events and recommends features from it
// with written rules (services/settings/src/domain/feature-rules.ts,
// docs/adr/0044-feature-discovery-rules-decide.md).

export const FEATURE_CATEGORIES = ['automation', 'productivity', 'analytics', 'engagement'] as const;
export type FeatureCategory = (typeof FEATURE_CATEGORIES)[number];
export const FEATURE_STATUSES = ['new', 'recommended', 'trending', 'underused'] as const;
export type FeatureStatus = (typeof FEATURE_STATUSES)[number];
export const URGENCY_LEVELS = ['low', 'medium', 'high'] as const;
export type UrgencyLevel = (typeof URGENCY_LEVELS)[number];
/** The admin screens the panel can be opened on (the `page` of the recommendations call). */
export const FEATURE_PAGES = [
  'dashboard',
  'bookings',
  'users',
  'blog',
  'voice-ai',
  'settings',
  'email',
  'newsletters',
  'address-books',
] as const;
export type FeaturePage = (typeof FEATURE_PAGES)[number];
/** What a recent action was about. */
export const ACTIVITY_KINDS = [
  'booking',
  'call',
  'post',
  'address_book',
  'import',
  'campaign',
  'newsletter',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
/** Spec §9: the panel shows the top 6 recommendations, 2 benefits each, and 2 next steps. */
export const FEATURE_PANEL_LIMITS = { recommendations: 6, benefits: 2, nextSteps: 2 } as const;

/** GET /api/admin/feature-recommendations?page=: the screen the panel is open on (optional). */
export const FeatureRecommendationsQuery = Type.Object({ page: Type.Optional(Type.Enum(FEATURE_PAGES)) });
export type FeatureRecommendationsQuery = Static<typeof FeatureRecommendationsQuery>;

/** Spec §3 "Feature recommendation", plus `reason`: the activity that made it relevant. */
export const FeatureRecommendation = Type.Object({
  id: Type.String(),
  /** The same as `id` (the spec names both). */
  featureId: Type.String(),
  title: Type.String(),
  description: Type.String(),
  /** Why now, from the admin's own activity ("You imported 1,240 contacts but ..."). */
  reason: Type.String(),
  /** A lucide icon name (`mail`, `newspaper`, ...). */
  icon: Type.String(),
  category: Type.Enum(FEATURE_CATEGORIES),
  /** Percent, 0–100. */
  relevanceScore: Type.Integer({ minimum: 0, maximum: 100 }),
  /** A screen of the app. */
  actionUrl: Type.String(),
  benefits: Type.Array(Type.String()),
  urgencyLevel: Type.Enum(URGENCY_LEVELS),
  status: Type.Enum(FEATURE_STATUSES),
});
export type FeatureRecommendation = Static<typeof FeatureRecommendation>;

/** One recent event of the platform, in words. */
export const RecentAction = Type.Object({
  kind: Type.Enum(ACTIVITY_KINDS),
  description: Type.String(),
  occurredAt: IsoDateTime,
});
export type RecentAction = Static<typeof RecentAction>;

export const FeatureRecommendationsResponse = Type.Object({
  /** Most relevant first. */
  recommendations: Type.Array(FeatureRecommendation),
  userActivity: Type.Object({
    addressBooksCount: Type.Integer({ minimum: 0 }),
    contactsCount: Type.Integer({ minimum: 0 }),
    /** Campaigns sent live at least once (test-mode sends are not counted). */
    campaignsCount: Type.Integer({ minimum: 0 }),
    /** Newest first. */
    recentActions: Type.Array(RecentAction),
  }),
  generatedAt: IsoDateTime,
});
export type FeatureRecommendationsResponse = Static<typeof FeatureRecommendationsResponse>;

export const INSIGHT_PROVIDERS = ['local', 'openai'] as const;
export type InsightProvider = (typeof INSIGHT_PROVIDERS)[number];

/** A next step (spec: a string or an object with step or action): the step and where to take it. */
export const FeatureNextStep = Type.Object({
  step: Type.String(),
  featureId: Type.String(),
  actionUrl: Type.String(),
});
export type FeatureNextStep = Static<typeof FeatureNextStep>;

export const FeatureInsightsResponse = Type.Object({
  insights: Type.Object({
    summary: Type.String(),
    nextSteps: Type.Array(FeatureNextStep),
  }),
  /** Who wrote the words: the local rules, or OpenAI phrasing the same facts. */
  provider: Type.Enum(INSIGHT_PROVIDERS),
  generatedAt: IsoDateTime,
});
export type FeatureInsightsResponse = Static<typeof FeatureInsightsResponse>;
