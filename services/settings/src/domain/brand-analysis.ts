import type { BrandAnalysis } from '@parley/contracts';
import * as cheerio from 'cheerio';
import * as csstree from 'css-tree';
import { type ColorSignals, emptyColorSignals, pickColors, recordColorDeclaration } from './colors.ts';
import {
  emptyFontSignals,
  type FontSignals,
  googleFontFamilies,
  pickFonts,
  recordFontDeclaration,
  recordLinkedFonts,
} from './fonts.ts';
import { ctaStyleOf, keywordsByWeight, taglineOf, voiceOf, type WeightedText } from './voice.ts';

/** What the crawl read: pages (the home page first) and stylesheets. */
export interface CrawledSite {
  url: string;
  pages: Array<{ url: string; html: string }>;
  stylesheets: Array<{ url: string; css: string }>;
}

/** Facts of the home page the AI refinement is given besides the local analysis. */
export interface PageDigest {
  title: string | null;
  description: string | null;
  h1: string | null;
  headings: string[];
  ctas: string[];
  text: string;
}

const CTA_SELECTOR = [
  'button',
  '[role="button"]',
  'input[type="submit"]',
  'a[class*="btn"]',
  'a[class*="button"]',
  'a[class*="cta"]',
  'a[href*="signup"]',
  'a[href*="sign-up"]',
  'a[href*="demo"]',
  'a[href*="contact"]',
  'a[href*="trial"]',
  'a[href*="get-started"]',
].join(',');

