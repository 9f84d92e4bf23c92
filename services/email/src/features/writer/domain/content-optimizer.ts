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
 *
 * This file holds what the rewrites share: the context, the result and the word rules. The
 * subject rewrites are in subject-optimizer.ts, the HTML ones in html-optimizer.ts (finding
 * text, links and insertion points in the HTML: html-reader.ts).
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
export const WORDY: Array<[RegExp, string]> = [
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
export const FILLER =
  /\b(?:very|really|just|actually|basically|simply|literally|quite|totally|truly|definitely|extremely|incredibly)\s+(?=\w)/gi;

/** Hedges that weaken a claim (authority). */
export const HEDGES: Array<[RegExp, string]> = [
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
export const ACRONYMS = new Set(['HIPAA', 'GDPR', 'HVAC', 'SaaS', 'NASA', 'ASAP', 'FAQS', 'HTML', 'HTTP']);
export const SHOUT = /\b(?:[A-Z]{4,}|NEW|NOW|BIG|WIN|OFF|HOT|TOP|YES)\b/g;

/** Keeps the case of what was replaced: "In order to" → "To". */
const keepCase = (found: string, replacement: string) =>
  /^[A-Z]/.test(found) && replacement
    ? replacement.charAt(0).toUpperCase() + replacement.slice(1)
    : replacement;

export function replaceAll(text: string, rules: Array<[RegExp, string]>, found: string[]): string {
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
export const tidy = (s: string) =>
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

export const URGENT =
  /\b(?:today|tonight|now|ends|ending|last chance|deadline|hurry|final|by (?:mon|tue|wed|thu|fri|sat|sun)\w*|this week)\b/i;
export const ACTION_VERBS =
  /^(?:book|get|see|try|start|join|claim|save|discover|explore|meet|read|watch|download|register|reserve|grab|unlock|learn|find|take|check|upgrade|request|schedule)\b/i;

/** A link text that says nothing about what happens on click. */
export const WEAK_LINK =
  /^(?:click here|here|learn more|read more|more|find out more|see more|details|more info(?:rmation)?|link|this|continue|go|visit|click)$/i;

/** A specific call to action for where a link goes. */
export function actionFor(href: string): string {
  const h = href.toLowerCase();
  if (/book-demo|demo|calendly|booking|schedule/.test(h)) return 'Book your demo';
  if (/contact|#contact|mailto:/.test(h)) return 'Talk to our team';
  if (/pricing|plans/.test(h)) return 'See pricing';
  if (/blog|article|post|news/.test(h)) return 'Read the article';
  if (/signup|sign-up|register|trial|start/.test(h)) return 'Get started';
  if (/use-cases|case-stud|customers|stories/.test(h)) return 'See customer stories';
  return 'Get started';
}
