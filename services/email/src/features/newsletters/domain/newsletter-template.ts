import type { NewsletterCustomizations } from '@parley/contracts';
import { escapeMarkup as esc } from '@parley/kit/markup';
import { sanitizeEmailHtml, textOfHtml } from '../../../shared/email-html.ts';
import { headerImagePath } from '../../../shared/header-banner.ts';
import { normalizeEmailHtml } from './html-fix.ts';

/**
 * The 'standard' newsletter template: a blog post turned into a mail, written in MJML (which
 * compiles to the table layout, inline styles and media queries that Gmail, Outlook and Apple
 * Mail render alike), then normalised by the same rules as 'Fix HTML Issues' (html-fix.ts), so
 * a fresh conversion is already what that button would make of it.
 *
 * Pure: no I/O (MJML is loaded with the first conversion, as for the transactional mails).
 * Every URL in the mail is absolute on the public origin; the featured image is PNG or JPEG
 * only (an SVG of the blog's image store becomes its PNG rendering, any other SVG or unknown
 * image the newsletter header banner); everything from the post is escaped, and the post's
 * HTML is sanitised like campaign HTML before its first paragraph is read.
 */

export interface NewsletterPost {
  id: string;
  slug: string;
  title: string;
  excerpt: string | null;
  /** The post's HTML. */
  content: string;
  author: string;
  featuredImage: string | null;
  publishedAt: string | null;
}

export interface NewsletterTemplateOptions {
  /** The public origin (no trailing slash), e.g. https://parley.ai. */
  origin: string;
  /** The brand shown at the top and in the footer. */
  brand: string;
  customizations: NewsletterCustomizations;
  /** The inbox preview line; default: the excerpt cut to PREHEADER_DEFAULT_LENGTH. */
  preheader?: string | undefined;
}

export interface BuiltNewsletter {
  html: string;
  text: string;
  preheader: string;
  postUrl: string;
  /** The image shown (absolute PNG/JPEG URL), or null when includeImage is off. */
  imageUrl: string | null;
  shareLinks: Array<{ network: string; url: string }>;
}

/** The default preheader's longest length (inboxes show about 90–150 characters). */
export const PREHEADER_DEFAULT_LENGTH = 150;
const BRAND_COLOR = '#0369a1';
const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** `text` on one line, cut at a word boundary to at most `max` characters (an ellipsis marks a cut). */
export function shorten(text: string, max: number): string {
  const s = text.replace(/\s+/g, ' ').trim();
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const at = cut.lastIndexOf(' ');
  return `${(at > max * 0.6 ? cut.slice(0, at) : cut).replace(/[\s,;:.!?-]+$/, '')}…`;
}

/** The post's link on the public site. */
export const postUrlOf = (origin: string, slug: string) => `${origin}/blog/${encodeURIComponent(slug)}`;

/** The blog's image store: `<64 hex>.svg` is also served as `<id>.png`, its PNG rendering. */
const BLOG_STORED_SVG = /^\/api\/blog\/images\/([a-f0-9]{64})\.svg$/;

/**
 * The featured image as an absolute PNG or JPEG URL, or null when it cannot be one. Relative
 * URLs are made absolute on the origin; the blog's stored SVG becomes its PNG rendering;
 * anything else that is not .png/.jpg/.jpeg (SVG, GIF, WebP, a data: URL, no extension) is null.
 */
export function mailImageUrl(src: string | null, origin: string): string | null {
  const raw = src?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.startsWith('//') ? `https:${raw}` : raw, `${origin}/`);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const stored = BLOG_STORED_SVG.exec(url.pathname);
  if (stored && url.origin === new URL(origin).origin) {
    url.pathname = `/api/blog/images/${stored[1]}.png`;
    return url.href;
  }
  return /\.(png|jpe?g)$/i.test(url.pathname) ? url.href : null;
}

/** The newsletter header banner (PNG, made for the AI writer's newsletter goal). */
export const fallbackImageUrl = (origin: string) => `${origin}${headerImagePath('newsletter')}`;

/** The excerpt, or the first paragraph of the (sanitised) content, as plain text. */
export function summaryOf(post: Pick<NewsletterPost, 'excerpt' | 'content'>): string {
  const excerpt = post.excerpt?.replace(/\s+/g, ' ').trim();
  if (excerpt) return excerpt;
  const safe = sanitizeEmailHtml(post.content ?? '');
  const first = /<p\b[^>]*>([\s\S]*?)<\/p>/i.exec(safe)?.[1] ?? safe;
  return textOfHtml(`<p>${first}</p>`).replace(/\s+/g, ' ').trim();
}

