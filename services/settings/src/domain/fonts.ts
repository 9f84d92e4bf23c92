/**
 * Typefaces of a website: the families its CSS asks for (font-family and the font
 * shorthand, weighted by what they style) and the families its font links load (Google
 * Fonts, Adobe Fonts' CSS is not read).
 */

const GENERIC = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'math',
  'emoji',
  'fangsong',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
  'inherit',
  'initial',
  'unset',
  'revert',
  'revert-layer',
  'apple color emoji',
  'segoe ui emoji',
  'segoe ui symbol',
  'noto color emoji',
]);
const SYSTEM = new Set(['system-ui', '-apple-system', 'blinkmacsystemfont']);

/** The families of a font-family list, in order: unquoted, generic keywords and var() dropped. */
export function familiesOf(list: string): string[] {
  const out: string[] = [];
  for (const part of list.split(',')) {
    const raw = part
      .trim()
      .replace(/!important$/i, '')
      .trim();
    if (!raw || /^var\(/i.test(raw)) continue;
    const name = raw.replace(/^["']|["']$/g, '').trim();
    const lower = name.toLowerCase();
    if (!name || GENERIC.has(lower)) continue;
    out.push(SYSTEM.has(lower) ? 'System UI' : name);
  }
  return out;
}

/** The family list of a `font` shorthand (what follows the size and line height), or null. */
export function familiesOfShorthand(value: string): string[] | null {
  const m =
    /(?:^|\s)(?:[\d.]+(?:px|em|rem|pt|pc|%|vw|vh|vmin|vmax|ex|ch|cm|mm|in)|xx-small|x-small|small|medium|large|x-large|xx-large|xxx-large|smaller|larger)(?:\s*\/\s*[\w.%-]+)?\s+(.+)$/i.exec(
      value.trim(),
    );
  return m ? familiesOf(m[1] as string) : null;
}

/** Families named by a Google Fonts stylesheet URL (`family=Inter:wght@400|Playfair+Display`). */
export function googleFontFamilies(href: string): string[] {
  let url: URL;
  try {
    url = new URL(href, 'https://example.invalid/');
  } catch {
    return [];
  }
  if (!/(^|\.)fonts\.googleapis\.com$/i.test(url.hostname)) return [];
  const out: string[] = [];
  for (const value of url.searchParams.getAll('family')) {
    for (const f of value.split('|')) {
      const name = (f.split(':')[0] ?? '').replace(/\+/g, ' ').trim();
      if (name) out.push(name);
    }
  }
  return out;
}

export interface FontSignals {
  /** Weighted uses: body text counts most, headings next, then any other rule. */
  body: Map<string, number>;
  headings: Map<string, number>;
  other: Map<string, number>;
  /** Families loaded by font links (a brand choice even when the CSS names it indirectly). */
  linked: Map<string, number>;
}

export const emptyFontSignals = (): FontSignals => ({
  body: new Map(),
  headings: new Map(),
  other: new Map(),
  linked: new Map(),
});

const add = (m: Map<string, number>, k: string, n = 1) => m.set(k, (m.get(k) ?? 0) + n);

/** Records a font-family (or font) declaration under the selector of its rule. */
export function recordFontDeclaration(
  signals: FontSignals,
  selector: string,
  property: string,
  value: string,
) {
  const families =
    property === 'font-family' ? familiesOf(value) : property === 'font' ? familiesOfShorthand(value) : null;
  const first = families?.[0];
  if (!first) return;
  const sel = selector.toLowerCase();
  if (/(^|[\s,>])(html|body|:root)\b/.test(sel)) add(signals.body, first);
  else if (/(^|[\s,>.])(h[1-6]|heading|headline|title|display|hero)\b/.test(sel))
    add(signals.headings, first);
  else add(signals.other, first);
}

export function recordLinkedFonts(signals: FontSignals, families: string[]) {
  for (const f of families) add(signals.linked, f);
}

const top = (m: Map<string, number>, except: (string | null)[] = []) =>
  [...m.entries()]
    .filter(([k]) => !except.some((e) => e && e.toLowerCase() === k.toLowerCase()))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;

/**
 * Primary = the body text's family (else the most used, else the first linked one);
 * secondary = the headings' family when it differs, else the next most used or linked one.
 */
export function pickFonts(s: FontSignals): { primaryFont: string | null; secondaryFont: string | null } {
  const all = new Map<string, number>();
  for (const m of [s.body, s.headings, s.other, s.linked]) for (const [k, n] of m) add(all, k, n);
  const primary = top(s.body) ?? top(all);
  const secondary = top(s.headings, [primary]) ?? top(s.linked, [primary]) ?? top(all, [primary]);
  return { primaryFont: primary, secondaryFont: secondary };
}
