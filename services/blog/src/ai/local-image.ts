import { escapeMarkup } from '@parley/kit';
import type { ImageData } from './types.ts';

/**
 * The local image engine: a branded 1200×630 featured card (gradient, the prompt as a
 * headline, the Parley mark) rendered as SVG. Every piece of text is XML-escaped, and
 * the service serves stored SVG with a sandboxing CSP, so a prompt can never become script.
 */

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

export function renderCard(prompt: string): ImageData {
  let h = 0;
  for (const ch of prompt) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const [bg, from, to] = PALETTES[h % PALETTES.length] as [string, string, string];
  const lines = wrap(prompt.trim() || 'Parley', 28, 4);
  const size = lines.length > 3 ? 54 : 64;
  const top = 315 - ((lines.length - 1) * size * 1.2) / 2;
  const text = lines
    .map(
      (l, i) =>
        `<text x="80" y="${Math.round(top + i * size * 1.2)}" font-size="${size}">${escapeMarkup(l)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img" aria-label="${escapeMarkup(lines.join(' '))}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>
<radialGradient id="r" cx="0.85" cy="0.15" r="0.7"><stop offset="0" stop-color="#ffffff" stop-opacity="0.25"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient></defs>
<rect width="1200" height="630" fill="${bg}"/><rect width="1200" height="630" fill="url(#g)" opacity="0.85"/><rect width="1200" height="630" fill="url(#r)"/>
<g fill="none" stroke="#ffffff" stroke-opacity="0.18" stroke-width="3">${[0, 1, 2, 3, 4]
    .map((i) => `<path d="M${760 + i * 60} 520 q 30 -${60 + i * 25} 60 0 t 60 0"/>`)
    .join('')}</g>
<g font-family="Inter, Helvetica, Arial, sans-serif" font-weight="700" fill="#ffffff">${text}</g>
<g font-family="Inter, Helvetica, Arial, sans-serif" fill="#ffffff"><circle cx="96" cy="560" r="14" fill="#22d3ee"/><text x="122" y="571" font-size="30" font-weight="700">Parley</text></g>
</svg>`;
  return { bytes: new TextEncoder().encode(svg), type: 'svg' };
}