/** Reads every declaration of a stylesheet into the colour and font signals (bad CSS is skipped). */
export function readStylesheet(css: string, colors: ColorSignals, fonts: FontSignals): void {
  let ast: csstree.CssNode;
  try {
    ast = csstree.parse(css, {
      parseValue: false,
      parseRulePrelude: false,
      parseAtrulePrelude: false,
      parseCustomProperty: false,
      onParseError: () => {},
    });
  } catch {
    return;
  }
  csstree.walk(ast, {
    visit: 'Declaration',
    enter(node) {
      const value = node.value.type === 'Raw' ? node.value.value : csstree.generate(node.value);
      const property = node.property.startsWith('--') ? node.property : node.property.toLowerCase();
      recordColorDeclaration(colors, property, value);
      // @font-face names a family it defines; a rule names one it uses.
      if (this.atrule?.name.toLowerCase() === 'font-face') return;
      const selector = this.rule ? csstree.generate(this.rule.prelude) : '';
      recordFontDeclaration(fonts, selector, property, value);
    },
  });
  csstree.walk(ast, {
    visit: 'Atrule',
    enter(node) {
      if (node.name.toLowerCase() !== 'import' || !node.prelude) return;
      const href = /url\(\s*["']?([^"')\s]+)|["']([^"']+)["']/.exec(csstree.generate(node.prelude));
      const target = href?.[1] ?? href?.[2];
      if (target) recordLinkedFonts(fonts, googleFontFamilies(target));
    },
  });
}

/** The @import targets of a stylesheet (to read them too), Google Fonts left out. */
export function importsOf(css: string, base: string): string[] {
  const out: string[] = [];
  for (const m of css.matchAll(/@import\s+(?:url\(\s*)?["']?([^"')\s;]+)/gi)) {
    try {
      const url = new URL(m[1] as string, base);
      if (!/fonts\.googleapis\.com$/i.test(url.hostname)) out.push(url.href);
    } catch {
      // not a URL: skipped
    }
  }
  return out;
}

/** The stylesheets a page links (`<link rel="stylesheet">`), absolute. */
export function stylesheetLinks($: cheerio.CheerioAPI, base: string): string[] {
  const out: string[] = [];
  $('link[href]').each((_, el) => {
    const rel = ($(el).attr('rel') ?? '').toLowerCase().split(/\s+/);
    const as = ($(el).attr('as') ?? '').toLowerCase();
    if (!rel.includes('stylesheet') && !(rel.includes('preload') && as === 'style')) return;
    try {
      const url = new URL($(el).attr('href') as string, base);
      if (url.protocol === 'http:' || url.protocol === 'https:') out.push(url.href);
    } catch {
      // skipped
    }
  });
  return [...new Set(out)];
}

/**
 * A few pages of the same site worth reading: navigation links first, then other links;
 * files, anchors, the page itself and other hosts left out.
 */
export function sameSiteLinks($: cheerio.CheerioAPI, base: string, limit: number): string[] {
  const home = new URL(base);
  const seen = new Set<string>([home.origin + home.pathname]);
  const out: string[] = [];
  const consider = (href: string | undefined) => {
    if (!href || out.length >= limit) return;
    let url: URL;
    try {
      url = new URL(href, base);
    } catch {
      return;
    }
    if (url.origin !== home.origin) return;
    if (/\.(pdf|jpe?g|png|gif|svg|webp|zip|mp4|mp3|xml|json|ico|css|js)$/i.test(url.pathname)) return;
    const key = url.origin + url.pathname;
    if (seen.has(key)) return;
    seen.add(key);
    url.hash = '';
    out.push(url.href);
  };
  $('nav a[href], header a[href]').each((_, el) => consider($(el).attr('href')));
  $('a[href]').each((_, el) => consider($(el).attr('href')));
  return out;
}

const text = (s: string | undefined | null) => (s ?? '').replace(/\s+/g, ' ').trim();

/** The local brand analysis of a crawled site (provider "local"). */
export function analyzeSite(site: CrawledSite, now: Date): { analysis: BrandAnalysis; digest: PageDigest } {
  const colors = emptyColorSignals();
  const fonts = emptyFontSignals();
  const weighted: WeightedText = { parts: [] };
  const bodies: string[] = [];
  const ctas: string[] = [];
  let digest: PageDigest | null = null;

  site.pages.forEach((page, index) => {
    const $ = cheerio.load(page.html);
    // The home page speaks for the brand most; other pages add evidence.
    const pageWeight = index === 0 ? 2 : 1;
    const meta = (name: string) =>
      text($(`meta[name="${name}" i]`).attr('content') ?? $(`meta[property="${name}" i]`).attr('content'));
    if (index === 0) {
      const theme = meta('theme-color');
      if (theme) colors.themeColor = theme;
    }
    $('link[href]').each((_, el) => recordLinkedFonts(fonts, googleFontFamilies($(el).attr('href') ?? '')));
    $('style').each((_, el) => readStylesheet($(el).text(), colors, fonts));
    $('[style]').each((_, el) => readStylesheet(`x{${$(el).attr('style') ?? ''}}`, colors, fonts));

    $('script, style, noscript, svg, template, iframe').remove();
    const title = text($('title').first().text()) || null;
    const description = meta('description') || meta('og:description') || null;
    const h1 = text($('h1').first().text()) || null;
    const headings = $('h1, h2, h3')
      .map((_, el) => text($(el).text()))
      .get()
      .filter(Boolean);
    // Navigation links are wayfinding, not calls to action.
    const pageCtas = $(CTA_SELECTOR)
      .filter((_, el) => $(el).closest('nav').length === 0)
      .map((_, el) => text($(el).is('input') ? $(el).attr('value') : $(el).text()))
      .get()
      .filter(Boolean);
    ctas.push(...pageCtas);
    const body = text($('body').text());
    bodies.push(body);
    weighted.parts.push(
      { text: title ?? '', weight: 5 * pageWeight },
      { text: description ?? '', weight: 3 * pageWeight },
      { text: meta('keywords'), weight: 4 * pageWeight },
      { text: $('h1').text(), weight: 5 * pageWeight },
      { text: $('h2, h3').text(), weight: 3 * pageWeight },
      { text: body, weight: pageWeight },
    );
    if (index === 0)
      digest = {
        title,
        description,
        h1,
        headings: headings.slice(0, 12),
        ctas: pageCtas.slice(0, 12),
        text: body.slice(0, 4000),
      };
  });
  for (const sheet of site.stylesheets) readStylesheet(sheet.css, colors, fonts);

  const home: PageDigest = digest ?? {
    title: null,
    description: null,
    h1: null,
    headings: [],
    ctas: [],
    text: '',
  };
  const picked = pickColors(colors);
  const voice = voiceOf(bodies.join('\n'));
  const analysis: BrandAnalysis = {
    colors: { primary: picked.primary, secondary: picked.secondary, accent: picked.accent },
    voice: { ...voice, keywords: keywordsByWeight(weighted, 10) },
    typography: pickFonts(fonts),
    messaging: {
      tagline: taglineOf({ h1: home.h1, title: home.title, description: home.description }),
      ctaStyle: ctaStyleOf(ctas),
    },
    provider: 'local',
    url: site.url,
    sources: [...site.pages.map((p) => p.url), ...site.stylesheets.map((s) => s.url)],
    palette: picked.palette,
    analyzedAt: now.toISOString(),
  };
  return { analysis, digest: home };
}
