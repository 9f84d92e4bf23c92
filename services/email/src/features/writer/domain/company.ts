import { type CompanyContext, EMAIL_AI_LIMITS } from '@parley/contracts';

/**
 * The company a campaign is written for: the structured context or the admin's free text,
 * completed with the settings' brand name and website.
 */

// ── the company ──────────────────────────────────────────────────────────────────

export interface Company {
  name: string;
  industry: string | null;
  audience: string | null;
  valueProposition: string | null;
  tone: string | null;
  website: string | null;
  address: string | null;
  keywords: string[];
  brandColor: string | null;
  /** Free text the admin wrote that fits no field. */
  notes: string | null;
}

const clean = (s: string | null | undefined, max: number = EMAIL_AI_LIMITS.companyField): string | null => {
  const v = (s ?? '').replace(/\s+/g, ' ').trim().slice(0, max);
  return v || null;
};

/** "Label: value" lines of free-text context, by the field they fill. */
const FREE_TEXT_FIELDS: Array<[RegExp, keyof CompanyContext]> = [
  [/^(company|company name|brand|brand name|business|name)$/i, 'companyName'],
  [/^(industry|sector|market|vertical)$/i, 'industry'],
  [/^(audience|target audience|customers|target|for)$/i, 'audience'],
  [/^(value proposition|value prop|tagline|promise|usp|offer)$/i, 'valueProposition'],
  [/^(tone|voice|brand voice|style)$/i, 'tone'],
  [/^(website|site|url|web)$/i, 'website'],
  [/^(address|postal address|location)$/i, 'address'],
  [/^(keywords|key words|topics)$/i, 'keywords'],
];

/**
 * The company as the writer uses it: the structured context, or free text (lines such as
 * "Industry: dental clinics" fill fields, anything else is kept as notes), completed with
 * the brand name and website of the settings.
 */
export function companyFrom(
  context: string | CompanyContext | null | undefined,
  defaults: { name: string; website: string | null },
): Company {
  let c: CompanyContext = {};
  let notes: string[] = [];
  if (typeof context === 'string') {
    for (const line of context.split(/\r?\n|;\s+/)) {
      const m = /^\s*([A-Za-z][A-Za-z ]{1,30}?)\s*[:=-]\s*(.+)$/.exec(line);
      const field = m ? FREE_TEXT_FIELDS.find(([re]) => re.test((m[1] ?? '').trim()))?.[1] : undefined;
      if (m && field === 'keywords') c.keywords = (m[2] ?? '').split(/[,;]/).map((k) => k.trim());
      else if (m && field) (c as Record<string, string>)[field] = (m[2] ?? '').trim();
      else if (line.trim()) notes.push(line.trim());
    }
  } else if (context) c = context;
  const color = c.brandColor && /^#[0-9a-f]{6}$/i.test(c.brandColor) ? c.brandColor.toLowerCase() : null;
  notes = notes.filter(Boolean);
  return {
    name: clean(c.companyName) ?? defaults.name,
    industry: clean(c.industry),
    audience: clean(c.audience),
    valueProposition: clean(c.valueProposition),
    tone: clean(c.tone),
    website: clean(c.website) ?? defaults.website,
    address: clean(c.address),
    keywords: (c.keywords ?? [])
      .map((k) => clean(k, 60))
      .filter((k): k is string => k !== null)
      .slice(0, EMAIL_AI_LIMITS.keywords),
    brandColor: color,
    notes: notes.length ? clean(notes.join(' '), EMAIL_AI_LIMITS.companyContext) : null,
  };
}
