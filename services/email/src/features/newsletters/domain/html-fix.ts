import { type CheerioAPI, load } from 'cheerio';
import juice from 'juice';
import { textOfHtml } from '../../../shared/email-html.ts';
import { type HtmlDiff, htmlDiff, IMPLIED, OPTIONAL_END } from './html-diff.ts';

/**
 * 'Fix HTML Issues' (POST /api/admin/campaigns/fix-html) for one draft's HTML and text part:
 *
 * - invalid nesting and unclosed or stray tags: the HTML is parsed as browsers parse it (parse5,
 *   the WHATWG algorithm, through cheerio) and written back, so what a mail client's parser would
 *   guess is written out (a <div> inside a <p> closes the <p>, a missing </b> is added). What the
 *   parser adds to well-formed HTML is not an issue and is never reported: the <html>, <head>,
 *   <body>, <tbody> and <colgroup> it implies, and the end tags HTML lets one leave out (</p>,
 *   </li>, </td>, </tr>, ...). A fragment stays a fragment; a document without a doctype gets one;
 * - <style> CSS is inlined into style attributes (juice, the inliner MJML uses), keeping what
 *   cannot be inlined (media queries, :hover, @font-face) in <style>;
 * - relative href/src/background URLs become absolute on the public origin (protocol-relative
 *   ones https); merge fields ({{unsubscribeUrl}}), #anchors and mailto:/tel: stay;
 * - an <img> without alt gets one: empty for a pixel or spacer, else its title, its link's
 *   text or the words of its file name (empty when none says anything);
 * - a missing text part is written from the HTML (as the campaign composer would).
 *
 * Pure and idempotent: what it writes is a fixed point (run again, it finds nothing). When it
 * finds nothing, the input is returned as it was (formatting included), so a clean draft is
 * never rewritten.
 */

