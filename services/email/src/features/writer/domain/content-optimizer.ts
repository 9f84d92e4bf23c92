import { hasMergeField, type OptimizeGoal, SUBJECT_TIP_LENGTH } from '@parley/contracts';
import { escapeMarkup as esc } from '@parley/kit/markup';
import { visibleLength } from './campaign-writer.ts';

/**
 * The local content optimizer: rewrites a subject or an e-mail body toward one of the six
 * goals with transforms that can be named, and names each one it made (`changes`).
 *
 * - engagement: a question (subject); a hidden preheader and a reply-inviting question (HTML)
 * - conversion: an action opening and a stated next step (subject); a specific button text,
 *   the main link styled as a button, a P.S. repeating the call to action (HTML)
 * - clarity: filler words and wordy phrases removed, shouting capitals and repeated
 *   punctuation calmed, long sentences split, an over-long subject cut at a clause
 * - personalization: {{firstName}} (subject, greeting) and {{company}} for "your business"
 * - urgency: a deadline a week ahead (the changes say to replace it with the real one) and
 *   an immediate call to action
 * - authority: hedging removed, the sender named (subject, sign-off), a figure the body
 *   states lifted into a highlighted proof line
 *
 * Every HTML insertion carries a `parley-*` class, so optimizing twice toward the same goal
 * adds nothing the second time. Text is changed only outside tags and outside head, style,
 * script and title. The caller sanitises the result.
 */

export interface OptimizeContext {
  /** The sender's brand name (authority). */
  brand: string;
  /** The site's public origin (a call to action when the body has no link). */
  origin: string;
  /** Now: the urgency deadline is a week from it. */
  now: Date;
}

export interface Optimized {
  value: string;
  changes: string[];
}

// ── words ────────────────────────────────────────────────────────────────────────

/** Wordy phrases and their plain forms (clarity). */
const WORDY: Array<[RegExp, string]> = [
  [/\bin order to\b/gi, 'to'],
  [/\bdue to the fact that\b/gi, 'because'],
  [/\bat this point in time\b/gi, 'now'],
  [/\bat the present time\b/gi, 'now'],
  [/\bin the event that\b/gi, 'if'],
  [/\bprior to\b/gi, 'before'],
  [/\bwith regard to\b/gi, 'about'],
  [/\bin regards? to\b/gi, 'about'],
  [/\bis able to\b/gi, 'can'],
  [/\bare able to\b/gi, 'can'],
  [/\ba large number of\b/gi, 'many'],
  [/\bthe majority of\b/gi, 'most'],
  [/\butili[sz]e\b/gi, 'use'],
  [/\butili[sz]es\b/gi, 'uses'],
  [/\bfor the purpose of\b/gi, 'for'],
  [/\bin spite of the fact that\b/gi, 'although'],
  [/\bit is important to note that\s*/gi, ''],
  [/\bplease note that\s*/gi, ''],
  [/\bwe would like to take this opportunity to\b/gi, 'we want to'],
];

/** Words that add nothing (clarity). */
const FILLER =
  /\b(?:very|really|just|actually|basically|simply|literally|quite|totally|truly|definitely|extremely|incredibly)\s+(?=\w)/gi;

/** Hedges that weaken a claim (authority). */
const HEDGES: Array<[RegExp, string]> = [
  [/\bmight be able to\b/gi, 'can'],
  [/\bmay be able to\b/gi, 'can'],
  [/\bwe (?:think|believe|feel|hope) (?:that )?/gi, ''],
  [/\bhopefully,?\s+/gi, ''],
  [/\bperhaps\s+/gi, ''],
  [/\bmaybe\s+/gi, ''],
  [/\bkind of\s+/gi, ''],
  [/\bsort of\s+/gi, ''],
];

/** A shouting word: four or more capitals that are not a known acronym. */
const ACRONYMS = new Set(['HIPAA', 'GDPR', 'HVAC', 'SaaS', 'NASA', 'ASAP', 'FAQS', 'HTML', 'HTTP']);
const SHOUT = /\b(?:[A-Z]{4,}|NEW|NOW|BIG|WIN|OFF|HOT|TOP|YES)\b/g;

/** Keeps the case of what was replaced: "In order to" → "To". */
const keepCase = (found: string, replacement: string) =>
  /^[A-Z]/.test(found) && replacement
    ? replacement.charAt(0).toUpperCase() + replacement.slice(1)
    : replacement;

