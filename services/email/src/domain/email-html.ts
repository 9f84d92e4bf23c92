import { convert } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';

/**
 * E-mail HTML that the AI writer and optimizer hand back: only e-mail markup (tables, inline
 * styles, images, links), no script, frame, form, event handler or `javascript:` URL, whatever
 * the input or the model wrote. The merge fields ({{firstName}}, {{company}}, an
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

/**
 * E-mail HTML made safe by the one allowlist; `extra` adds a caller's filters and transforms
 * (the stored-mail preview drops the open pixel and untracks links).
 */
export function sanitizeEmailHtml(html: string, extra: sanitizeHtml.IOptions = {}): string {
  const doctype = /^\s*<!doctype html>/i.test(html);
  let clean = sanitizeHtml(html, { ...EMAIL_HTML_POLICY, ...extra });
  // CSS that runs code in old engines, or pulls in another stylesheet.
  clean = clean.replace(/<style>([\s\S]*?)<\/style>/gi, (_m, css: string) => {
    const safe = css.replace(/expression\s*\(|javascript:|behavior\s*:|-moz-binding|@import[^;]*;?/gi, '');
    return `<style>${safe}</style>`;
  });
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
