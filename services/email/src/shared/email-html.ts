import { convert } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';

/**
 * The one e-mail HTML allowlist: only e-mail markup (tables, inline styles, images, links,
 * <style>), no script, frame, form, <base>, event handler, `javascript:` URL or CSS that runs
 * code, whatever an admin, a blog post or the AI writer wrote. Campaign and newsletter HTML
 * passes it when saved and again when sent (features/campaigns/domain/compose.ts), the previews show its
 * output, so what is sent is what the preview showed. Comments go too (Outlook's conditional
 * comments included). The merge fields ({{firstName}}, {{company}}, an
 * `href="{{unsubscribeUrl}}"`) pass untouched: they hold no scheme, so they are relative URLs
 * to sanitize-html.
 */

const ATTRIBUTES_FOR_ALL = [
  'style',
  'class',
  'align',
  'valign',
  'width',
  'height',
  'bgcolor',
  'border',
  'role',
  'dir',
  'lang',
  'title',
  'aria-hidden',
  'aria-label',
];

/** The one allowlist of e-mail markup (tables, inline styles, images, links, <style>). */
const EMAIL_HTML_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'center',
    'font',
    'html',
    'head',
    'body',
    'title',
    'meta',
    'style',
  ],
  // <style> is needed for the responsive rules; its text is checked below.
  allowVulnerableTags: true,
  allowedAttributes: {
    '*': ATTRIBUTES_FOR_ALL,
    // data-no-track: the campaign composer leaves such a link (unsubscribe) out of click tracking.
    a: ['href', 'name', 'target', 'rel', 'data-no-track'],
    img: ['src', 'alt', 'width', 'height'],
    table: ['cellpadding', 'cellspacing', 'border', 'width', 'align', 'bgcolor', 'role'],
    td: ['colspan', 'rowspan', 'width', 'align', 'valign', 'bgcolor'],
    th: ['colspan', 'rowspan', 'width', 'align', 'valign', 'bgcolor'],
    font: ['color', 'face', 'size'],
    meta: ['charset', 'name', 'content'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'cid'] },
  allowProtocolRelative: false,
};

/** CSS that runs code in old engines (IE's expression() and behaviors, Firefox's XBL) or loads more CSS. */
const CSS_DANGER = /expression\s*\(|javascript\s*:|vbscript\s*:|behaviou?r\s*:|-moz-binding|@import/i;

/** CSS as an engine reads it before acting on it: comments out, escapes (`exp\\72ession`) decoded. */
function cssAsRead(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_m, hex: string) => {
      const code = Number.parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    })
    .replace(/\\(.)/g, '$1');
}

/** An inline style without the declarations that could run code. */
function safeStyle(style: string): string {
  return style
    .split(';')
    .filter((declaration) => !CSS_DANGER.test(cssAsRead(declaration)))
    .join(';');
}

/**
 * A <style> sheet without such CSS: no @import, each rule without its code-running
 * declarations; a sheet that still holds some once read is dropped whole.
 */
function safeStyleSheet(css: string): string {
  const safe = css
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')
    .replace(/@import[^;]*;?/gi, '')
    .replace(/\{([^{}]*)\}/g, (_m, body: string) => `{${safeStyle(body)}}`);
  return CSS_DANGER.test(cssAsRead(safe)) ? '' : safe;
}

/**
 * E-mail HTML made safe by the one allowlist; `extra` adds a caller's filters and transforms
 * (the stored-mail preview drops the open pixel and untracks links). Idempotent: its output
 * passes through unchanged.
 */
export function sanitizeEmailHtml(html: string, extra: sanitizeHtml.IOptions = {}): string {
  const doctype = /^\s*<!doctype html>/i.test(html);
  let clean = sanitizeHtml(html, {
    ...EMAIL_HTML_POLICY,
    ...extra,
    transformTags: {
      ...extra.transformTags,
      // Every element's inline style, after any transform of the caller.
      '*': (tagName, attribs) =>
        attribs.style === undefined
          ? { tagName, attribs }
          : { tagName, attribs: { ...attribs, style: safeStyle(attribs.style) } },
    },
  });
  clean = clean.replace(
    /(<style\b[^>]*>)([\s\S]*?)(<\/style>)/gi,
    (_m, open: string, css: string, close: string) => `${open}${safeStyleSheet(css)}${close}`,
  );
  return doctype ? `<!DOCTYPE html>\n${clean.trimStart()}` : clean;
}

/** The plain-text version of e-mail HTML, written as the campaign composer writes one. */
export function textOfHtml(html: string): string {
  return convert(html, {
    wordwrap: 78,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'title', format: 'skip' },
      // The hidden preview line is for the inbox list, not the text part.
      { selector: 'div.parley-preheader', format: 'skip' },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => ({ selector: h, options: { uppercase: false } })),
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  }).trim();
}
