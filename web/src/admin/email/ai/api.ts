import {
  type BrandSettingsResponse,
  CAMPAIGN_GOAL_LABELS,
  CAMPAIGN_GOALS,
  type Campaign,
  type CampaignGoal,
  type CompanyContext,
  EMAIL_AI_LIMITS,
  type GenerateCampaignBody,
  type GenerateCampaignResponse,
  type OptimizeContentBody,
  type OptimizeContentResponse,
} from '@parley/contracts';
import { adminRequest } from '../../lib/api.ts';

/** The AI writing calls (email marketing §7) and what the dialogs derive from the brand settings. */

export const GENERATE_PATH = '/api/admin/email/generate-campaign';
export const OPTIMIZE_PATH = '/api/admin/email/optimize-content';

export const generateCampaign = (body: GenerateCampaignBody) =>
  adminRequest<GenerateCampaignResponse>('POST', GENERATE_PATH, body);
export const optimizeContent = (body: OptimizeContentBody) =>
  adminRequest<OptimizeContentResponse>('POST', OPTIMIZE_PATH, body);

/** The company context's fields, as the generator's form edits them (all text). */
export interface CompanyFields {
  companyName: string;
  industry: string;
  audience: string;
  valueProposition: string;
  tone: string;
  website: string;
  address: string;
  keywords: string;
  brandColor: string;
}

export const EMPTY_COMPANY: CompanyFields = {
  companyName: '',
  industry: '',
  audience: '',
  valueProposition: '',
  tone: '',
  website: '',
  address: '',
  keywords: '',
  brandColor: '',
};

const cut = (s: string | null | undefined) => (s ?? '').trim().slice(0, EMAIL_AI_LIMITS.companyField);

/**
 * The company context from the brand settings (`GET /api/admin/brand/settings`): brand name,
 * website and address, and from the last brand analysis the tagline (the value proposition),
 * the tone, the first keywords and the primary colour.
 */
export function companyFromBrand(brand: BrandSettingsResponse | undefined): CompanyFields {
  const s = brand?.settings;
  if (!s) return EMPTY_COMPANY;
  const a = s.analysis;
  return {
    companyName: cut(s.brandName),
    industry: '',
    audience: '',
    valueProposition: cut(a?.messaging.tagline),
    tone: cut(s.brandVoice || a?.voice.tone),
    website: cut(s.websiteUrl),
    address: cut(s.companyAddress),
    keywords: (a?.voice.keywords ?? []).slice(0, 5).join(', '),
    brandColor: /^#[0-9a-f]{6}$/i.test(a?.colors.primary ?? '') ? (a?.colors.primary as string) : '',
  };
}

/** What is sent: the filled fields only (the service completes the rest from its settings). */
export function companyContextOf(f: CompanyFields): CompanyContext | null {
  const c: CompanyContext = {};
  for (const key of [
    'companyName',
    'industry',
    'audience',
    'valueProposition',
    'tone',
    'website',
    'address',
  ] as const) {
    const v = cut(f[key]);
    if (v) c[key] = v;
  }
  const keywords = f.keywords
    .split(',')
    .map((k) => k.trim().slice(0, 60))
    .filter(Boolean)
    .slice(0, EMAIL_AI_LIMITS.keywords);
  if (keywords.length) c.keywords = keywords;
  if (/^#[0-9a-f]{6}$/i.test(f.brandColor.trim())) c.brandColor = f.brandColor.trim();
  return Object.keys(c).length ? c : null;
}

export const GOAL_OPTIONS = CAMPAIGN_GOALS.map((g) => ({ value: g, label: CAMPAIGN_GOAL_LABELS[g] }));

/**
 * Regenerating an existing campaign: its name and subject are the prompt, and the goal is the one
 * the generator named it after (" – Demo booking"), else lead generation.
 */
export function regenerateSeed(c: Campaign): { prompt: string; goal: CampaignGoal } {
  const named = CAMPAIGN_GOALS.find((g) =>
    c.name.toLowerCase().endsWith(` – ${CAMPAIGN_GOAL_LABELS[g].toLowerCase()}`),
  );
  const name = named ? c.name.slice(0, c.name.length - ` – ${CAMPAIGN_GOAL_LABELS[named]}`.length) : c.name;
  const prompt = `${name.trim()} — ${c.subject.trim()}`.slice(0, EMAIL_AI_LIMITS.prompt);
  return { prompt, goal: named ?? 'lead_generation' };
}