export function shareLinksOf(postUrl: string, title: string): Array<{ network: string; url: string }> {
  const u = encodeURIComponent(postUrl);
  const t = encodeURIComponent(title);
  return [
    { network: 'LinkedIn', url: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { network: 'X', url: `https://x.com/intent/tweet?url=${u}&text=${t}` },
    { network: 'Facebook', url: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { network: 'Email', url: `mailto:?subject=${t}&body=${u}` },
  ];
}

const PREHEADER_STYLE =
  'display:none;max-height:0;max-width:0;overflow:hidden;mso-hide:all;font-size:1px;line-height:1px;color:#ffffff;opacity:0;';
const PREHEADER_RE = /<div\b[^>]*class="[^"]*\bparley-preheader\b[^"]*"[^>]*>[\s\S]*?<\/div>\s*/gi;

/**
 * `html` with `preheader` as its hidden preview line (`div.parley-preheader`, the element the
 * content optimizer writes and the text part skips) right after `<body>`, replacing any earlier
 * one; without a preheader, any earlier one is removed.
 */
export function withPreheader(html: string, preheader: string | null | undefined): string {
  const clean = html.replace(PREHEADER_RE, '');
  const p = preheader?.replace(/\s+/g, ' ').trim();
  if (!p) return clean;
  const block = `<div class="parley-preheader" style="${PREHEADER_STYLE}">${esc(p)}</div>`;
  const body = /<body\b[^>]*>/i.exec(clean);
  if (!body) return `${block}${clean}`;
  const at = body.index + body[0].length;
  return `${clean.slice(0, at)}${block}${clean.slice(at)}`;
}

const dateOf = (iso: string | null): string | null => {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? null
    : d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
};

/** Builds the newsletter of a post (HTML and text part). */
export async function buildNewsletter(
  post: NewsletterPost,
  o: NewsletterTemplateOptions,
): Promise<BuiltNewsletter> {
  const origin = o.origin.replace(/\/+$/, '');
  const c = o.customizations;
  const postUrl = postUrlOf(origin, post.slug);
  const summary = summaryOf(post);
  const preheader = (o.preheader?.trim() || shorten(summary || post.title, PREHEADER_DEFAULT_LENGTH)).replace(
    /\s+/g,
    ' ',
  );
  const imageUrl = c.includeImage
    ? (mailImageUrl(post.featuredImage, origin) ?? fallbackImageUrl(origin))
    : null;
  const share = c.includeShare ? shareLinksOf(postUrl, post.title) : [];
  const date = dateOf(post.publishedAt);
  const byline = [post.author?.trim(), date].filter(Boolean).join(' · ');
  const link = (href: string, label: string, style: string) =>
    `<a href="${esc(href)}" style="${style}">${esc(label)}</a>`;

  const source = `<mjml lang="en">
  <mj-head>
    <mj-title>${esc(post.title)}</mj-title>
    <mj-attributes>
      <mj-all font-family="${FONT}" />
      <mj-text font-size="16px" line-height="1.6" color="#1f2937" padding="8px 24px" />
    </mj-attributes>
    <mj-style>
      @media only screen and (max-width: 480px) {
        .nl-title div { font-size: 24px !important; line-height: 1.25 !important; }
        .nl-share div { font-size: 13px !important; }
      }
    </mj-style>
  </mj-head>
  <mj-body background-color="#f3f4f6" width="600px">
    <mj-section padding="24px 0 8px">
      <mj-column><mj-text font-size="18px" font-weight="700" color="${BRAND_COLOR}" padding="0 24px">${esc(o.brand)}</mj-text></mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" border-radius="8px" padding="0 0 24px">
      <mj-column>
        ${
          imageUrl
            ? `<mj-image src="${esc(imageUrl)}" alt="${esc(post.title)}" href="${esc(postUrl)}" width="600px" padding="0" border-radius="8px 8px 0 0" />`
            : ''
        }
        <mj-text css-class="nl-title" font-size="28px" font-weight="700" line-height="1.25" color="#111827" padding="24px 24px 4px">${link(postUrl, post.title, 'color:#111827;text-decoration:none')}</mj-text>
        ${byline ? `<mj-text font-size="13px" color="#6b7280" padding="0 24px 8px">${esc(byline)}</mj-text>` : ''}
        ${summary ? `<mj-text>${esc(summary)}</mj-text>` : ''}
        ${
          c.includeReadMore
            ? `<mj-button href="${esc(postUrl)}" align="left" background-color="${BRAND_COLOR}" color="#ffffff" font-size="16px" font-weight="600" border-radius="6px" inner-padding="12px 24px" padding="16px 24px 0">Read more</mj-button>`
            : ''
        }
      </mj-column>
    </mj-section>
    ${
      share.length
        ? `<mj-section padding="16px 0 0">
      <mj-column>
        <mj-text css-class="nl-share" align="center" font-size="14px" color="#374151">Share this post: ${share
          .map((s) =>
            link(s.url, s.network, `color:${BRAND_COLOR};font-weight:600;text-decoration:underline`),
          )
          .join(' · ')}</mj-text>
      </mj-column>
    </mj-section>`
        : ''
    }
    <mj-section padding="16px 0 24px">
      <mj-column>
        <mj-text align="center" font-size="12px" color="#6b7280">You receive this newsletter from ${esc(o.brand)}. <a href="{{unsubscribeUrl}}" data-no-track style="color:#6b7280">Unsubscribe</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
  const { default: mjml2html } = await import('mjml');
  const result = await mjml2html(source, { validationLevel: 'strict', minify: false, fonts: {} });
  if (result.errors.length) throw new Error(`newsletter template: ${result.errors[0]?.formattedMessage}`);
  const html = normalizeEmailHtml(withPreheader(result.html, preheader), { origin }).html;

  const text = [
    post.title,
    byline,
    '',
    summary,
    '',
    ...(c.includeReadMore ? [`Read more: ${postUrl}`, ''] : [`${postUrl}`, '']),
    ...(share.length ? ['Share this post:', ...share.map((s) => `${s.network}: ${s.url}`), ''] : []),
    '--',
    `You receive this newsletter from ${o.brand}.`,
    'Unsubscribe: {{unsubscribeUrl}}',
  ]
    .filter((line, i, all) => !(line === '' && all[i - 1] === ''))
    .join('\n')
    .replace(/^\n+/, '');
  return { html, text: `${text}\n`, preheader, postUrl, imageUrl, shareLinks: share };
}
