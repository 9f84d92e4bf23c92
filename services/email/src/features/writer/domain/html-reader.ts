/**
 * Reading e-mail HTML for the content optimizer: its visible text, its links and main call to
 * action, and where an added block goes (after <body>, before the call to action, at the end
 * of the content).
 */

// ── HTML ─────────────────────────────────────────────────────────────────────────

/** Applies `fn` to the visible text of the HTML (outside tags, comments, head, style, script, title). */
export function mapText(html: string, fn: (text: string) => string): string {
  const parts = html.split(/(<!--[\s\S]*?-->|<[^>]*>)/);
  let hidden = 0;
  const HIDDEN = /^<(\/?)(head|style|script|title)\b/i;
  return parts
    .map((part, i) => {
      if (i % 2 === 1) {
        const m = HIDDEN.exec(part);
        if (m) hidden = Math.max(0, hidden + (m[1] ? -1 : 1));
        return part;
      }
      return hidden || !part.trim() ? part : fn(part);
    })
    .join('');
}

/** The body's visible text, entities decoded enough to quote it. */
export function visibleText(html: string): string {
  const body = /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  const texts: string[] = [];
  mapText(body.replace(/<div[^>]*class="[^"]*parley-preheader[^"]*"[^>]*>[\s\S]*?<\/div>/i, ''), (t) => {
    texts.push(t);
    return t;
  });
  return texts
    .join(' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

export interface Link {
  start: number;
  end: number;
  open: string;
  inner: string;
  href: string;
  button: boolean;
}

function linksOf(html: string): Link[] {
  const out: Link[] = [];
  for (const m of html.matchAll(/(<a\b[^>]*>)([\s\S]*?)<\/a>/gi)) {
    const open = m[1] as string;
    const href = /\bhref\s*=\s*"([^"]*)"/i.exec(open)?.[1] ?? /\bhref\s*=\s*'([^']*)'/i.exec(open)?.[1] ?? '';
    if (!href || /unsubscribe/i.test(href) || /^mailto:/i.test(href) || /^#/.test(href)) continue;
    const style = /\bstyle\s*=\s*"([^"]*)"/i.exec(open)?.[1] ?? '';
    const start = m.index ?? 0;
    const before = html.slice(Math.max(0, start - 300), start);
    const button = /background|padding/i.test(style) || /<td\b[^>]*bgcolor[^>]*>\s*$/i.test(before);
    out.push({ start, end: start + m[0].length, open, inner: m[2] as string, href, button });
  }
  return out;
}

/** The main call to action: the first button-like link, else the first link. */
export const ctaOf = (html: string): Link | null => {
  const links = linksOf(html);
  return links.find((l) => l.button) ?? links[0] ?? null;
};

const BLOCK_END = /<\/(?:p|ul|ol|h[1-6]|table|div|blockquote)>/gi;

/** Where a block goes "before the call to action": after the block that precedes it. */
export function beforeCta(html: string, cta: Link | null): number {
  if (!cta) return contentEnd(html);
  const before = html.slice(0, cta.start);
  let openP = -1;
  for (const m of before.matchAll(/<p\b/gi)) openP = m.index ?? 0;
  if (openP < before.lastIndexOf('</p>')) openP = -1;
  let lastEnd = -1;
  for (const m of before.matchAll(BLOCK_END)) lastEnd = (m.index ?? 0) + m[0].length;
  // The link sits in an open paragraph: before that paragraph.
  if (openP > lastEnd) return openP;
  // A button table: after the block before the table that holds it.
  const table = before.lastIndexOf('<table');
  if (table > lastEnd) {
    let end = -1;
    for (const m of html.slice(0, table).matchAll(BLOCK_END)) end = (m.index ?? 0) + m[0].length;
    return end >= 0 ? end : table;
  }
  return lastEnd >= 0 ? lastEnd : bodyStart(html);
}

/** After <body>, or 0. */
export function bodyStart(html: string): number {
  const m = /<body\b[^>]*>/i.exec(html);
  return m ? (m.index ?? 0) + m[0].length : 0;
}

/** The end of the message's own content: before the footer's unsubscribe paragraph, or </body>. */
export function contentEnd(html: string): number {
  const unsub = html.search(/\{\{\s*unsubscribeUrl\s*\}\}|unsubscribe/i);
  const limit = unsub >= 0 ? unsub : (html.search(/<\/body>/i) + 1 || html.length + 1) - 1;
  let end = -1;
  for (const m of html.slice(0, limit).matchAll(/<\/p>/gi)) end = (m.index ?? 0) + m[0].length;
  if (end >= 0 && unsub >= 0) {
    // The last paragraph before the unsubscribe line may be the footer itself: keep before it
    // when the unsubscribe link is inside that paragraph.
    const open = html.slice(0, unsub).lastIndexOf('<p');
    const close = html.slice(0, unsub).lastIndexOf('</p>');
    if (open > close) {
      let prev = -1;
      for (const m of html.slice(0, open).matchAll(/<\/p>/gi)) prev = (m.index ?? 0) + m[0].length;
      return prev >= 0 ? prev : open;
    }
  }
  if (end >= 0) return end;
  const close = html.search(/<\/body>/i);
  return close >= 0 ? close : html.length;
}

/** The first body paragraph's style (none when it has none), so an added line looks like the rest. */
export function paragraphStyle(html: string): string {
  const open = /<p\b[^>]*>/i.exec(html.slice(bodyStart(html)))?.[0];
  if (!open)
    return 'margin:0 0 16px;font-family:Arial, Helvetica, sans-serif;font-size:16px;line-height:24px;color:#1f2937;';
  const style = (/\bstyle\s*=\s*"([^"]*)"/i.exec(open)?.[1] ?? '').trim();
  return style && !style.endsWith(';') ? `${style};` : style;
}

/**
 * The opening tag of the paragraph whose text contains `sentence` (its first words are enough),
 * or null when the sentence is not inside a <p> (text in a table cell, split by markup).
 */
export function paragraphAround(html: string, sentence: string): { start: number; end: number } | null {
  const words = sentence.split(/\s+/).slice(0, 4).join(' ');
  let found = -1;
  const parts = html.split(/(<[^>]*>)/);
  let at = 0;
  for (const [i, part] of parts.entries()) {
    if (i % 2 === 0 && found < 0) {
      const k = part
        .replace(/&nbsp;/g, ' ')
        .replace(/\s+/g, ' ')
        .indexOf(words);
      if (k >= 0) found = at;
    }
    at += part.length;
  }
  if (found < 0) return null;
  const before = html.slice(0, found);
  let open = -1;
  for (const m of before.matchAll(/<p\b[^>]*>/gi)) open = m.index ?? 0;
  if (open < 0 || open < before.lastIndexOf('</p>')) return null;
  const tag = /<p\b[^>]*>/i.exec(html.slice(open))?.[0] ?? '';
  return { start: open, end: open + tag.length };
}