function replaceAll(text: string, rules: Array<[RegExp, string]>, found: string[]): string {
  let out = text;
  for (const [re, to] of rules) {
    out = out.replace(re, (m) => {
      found.push(`“${m.trim()}” → ${to ? `“${to}”` : 'removed'}`);
      return keepCase(m, to);
    });
  }
  return out;
}

/** "A sentence.  another" after removals: capital after a stop, single spaces. */
const tidy = (s: string) =>
  s
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/\s+([,.!?;:])/g, '$1')
    .replace(/(^|[.!?]\s+)([a-z])/g, (_m, a: string, b: string) => a + b.toUpperCase());

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A week from now, in UTC (deterministic for a given `now`). */
export function deadlineOf(now: Date): { weekday: string; date: string } {
  const d = new Date(now.getTime() + 7 * 86_400_000);
  return {
    weekday: WEEKDAYS[d.getUTCDay()] as string,
    date: `${WEEKDAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`,
  };
}

const URGENT =
  /\b(?:today|tonight|now|ends|ending|last chance|deadline|hurry|final|by (?:mon|tue|wed|thu|fri|sat|sun)\w*|this week)\b/i;
const ACTION_VERBS =
  /^(?:book|get|see|try|start|join|claim|save|discover|explore|meet|read|watch|download|register|reserve|grab|unlock|learn|find|take|check|upgrade|request|schedule)\b/i;

/** A link text that says nothing about what happens on click. */
const WEAK_LINK =
  /^(?:click here|here|learn more|read more|more|find out more|see more|details|more info(?:rmation)?|link|this|continue|go|visit|click)$/i;

