import type { BrandAnalysis } from '@parley/contracts';
import OpenAI from 'openai';
import type { PageDigest } from '../domain/brand-analysis.ts';

/** Refines the local brand analysis; only OpenAI so far (the local analysis stands alone otherwise). */
export interface BrandRefiner {
  readonly provider: 'openai';
  readonly model: string;
  refine(local: BrandAnalysis, digest: PageDigest): Promise<BrandAnalysis>;
}

const str = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.trim() ? v.replace(/\s+/g, ' ').trim().slice(0, max) : null;

/**
 * OpenAI (official SDK, JSON mode) rewrites the voice and messaging from the page's words and
 * may reorder the colours and fonts, but only among those the crawl really found: a colour or
 * font the site does not use is ignored, so the facts stay the crawl's.
 */
export function openAiBrandRefiner(opts: { apiKey: string; model: string; baseURL?: string }): BrandRefiner {
  const client = new OpenAI({
    apiKey: opts.apiKey,
    timeout: 30_000,
    maxRetries: 1,
    ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
  });
  return {
    provider: 'openai',
    model: opts.model,
    async refine(local, digest) {
      const fonts = [local.typography.primaryFont, local.typography.secondaryFont].filter(Boolean);
      const res = await client.chat.completions.create({
        model: opts.model,
        response_format: { type: 'json_object' },
        messages: [
          {
            role: 'system',
            content:
              'You are a brand strategist. From a website home page and a first automated analysis, describe the brand. Answer with JSON: {"tone","personality","writingStyle","keywords","tagline","ctaStyle","primaryColor","secondaryColor","accentColor","primaryFont","secondaryFont"}. tone, personality and writingStyle are short phrases; keywords is 5 to 10 single words; tagline is the brand\'s own tagline quoted from the page when it has one; ctaStyle describes its calls to action. Colours must be chosen from the given palette and fonts from the given fonts, or null.',
          },
          {
            role: 'user',
            content: JSON.stringify({
              url: local.url,
              title: digest.title,
              description: digest.description,
              headings: digest.headings,
              callsToAction: digest.ctas,
              text: digest.text.slice(0, 3000),
              palette: local.palette,
              fonts,
              firstAnalysis: { colors: local.colors, voice: local.voice, messaging: local.messaging },
            }),
          },
        ],
      });
      const raw = JSON.parse(res.choices[0]?.message?.content ?? '{}') as Record<string, unknown>;
      const palette = new Set(local.palette.map((c) => c.toLowerCase()));
      const color = (v: unknown, fallback: string | null) => {
        const c = typeof v === 'string' ? v.toLowerCase() : null;
        return c && palette.has(c) ? c : fallback;
      };
      const font = (v: unknown, fallback: string | null) =>
        typeof v === 'string' && fonts.includes(v) ? v : fallback;
      const keywords = Array.isArray(raw.keywords)
        ? raw.keywords
            .map((k) => str(k, 40))
            .filter((k): k is string => k !== null)
            .slice(0, 10)
        : [];
      return {
        ...local,
        provider: 'openai',
        colors: {
          primary: color(raw.primaryColor, local.colors.primary),
          secondary: color(raw.secondaryColor, local.colors.secondary),
          accent: color(raw.accentColor, local.colors.accent),
        },
        typography: {
          primaryFont: font(raw.primaryFont, local.typography.primaryFont),
          secondaryFont: font(raw.secondaryFont, local.typography.secondaryFont),
        },
        voice: {
          tone: str(raw.tone, 120) ?? local.voice.tone,
          personality: str(raw.personality, 160) ?? local.voice.personality,
          writingStyle: str(raw.writingStyle, 200) ?? local.voice.writingStyle,
          keywords: keywords.length ? keywords : local.voice.keywords,
        },
        messaging: {
          tagline: str(raw.tagline, 200) ?? local.messaging.tagline,
          ctaStyle: str(raw.ctaStyle, 200) ?? local.messaging.ctaStyle,
        },
      };
    },
  };
}