export interface HtmlFixResult {
  html: string;
  text: string | null;
  /** What changed, in words; empty: nothing to fix (html and text are the input's). */
  changes: string[];
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'keygen',
]);
const RAW_TEXT =
  /<(script|style|title|textarea|xmp|noscript)\b((?:[^>"']|"[^"]*"|'[^']*')*)>[\s\S]*?<\/\1\s*>/gi;
const START_TAG = /<([a-zA-Z][\w:-]*)(?:[^>"']|"[^"]*"|'[^']*')*>/g;
const END_TAG = /<\/([a-zA-Z][\w:-]*)\s*>/g;

/** The start tags (in order) and the end tags of the source, as a tokenizer sees them. */
function tagsOfSource(html: string): { starts: string[]; ends: string[] } {
  const s = html.replace(/<!--[\s\S]*?-->/g, '').replace(RAW_TEXT, '<$1$2></$1>');
  const starts: string[] = [];
  // Start tags first (their quoted attribute values may hold anything, "</b>" too), then end tags.
  const bare = s.replace(START_TAG, (_m, name: string) => {
    const n = name.toLowerCase();
    if (!IMPLIED.has(n)) starts.push(n);
    return '<>';
  });
  const ends = [...bare.matchAll(END_TAG)]
    .map((m) => (m[1] as string).toLowerCase())
    .filter((n) => !IMPLIED.has(n));
  return { starts, ends };
}

function elementsOf($: CheerioAPI): string[] {
  const names: string[] = [];
  $('*').each((_i, el) => {
    const n = ('tagName' in el ? String(el.tagName) : '').toLowerCase();
    if (n && !IMPLIED.has(n)) names.push(n);
  });
  return names;
}

/** A style attribute as a comparable set of declarations (formatting aside). */
const declarations = (style: string | undefined) =>
  (style ?? '')
    .split(';')
    .map((d) =>
      d
        .trim()
        .replace(/\s*:\s*/, ':')
        .replace(/\s+/g, ' ')
        .toLowerCase(),
    )
    .filter(Boolean)
    .sort()
    .join(';');

/**
 * The tree written back: a document with a doctype; a fragment (no <html> in the source) as a
 * fragment again, what the parser put in <head> (a <style>) before what it put in <body>.
 */
function serialize($: CheerioAPI, fragment: boolean): string {
  if (fragment) return `${$('head').html() ?? ''}${$('body').html() ?? ''}`;
  const html = $.html();
  return /^\s*<!doctype/i.test(html) ? html : `<!DOCTYPE html>${html}`;
}

/** Elements of the parsed tree not matched, in order, by the source's start tags (moved or added). */
function unmatched(source: string[], parsed: string[]): number {
  let start = 0;
  while (start < source.length && start < parsed.length && source[start] === parsed[start]) start++;
  let endS = source.length;
  let endP = parsed.length;
  while (endS > start && endP > start && source[endS - 1] === parsed[endP - 1]) {
    endS--;
    endP--;
  }
  const a = source.slice(start, endS);
  const b = parsed.slice(start, endP);
  if (!b.length) return 0;
  // The longest common subsequence of what is left (small: a fix touches a few elements).
  if (a.length * b.length > 4_000_000) return b.length;
  let prev = new Uint32Array(b.length + 1);
  let row = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++)
      row[j] =
        a[i - 1] === b[j - 1]
          ? (prev[j - 1] as number) + 1
          : Math.max(prev[j] as number, row[j - 1] as number);
    [prev, row] = [row, prev];
  }
  return b.length - (prev[b.length] as number);
}

/** The absolute form of `value`, or null when it is to stay (absolute, merge field, anchor, empty). */
export function absoluteUrl(value: string, origin: string): string | null {
  const v = value.trim();
  if (!v || v.startsWith('{{') || v.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(v)) return null;
  if (v.startsWith('//')) return `https:${v}`;
  try {
    return new URL(v, `${origin}/`).href;
  } catch {
    return null;
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function altFor(img: ReturnType<CheerioAPI>): string {
  const size = (v: string | undefined) => (v ? Number.parseInt(v, 10) : Number.NaN);
  const style = img.attr('style') ?? '';
  const tiny =
    size(img.attr('width')) <= 2 ||
    size(img.attr('height')) <= 2 ||
    /(?:^|;)\s*display\s*:\s*none/i.test(style) ||
    /(?:^|;)\s*width\s*:\s*[0-2]px/i.test(style);
  if (tiny) return '';
  const title = img.attr('title')?.trim();
  if (title) return title.slice(0, 150);
  const linkText = img.closest('a').text().replace(/\s+/g, ' ').trim();
  if (linkText) return linkText.slice(0, 150);
  const src = img.attr('src') ?? '';
  const file = decodeURIComponent(
    (src.split(/[?#]/)[0] ?? '')
      .split('/')
      .pop()
      ?.replace(/\.[a-z0-9]+$/i, '') ?? '',
  );
  if (!file || /^[a-f0-9-]{16,}$/i.test(file) || /\{\{/.test(file)) return '';
  const words = file
    .replace(/[-_.+]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim();
  return /[a-z]/i.test(words) ? words.slice(0, 150) : '';
}

export function normalizeEmailHtml(
  input: string,
  opts: { origin: string; text?: string | null | undefined },
): HtmlFixResult {
  const origin = opts.origin.replace(/\/+$/, '');
  const text = opts.text ?? null;
  const changes: string[] = [];
  if (!input.trim()) return { html: input, text, changes };

  // 1. Structure: what a browser's parser makes of it.
  let $ = load(input);
  const fragment = !/<html[\s>]/i.test(input);
  const src = tagsOfSource(input);
  const dom = elementsOf($);
  if (!fragment && !/^\s*(?:<!--[\s\S]*?-->\s*)*<!doctype html/i.test(input))
    changes.push('added the HTML doctype');
  const moved = unmatched(src.starts, dom);
  if (moved) changes.push(`fixed invalid nesting (${plural(moved, 'element')} moved or added)`);
  const closable = (n: string) => !VOID.has(n) && !OPTIONAL_END.has(n);
  const containers = dom.filter(closable).length;
  const closing = src.ends.filter(closable).length;
  if (!moved && closing < containers)
    changes.push(`closed ${plural(containers - closing, 'unclosed element')}`);
  if (closing > containers) changes.push(`removed ${plural(closing - containers, 'stray closing tag')}`);

  // 2. CSS of <style> into style attributes (adopted only when an attribute really changes).
  if ($('style').length) {
    const before = $('*:not(style)')
      .toArray()
      .map((el) => declarations($(el).attr('style')));
    const inlined = load(serialize($, false));
    // A <style media="..."> is a media query of its own (MJML's Thunderbird rules): kept as it is.
    inlined('style[media]').attr('data-embed', '');
    juice.juiceDocument(inlined, {
      preserveMediaQueries: true,
      preserveFontFaces: true,
      preserveKeyFrames: true,
      preservePseudos: true,
      preserveImportant: true,
      removeStyleTags: true,
      insertPreservedExtraCss: true,
    });
    const after = inlined('*:not(style)').toArray();
    if (after.length === before.length) {
      const touched = after.filter((el, i) => declarations(inlined(el).attr('style')) !== before[i]).length;
      if (touched) {
        $ = inlined;
        changes.push(`inlined <style> CSS into ${plural(touched, 'element')}`);
      }
    }
  }

  // 3. Absolute URLs.
  let absolute = 0;
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['area[href]', 'href'],
    ['img[src]', 'src'],
    ['[background]', 'background'],
  ] as const) {
    $(selector).each((_i, el) => {
      const node = $(el);
      const abs = absoluteUrl(node.attr(attr) ?? '', origin);
      if (abs !== null && abs !== node.attr(attr)) {
        node.attr(attr, abs);
        absolute++;
      }
    });
  }
  if (absolute) changes.push(`made ${plural(absolute, 'relative URL')} absolute`);

  // 4. Alt text.
  let alts = 0;
  $('img:not([alt])').each((_i, el) => {
    const img = $(el);
    img.attr('alt', altFor(img));
    alts++;
  });
  if (alts) changes.push(`added alt text to ${plural(alts, 'image')}`);

  if (!changes.length && text?.trim()) return { html: input, text, changes };
  const html = changes.length ? serialize($, fragment) : input;

  // 5. The text part.
  let outText = text;
  if (!text?.trim()) {
    const written = textOfHtml(html);
    if (written) {
      outText = written;
      changes.push(`wrote the missing plain-text part (${plural(written.length, 'character')})`);
    }
  }
  if (!changes.length) return { html: input, text, changes };
  return { html, text: outText, changes };
}

/** A draft's fix as 'Fix HTML Issues' proposes it: the changes in words and what they change. */
export interface HtmlFixProposal extends HtmlFixResult {
  diff: HtmlDiff;
  /** The plain-text part it writes (the draft had none), else null. */
  textWritten: string | null;
}

/**
 * The fix of one draft with its diff; `changes` empty when there is nothing to change. The
 * diff has the last word: a fix whose HTML means the same as the source (what the serialiser
 * writes differently, never a real change) keeps the source's HTML and reports no HTML change.
 */
export function proposeHtmlFix(
  html: string,
  opts: { origin: string; text?: string | null | undefined },
): HtmlFixProposal {
  const fixed = normalizeEmailHtml(html, opts);
  const text = opts.text ?? null;
  const textWritten = fixed.text !== text ? fixed.text : null;
  if (!fixed.changes.length) return { ...fixed, diff: { hunks: [], truncated: false }, textWritten: null };
  const diff = htmlDiff(html, fixed.html);
  if (diff.hunks.length || diff.truncated) return { ...fixed, diff, textWritten };
  const changes = textWritten
    ? fixed.changes.filter((c) => c.startsWith('wrote the missing plain-text part'))
    : [];
  return { html, text: textWritten ? fixed.text : text, changes, diff, textWritten };
}