/** A specific call to action for where a link goes. */
function actionFor(href: string): string {
  const h = href.toLowerCase();
  if (/book-demo|demo|calendly|booking|schedule/.test(h)) return 'Book your demo';
  if (/contact|#contact|mailto:/.test(h)) return 'Talk to our team';
  if (/pricing|plans/.test(h)) return 'See pricing';
  if (/blog|article|post|news/.test(h)) return 'Read the article';
  if (/signup|sign-up|register|trial|start/.test(h)) return 'Get started';
  if (/use-cases|case-stud|customers|stories/.test(h)) return 'See customer stories';
  return 'Get started';
}

// ── subjects ─────────────────────────────────────────────────────────────────────

const tooLong = (s: string) => visibleLength(s) >= SUBJECT_TIP_LENGTH;
const lengthNote = (before: string, after: string) =>
  tooLong(after) && !tooLong(before)
    ? [`Note: the subject is now ${visibleLength(after)} characters; the tip is under ${SUBJECT_TIP_LENGTH}.`]
    : [];

const lowerFirst = (s: string) =>
  /^[A-Z][a-z]/.test(s) && !/^[A-Z][a-z]*[A-Z]/.test(s.split(' ')[0] ?? '')
    ? s.charAt(0).toLowerCase() + s.slice(1)
    : s;

/** Rewrites a subject line toward the goal. */
export function optimizeSubject(subject: string, goal: OptimizeGoal, ctx: OptimizeContext): Optimized {
  const before = subject.replace(/\s+/g, ' ').trim();
  let s = before;
  const changes: string[] = [];
  switch (goal) {
    case 'engagement': {
      if (/\?\s*$/.test(s)) {
        changes.push('The subject already asks a question; left as it is.');
        break;
      }
      const bare = s.replace(/[.!]+$/, '');
      s = ACTION_VERBS.test(bare) ? `Ready to ${lowerFirst(bare)}?` : `${bare}: what do you think?`;
      changes.push(
        `Turned the subject into a question (“${s}”): a question invites the reader in and tends to lift opens.`,
      );
      break;
    }
    case 'conversion': {
      const spam: string[] = [];
      const cleaned = s
        .replace(/!{2,}/g, (m) => {
          spam.push(m);
          return '!';
        })
        .replace(/(?:\bclick here\b|\bact now\b|\b100% free\b|\${2,})\s*/gi, (m) => {
          spam.push(m.trim());
          return '';
        })
        .trim();
      if (cleaned !== s) {
        changes.push(
          `Removed spam-trigger wording (${spam.map((w) => `“${w}”`).join(', ')}): it hurts inbox placement.`,
        );
        s = cleaned;
      }
      const opener = /^(introducing|announcing|new:?)\s+/i.exec(s);
      if (opener) {
        const verb = /^new/i.test(opener[1] ?? '') ? 'Try the new' : 'Meet';
        s = `${verb} ${s.slice(opener[0].length)}`;
        changes.push(`Opened with an action (“${verb}”) instead of “${opener[1]}”.`);
      }
      if (!/\s[—–-]\s(?:book|get|see|save|join)\b/i.test(s) && !ACTION_VERBS.test(s)) {
        const next = /demo|call|consult/i.test(s)
          ? 'book your demo'
          : /guide|report|checklist|e-?book|template/i.test(s)
            ? 'get your copy'
            : /webinar|event|workshop|session/i.test(s)
              ? 'save your seat'
              : 'see how';
        s = `${s.replace(/[.!]+$/, '')} — ${next}`;
        changes.push(
          `Added the next step (“${next}”): a subject that says what to do converts better than a label.`,
        );
      } else if (!opener) changes.push('The subject already leads with an action; left as it is.');
      break;
    }
    case 'clarity': {
      const found: string[] = [];
      s = replaceAll(s, WORDY, found);
      s = s.replace(FILLER, (m) => {
        found.push(`“${m.trim()}” removed`);
        return '';
      });
      if (found.length) changes.push(`Plainer wording: ${found.join(', ')}.`);
      const calm = s.replace(SHOUT, (w) => (ACRONYMS.has(w) ? w : w.charAt(0) + w.slice(1).toLowerCase()));
      if (calm !== s) {
        changes.push('Calmed words in capitals: shouting reads as spam.');
        s = calm;
      }
      const punct = s.replace(/([!?.])\1+/g, '$1');
      if (punct !== s) {
        changes.push('Repeated punctuation reduced to one mark.');
        s = punct;
      }
      if (tooLong(s)) {
        const cut = /^(.{12,}?)\s*(?:[|:–—]|\s-\s)\s*.+$/.exec(s);
        if (cut?.[1] && !tooLong(cut[1])) {
          s = cut[1].trim();
          changes.push(
            `Cut the subject to its first clause (${visibleLength(s)} characters; the tip is under ${SUBJECT_TIP_LENGTH}).`,
          );
        } else
          changes.push(
            `The subject is ${visibleLength(s)} characters: consider cutting it under ${SUBJECT_TIP_LENGTH}.`,
          );
      }
      s = tidy(s);
      if (!changes.length) changes.push('The subject is already short and plain; left as it is.');
      break;
    }
    case 'personalization': {
      if (hasMergeField(s, 'firstName')) {
        changes.push('The subject already greets the reader by {{firstName}}; left as it is.');
        break;
      }
      s = `{{firstName|Hi}}, ${lowerFirst(s)}`;
      changes.push(
        'Added {{firstName}} at the start: every recipient sees their own first name ("Hi" where there is none).',
      );
      break;
    }
    case 'urgency': {
      if (URGENT.test(s)) {
        changes.push('The subject already carries a time cue; left as it is.');
        break;
      }
      const { weekday, date } = deadlineOf(ctx.now);
      s = `${s.replace(/[.!]+$/, '')} — ends ${weekday}`;
      changes.push(
        `Added a deadline (“ends ${weekday}”, ${date}, a week from today): replace it with your offer's real end date.`,
      );
      break;
    }
    case 'authority': {
      const found: string[] = [];
      s = tidy(replaceAll(s, HEDGES, found));
      if (found.length) changes.push(`Removed hedging: ${found.join(', ')}.`);
      if (!s.toLowerCase().includes(ctx.brand.toLowerCase())) {
        s = `${ctx.brand}: ${s}`;
        changes.push(
          `Named the sender (“${ctx.brand}:”): a known source is trusted more than an anonymous claim.`,
        );
      }
      if (!changes.length)
        changes.push('The subject already names the sender and makes no hedged claim; left as it is.');
      break;
    }
  }
  return { value: s, changes: [...changes, ...lengthNote(before, s)] };
}

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
function visibleText(html: string): string {
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

interface Link {
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
const ctaOf = (html: string): Link | null => {
  const links = linksOf(html);
  return links.find((l) => l.button) ?? links[0] ?? null;
};

const BLOCK_END = /<\/(?:p|ul|ol|h[1-6]|table|div|blockquote)>/gi;

/** Where a block goes "before the call to action": after the block that precedes it. */
function beforeCta(html: string, cta: Link | null): number {
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
function bodyStart(html: string): number {
  const m = /<body\b[^>]*>/i.exec(html);
  return m ? (m.index ?? 0) + m[0].length : 0;
}

/** The end of the message's own content: before the footer's unsubscribe paragraph, or </body>. */
function contentEnd(html: string): number {
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
function paragraphStyle(html: string): string {
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
function paragraphAround(html: string, sentence: string): { start: number; end: number } | null {
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

const insertAt = (html: string, at: number, block: string) =>
  `${html.slice(0, at)}\n${block}\n${html.slice(at)}`;
const has = (html: string, cls: string) => new RegExp(`class="[^"]*\\b${cls}\\b`).test(html);

/** Rewrites e-mail HTML toward the goal. */
export function optimizeHtml(html: string, goal: OptimizeGoal, ctx: OptimizeContext): Optimized {
  let h = html;
  const changes: string[] = [];
  const style = paragraphStyle(h);
  const line = (cls: string, inner: string, extra = '') =>
    style || extra
      ? `<p class="${cls}" style="${esc(style)}${extra}">${inner}</p>`
      : `<p class="${cls}">${inner}</p>`;

  switch (goal) {
    case 'engagement': {
      if (!has(h, 'parley-preheader') && !/<div[^>]*display\s*:\s*none/i.test(h)) {
        const preview = visibleText(h)
          .replace(/^(?:hi|hello|hey|dear|greetings)\b[^,.!]{0,40}[,!]\s*/i, '')
          .slice(0, 110)
          .replace(/\s+\S*$/, '');
        if (preview) {
          h = insertAt(
            h,
            bodyStart(h),
            `<div class="parley-preheader" style="display:none;max-height:0;overflow:hidden;mso-hide:all;font-size:1px;line-height:1px;opacity:0;">${esc(preview)}…</div>`,
          );
          changes.push(`Added a preheader, the preview line inboxes show after the subject: “${preview}…”.`);
        }
      }
      if (!has(h, 'parley-question')) {
        h = insertAt(
          h,
          beforeCta(h, ctaOf(h)),
          line(
            'parley-question',
            'What is the one question you would want answered first? Just reply to this email: we read every answer.',
          ),
        );
        changes.push(
          'Added a question inviting a reply before the call to action: replies are the engagement mailbox providers reward.',
        );
      }
      if (!changes.length)
        changes.push('The body already has a preheader and a reply question; left as it is.');
      break;
    }
    case 'conversion': {
      let cta = ctaOf(h);
      if (!cta) {
        const url = `${ctx.origin}/book-demo`;
        h = insertAt(
          h,
          contentEnd(h),
          `<table role="presentation" class="parley-cta" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr><td align="center" bgcolor="#0891b2" style="border-radius:6px;background-color:#0891b2;"><a href="${esc(url)}" target="_blank" style="display:inline-block;padding:14px 28px;font-family:Arial, Helvetica, sans-serif;font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">Book your demo</a></td></tr></table>`,
        );
        changes.push(
          `The body had no link: added a “Book your demo” button to ${url} (change the link if your offer lives elsewhere).`,
        );
        break;
      }
      const text = cta.inner.replace(/<[^>]*>/g, '').trim();
      if (WEAK_LINK.test(text) || !text) {
        const label = actionFor(cta.href);
        h = `${h.slice(0, cta.start)}${cta.open}${esc(label)}</a>${h.slice(cta.end)}`;
        changes.push(
          `Rewrote the button text “${text || '(empty)'}” → “${label}”: it says what happens on click.`,
        );
        cta = ctaOf(h) as Link;
      }
      if (!cta.button) {
        const styled = /\bstyle\s*=\s*"/i.test(cta.open)
          ? cta.open.replace(
              /\bstyle\s*=\s*"/i,
              'style="display:inline-block;padding:12px 24px;background-color:#0891b2;color:#ffffff;font-weight:bold;text-decoration:none;border-radius:6px;',
            )
          : cta.open.replace(
              /^<a\b/i,
              '<a style="display:inline-block;padding:12px 24px;background-color:#0891b2;color:#ffffff;font-weight:bold;text-decoration:none;border-radius:6px;"',
            );
        h = `${h.slice(0, cta.start)}${styled}${h.slice(cta.start + cta.open.length)}`;
        changes.push(
          'Styled the main link as a button: a button is seen and tapped far more often than a text link.',
        );
        cta = ctaOf(h) as Link;
      }
      if (!has(h, 'parley-ps')) {
        const label = cta.inner.replace(/<[^>]*>/g, '').trim();
        h = insertAt(
          h,
          contentEnd(h),
          line(
            'parley-ps',
            `P.S. Ready when you are: <a href="${esc(cta.href)}" style="color:inherit;font-weight:bold;">${esc(label)}</a>.`,
            'margin-top:16px;',
          ),
        );
        changes.push('Added a P.S. repeating the call to action: many readers skim straight to the end.');
      }
      if (!changes.length)
        changes.push('The call to action is already a specific button with a P.S.; left as it is.');
      break;
    }
    case 'clarity': {
      const found: string[] = [];
      let fillers = 0;
      let split = 0;
      h = mapText(h, (t) => {
        let out = replaceAll(t, WORDY, found);
        out = out.replace(FILLER, () => {
          fillers++;
          return '';
        });
        // Sentences over 25 words split at the ", and" / "; " nearest their middle.
        out = out.replace(/[^.!?]+[.!?]?/g, (s) => {
          const words = s.trim().split(/\s+/).length;
          if (words <= 25) return s;
          const cuts = [...s.matchAll(/,\s+(?:and|but|so|which)\s+|;\s+/g)];
          if (!cuts.length) return s;
          const mid = s.length / 2;
          const cut = cuts.reduce((a, b) =>
            Math.abs((b.index ?? 0) - mid) < Math.abs((a.index ?? 0) - mid) ? b : a,
          );
          const at = cut.index ?? 0;
          const rest = s.slice(at + cut[0].length).replace(/^which\s+/i, 'This ');
          split++;
          return `${s.slice(0, at)}. ${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
        });
        return out === t ? t : tidy(out);
      });
      if (found.length)
        changes.push(
          `Plainer wording: ${[...new Set(found)].slice(0, 8).join(', ')}${found.length > 8 ? ` and ${found.length - 8} more` : ''}.`,
        );
      if (fillers)
        changes.push(
          `Removed ${fillers} filler word${fillers === 1 ? '' : 's'} (very, really, just, actually…).`,
        );
      if (split)
        changes.push(`Split ${split} sentence${split === 1 ? '' : 's'} of more than 25 words in two.`);
      if (!changes.length)
        changes.push('No filler, wordy phrase or over-long sentence found; left as it is.');
      break;
    }
    case 'personalization': {
      if (!hasMergeField(h, 'firstName')) {
        const greeting =
          /(<p\b[^>]*>\s*)(hi|hello|hey|dear|good (?:morning|afternoon|evening)|greetings)\b([^<,!]*)([,!]?)/i;
        const first = greeting.exec(h.slice(bodyStart(h)));
        if (first && first.index < 2000) {
          const at = bodyStart(h) + first.index;
          const word = first[2] as string;
          const replaced = `${first[1]}${word} {{firstName|there}}${first[4] || ','}`;
          h = h.slice(0, at) + replaced + h.slice(at + first[0].length);
          changes.push(
            `Greeting now uses the reader's name: “${word}${first[3] ?? ''}” → “${word} {{firstName}}”.`,
          );
        } else {
          const firstP = h.slice(bodyStart(h)).search(/<p\b/i);
          const at = firstP >= 0 ? bodyStart(h) + firstP : beforeCta(h, ctaOf(h));
          h = insertAt(h, at, line('parley-greeting', 'Hi {{firstName|there}},'));
          changes.push('Added a greeting with {{firstName}} at the top.');
        }
      } else changes.push('The body already uses {{firstName}}.');
      if (!hasMergeField(h, 'company')) {
        let done = '';
        h = mapText(h, (t) =>
          done
            ? t
            : t.replace(/\byour (?:business|company|organi[sz]ation|practice|firm|agency)\b/i, (m) => {
                done = m;
                // The words it replaces stay as the fallback for a contact without a company.
                return `{{company|${m}}}`;
              }),
        );
        if (done) changes.push(`“${done}” → “{{company}}”: the reader's company by name.`);
        else changes.push('No “your business / company / practice” to name: {{company}} was not added.');
      }
      break;
    }
    case 'urgency': {
      const { date } = deadlineOf(ctx.now);
      let cta = ctaOf(h);
      if (cta) {
        const text = cta.inner.replace(/<[^>]*>/g, '').trim();
        const label = WEAK_LINK.test(text) || !text ? actionFor(cta.href) : text;
        const urgent = URGENT.test(label) ? label : `${label.replace(/[.!]+$/, '')} now`;
        if (urgent !== text) {
          h = `${h.slice(0, cta.start)}${cta.open}${esc(urgent)}</a>${h.slice(cta.end)}`;
          changes.push(`Call to action made immediate: “${text}” → “${urgent}”.`);
          cta = ctaOf(h);
        }
      }
      if (!has(h, 'parley-deadline')) {
        h = insertAt(
          h,
          beforeCta(h, cta),
          line(
            'parley-deadline',
            `Don’t leave it for later: act by <strong>${esc(date)}</strong>.`,
            'font-weight:bold;color:#b91c1c;',
          ),
        );
        changes.push(
          `Added a deadline line before the call to action (${date}, a week from today): replace it with your real deadline.`,
        );
      }
      if (!changes.length)
        changes.push('The body already has a deadline and an immediate call to action; left as it is.');
      break;
    }
    case 'authority': {
      const found: string[] = [];
      h = mapText(h, (t) => {
        const out = replaceAll(t, HEDGES, found);
        return out === t ? t : tidy(out);
      });
      if (found.length) changes.push(`Removed hedging: ${[...new Set(found)].join(', ')}.`);
      if (!has(h, 'parley-proof')) {
        const text = visibleText(h);
        // Sentence by sentence (a bounded test each: the body may be 200,000 characters).
        const figure = text
          .split(/(?<=[.!?])\s+/)
          .find(
            (sentence) =>
              sentence.length <= 400 &&
              /\b\d[\d,.]*\s?(?:%|x\b|percent\b|times\b|customers\b|clients\b|businesses\b|companies\b|teams\b|calls\b|hours\b|patients\b|bookings\b|appointments\b)/i.test(
                sentence,
              ),
          );
        const proofStyle =
          'border-left:4px solid #0f766e;background-color:#f0fdfa;padding:12px 16px;font-weight:bold;';
        const paragraph = figure ? paragraphAround(h, figure.trim()) : null;
        if (figure && paragraph) {
          // The paragraph that states it becomes the proof line (no second copy of the claim).
          const tag = h.slice(paragraph.start, paragraph.end);
          const styled = /\bstyle\s*=\s*"/i.test(tag)
            ? tag.replace(
                /\bstyle\s*=\s*"([^"]*)"/i,
                (_m, st: string) => `style="${st}${st && !st.trim().endsWith(';') ? ';' : ''}${proofStyle}"`,
              )
            : tag.replace(/^<p\b/i, `<p style="${proofStyle}"`);
          h = `${h.slice(0, paragraph.start)}${styled.replace(/^<p\b/i, '<p class="parley-proof"')}${h.slice(paragraph.end)}`;
          changes.push(`Highlighted the proof the body states as a callout: “${figure.trim()}”.`);
        } else if (figure) {
          h = insertAt(
            h,
            beforeCta(h, ctaOf(h)),
            line('parley-proof', `<strong>By the numbers:</strong> ${esc(figure.trim())}`, proofStyle),
          );
          changes.push(`Lifted a figure into a highlighted proof line: “${figure.trim()}”.`);
        } else
          changes.push(
            'No figure or measured result found to highlight: add one (for example “cut missed calls by 40%”): proof convinces more than adjectives.',
          );
      }
      const brand = ctx.brand.toLowerCase();
      if (
        !has(h, 'parley-signature') &&
        !new RegExp(`the ${brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} team`, 'i').test(visibleText(h))
      ) {
        h = insertAt(h, contentEnd(h), line('parley-signature', `— The ${esc(ctx.brand)} team`));
        changes.push(`Signed the message “— The ${ctx.brand} team”: a named sender is more credible.`);
      }
      if (!changes.length)
        changes.push(
          'The body already carries its proof and a named sender, without hedging; left as it is.',
        );
      break;
    }
  }
  return { value: h, changes };
}
