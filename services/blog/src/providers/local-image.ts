import { escapeMarkup } from '@parley/kit';
import type { ImageData } from './types.ts';

/**
 * The local image engine: a branded 1200×630 featured card (gradient, the prompt as a
 * headline, the Parley mark) rendered as SVG. Every piece of text is XML-escaped, and
 * the service serves stored SVG with a sandboxing CSP, so a prompt can never become script.
 *
 * Every word sits in the card's centre, inside {@link SAFE_AREA}: the thumbnails crop the card
 * to their own shape (16:9 on the blog, 3:2 in the admin list), and a 3:2 crop of 1200×630
 * keeps only x 128–1072. Lines are centred, at most 24 characters (a 56 px bold line of 24
 * characters is about 850 px wide).
 */

/** The part of the card every thumbnail shows (the narrowest crop, 3:2, with a margin). */
export const SAFE_AREA = { x: 160, width: 880 } as const;
const LINE_CHARS = 24;

const PALETTES: Array<[string, string, string]> = [
  ['#0b1220', '#0e7490', '#22d3ee'],
  ['#111827', '#4338ca', '#a78bfa'],
  ['#0f172a', '#047857', '#34d399'],
  ['#1e1b4b', '#be185d', '#f472b6'],
  ['#0c0a09', '#b45309', '#fbbf24'],
];

/** Greedy word wrap to at most `lines` lines of `width` characters. */
function wrap(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if ((line ? `${line} ${word}` : word).length > width && line) {
      out.push(line);
      line = word;
      if (out.length === lines) break;
    } else line = line ? `${line} ${word}` : word;
  }
  if (out.length < lines && line) out.push(line);
  if (out.length === lines && text.split(/\s+/).join(' ').length > out.join(' ').length) {
    out[lines - 1] = `${(out[lines - 1] ?? '').replace(/\s*\S*$/, '')}…`;
  }
  return out;
}

/**
 * A line's width in ems in a bold sans (DejaVu Sans Bold's widths, rounded up), so that a
 * line of wide letters ('WWW…') is set smaller instead of leaving the safe area.
 */
function ems(line: string): number {
  let w = 0;
  for (const ch of line) {
    if (/[WMmw@]/.test(ch)) w += 1.05;
    else if (/[A-Z0-9#%&]/.test(ch)) w += 0.8;
    else if (/[a-z]/.test(ch)) w += /[ijlft]/.test(ch) ? 0.4 : 0.7;
    else if (ch === ' ') w += 0.35;
    else w += ch.charCodeAt(0) > 0x2000 ? 1.05 : 0.5;
  }
  return w;
}

export function renderCard(prompt: string): ImageData {
  let h = 0;
  for (const ch of prompt) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const [bg, from, to] = PALETTES[h % PALETTES.length] as [string, string, string];
  const lines = wrap(prompt.trim() || 'Parley', LINE_CHARS, 4);
  const size = lines.length > 3 ? 48 : 56;
  const top = 300 - ((lines.length - 1) * size * 1.2) / 2;
  const centre = SAFE_AREA.x + SAFE_AREA.width / 2;
  const text = lines
    .map(
      (l, i) =>
        `<text x="${centre}" y="${Math.round(top + i * size * 1.2)}" font-size="${Math.min(size, Math.floor(SAFE_AREA.width / ems(l)))}">${escapeMarkup(l)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img" aria-label="${escapeMarkup(lines.join(' '))}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>
<radialGradient id="r" cx="0.85" cy="0.15" r="0.7"><stop offset="0" stop-color="#ffffff" stop-opacity="0.25"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient></defs>
<rect width="1200" height="630" fill="${bg}"/><rect width="1200" height="630" fill="url(#g)" opacity="0.85"/><rect width="1200" height="630" fill="url(#r)"/>
<g fill="none" stroke="#ffffff" stroke-opacity="0.18" stroke-width="3">${[0, 1, 2, 3, 4]
    .map((i) => `<path d="M${760 + i * 60} 520 q 30 -${60 + i * 25} 60 0 t 60 0"/>`)
    .join('')}</g>
<g font-family="Inter, Helvetica, Arial, sans-serif" font-weight="700" fill="#ffffff" text-anchor="middle">${text}</g>
<g font-family="Inter, Helvetica, Arial, sans-serif" fill="#ffffff"><circle cx="${centre - 62}" cy="548" r="14" fill="#22d3ee"/><text x="${centre - 36}" y="559" font-size="30" font-weight="700">Parley</text></g>
</svg>`;
  return { bytes: new TextEncoder().encode(svg), type: 'svg' };
}
