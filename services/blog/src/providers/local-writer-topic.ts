import { BLOG_LIMITS } from '@parley/contracts';
import {
  ACRONYMS,
  AUX,
  CUT_BEFORE,
  DANGLING,
  IMPERATIVE,
  NOT_GERUND,
  NUMBER_WORDS,
  PROPER,
  QUANTITY,
  REQUESTS,
  TITLE_SMALL,
  WH,
} from './local-writer-words.ts';

/**
 * How the local writer reads a topic and shapes its words: the request around it dropped,
 * case and a/an fixed, its grammatical form found (readTopic), and the topic set in Title
 * Case, at the start of a sentence, or cut short where a phrase ends. The word lists it reads
 * with: local-writer-words.ts.
 */

/** "a" or "an" before a word, by its sound (an AI, a CRM, an SMS, an hour, a user). */
function articleFor(word: string): 'a' | 'an' {
  const acronym = ACRONYMS[word.toLowerCase()];
  if (acronym && acronym === word) {
    if (acronym === 'HIPAA' || acronym === 'SaaS') return 'a';
    return /^[AEFHILMNORSX]/.test(acronym) ? 'an' : 'a';
  }
  const w = word.toLowerCase();
  if (/^\d/.test(w)) return /^(8|11|18|80)/.test(w) ? 'an' : 'a';
  if (/^(hour|honest|honou?r|heir)/.test(w)) return 'an';
  if (/^(uni(?!n)|unan|use|usu|uti|ure|uro|eu|ewe|one\b|one-|once|ubiq)/.test(w)) return 'a';
  return /^[aeiou]/.test(w) ? 'an' : 'a';
}

export type Form =
  /** A noun or gerund phrase: "AI receptionists for dental clinics", "Handling reservations". */
  | 'phrase'
  /** A list headline: "5 ways AI receptionists save money". */
  | 'list'
  /** "How to …" */
  | 'howto'
  /** A direct question: "Can AI receptionists help dental clinics?" */
  | 'question'
  /** A wh-clause headline: "Why every salon needs an AI receptionist". */
  | 'wh'
  /** An imperative headline: "Stop losing leads to voicemail". */
  | 'imperative'
  /** A statement: "Missed calls are costing you customers". */
  | 'statement';

/** A topic read as an editor would: its words as they stand in a sentence, and its form. */
export interface Topic {
  form: Form;
  /** The words, acronyms and names in capitals, everything else in lower case as typed. */
  words: string[];
}

/** A word as it stands mid-sentence: acronyms and names in capitals, inner capitals kept. */
function inSentence(word: string): string {
  const acronym = ACRONYMS[word.toLowerCase()];
  if (acronym) return acronym;
  if (/[A-Z]/.test(word.slice(1)) && /[a-z]/.test(word)) return word; // HubSpot, iPhone
  const head = word.split(/[-’']/)[0] as string;
  if (PROPER.has(head.charAt(0).toUpperCase() + head.slice(1).toLowerCase())) {
    return word.charAt(0).toUpperCase() + word.slice(1);
  }
  return word;
}

/** Reads what the admin typed: drops the request around it, fixes case, a/an, and finds the form. */
export function readTopic(raw: string): Topic {
  let text = raw.trim().replace(/\s+/g, ' ').slice(0, BLOG_LIMITS.topic);
  for (let again = true; again; ) {
    again = false;
    for (const re of REQUESTS) {
      const next = text.replace(re, '');
      if (next !== text && next.trim()) {
        text = next;
        again = true;
      }
    }
  }
  text = text.replace(/^[-–—•*"“'‘\s]+/, '').replace(/["”'’\s]+$/, '');
  const asked = /[A-Za-z0-9][^A-Za-z0-9]*\?[\s?!.]*$/.test(text);
  text = text
    .replace(/[\s.?!…,;:\-–—]+$/, '')
    .replace(/\bvs\.(?=\s)/gi, 'vs')
    .replace(/\s+([,;:])/g, '$1');
  // Nothing but punctuation ("?!"): write about the product rather than about nothing.
  let words = text.split(' ').filter(Boolean);
  if (!/[A-Za-z0-9]/.test(text)) words = ['AI', 'voice', 'agents'];
  const letters = text.replace(/[^A-Za-z]/g, '');
  const isAcronym = (w: string) => ACRONYMS[w.replace(/[^A-Za-z0-9-]/g, '').toLowerCase()] !== undefined;
  // Shouted ("MISSED CALLS ARE COSTING YOU CUSTOMERS") or Title Cased ("Hotel Front Desk
  // Automation"): back to lower case, so that the topic can stand inside a sentence.
  const shouted = letters.length > 3 && letters === letters.toUpperCase() && words.some((w) => !isAcronym(w));
  const plain = words.filter(
    (w) => /^[A-Za-z]/.test(w) && !isAcronym(w) && !TITLE_SMALL.has(w.toLowerCase()),
  );
  const titled = plain.length >= 2 && plain.every((w) => /^[A-Z][a-z]/.test(w) || /^[A-Z]$/.test(w));
  if (shouted || titled) words = words.map((w) => (isAcronym(w) ? w : w.toLowerCase()));
  words = words.map((w, i) => {
    const fixed = inSentence(w);
    if (fixed !== w) return fixed;
    // The first word's capital only began the topic: "Handling …" → "handling …".
    return i === 0 && /^[A-Z][a-z]*$/.test(w) ? w.toLowerCase() : w;
  });
  // "a AI receptionist" → "an AI receptionist", "an clinic" → "a clinic".
  words = words.map((w, i) => {
    const next = words[i + 1];
    if (!next || !/^an?$/i.test(w)) return w;
    const right = articleFor(next.replace(/^[^A-Za-z0-9]+/, ''));
    return w.charAt(0) === 'A' ? right.charAt(0).toUpperCase() + right.slice(1) : right;
  });
  const lower = words.map((w) => w.toLowerCase().replace(/[^a-z0-9'’-]/g, ''));
  const [w0 = '', w1 = ''] = lower;
  let form: Form = 'phrase';
  if (w0 === 'how' && w1 === 'to') form = 'howto';
  else if (
    asked ||
    AUX.has(w0) ||
    (WH.has(w0) && AUX.has(w1)) ||
    // "How much does …", "how many calls do clinics miss"
    (WH.has(w0) && QUANTITY.has(w1) && lower.slice(2, 5).some((w) => AUX.has(w)))
  ) {
    form = 'question';
  } else if (WH.has(w0)) form = 'wh';
  else if (
    (/^\d+$/.test(w0) || NUMBER_WORDS.has(w0) || (w0 === 'top' && /^\d+$/.test(w1))) &&
    words.length > 2
  ) {
    form = 'list';
  } else if (IMPERATIVE.has(w0) && words.length > 1 && !/^(cases?|rates?|times?|to)$/.test(w1))
    form = 'imperative';
  else if (/^[a-z]{3,}ing$/.test(w0) && !NOT_GERUND.has(w0)) form = 'phrase';
  else {
    // A statement has a verb of its own: an auxiliary not inside a relative clause.
    const verb = lower.findIndex((w, i) => i > 0 && AUX.has(w));
    const relative = lower.findIndex((w) => /^(that|who|which|when|where|while|if|because)$/.test(w));
    if (verb > 0 && (relative < 0 || relative > verb)) form = 'statement';
  }
  return { form, words };
}

/** Title Case: every word capitalised but small words inside; acronyms and names kept. */
export function titleCase(words: readonly string[]): string {
  let segmentStart = true;
  return words
    .map((w) => {
      const opens = segmentStart;
      segmentStart = /[:?]$/.test(w);
      return w
        .split(/(?<=[-/])/)
        .map((part, j) => {
          const bare = part.replace(/[-/:?,;]+$/, '');
          const tail = part.slice(bare.length);
          if (ACRONYMS[bare.toLowerCase()] || (/[A-Z]/.test(bare.slice(1)) && /[a-z]/.test(bare))) {
            return inSentence(bare) + tail;
          }
          if (!(opens && j === 0) && TITLE_SMALL.has(bare.toLowerCase())) return bare.toLowerCase() + tail;
          return bare.charAt(0).toUpperCase() + bare.slice(1) + tail;
        })
        .join('');
    })
    .join(' ');
}

/** The words as they open a sentence (or a quotation): the first letter in capitals. */
export const sentenceStart = (words: readonly string[]) => {
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
};

/**
 * A long topic cut to at most `max` characters where a phrase ends (before "with", "and",
 * "before"…, or after a comma), never on a word that leaves it hanging ("for", "the", "your").
 */
export function shorten(words: readonly string[], max: number): string[] {
  if (words.join(' ').length <= max) return [...words];
  let best: string[] | null = null;
  let fallback: string[] | null = null;
  for (let n = 1; n < words.length; n++) {
    const head = words.slice(0, n).map((w, i) => (i === n - 1 ? w.replace(/[,;:]$/, '') : w));
    if (head.join(' ').length > max) break;
    const last = (head[n - 1] as string).toLowerCase();
    if (DANGLING.has(last)) continue;
    fallback = head;
    const next = (words[n] as string).toLowerCase();
    if (n >= 2 && (CUT_BEFORE.has(next) || /[,;:]$/.test(words[n - 1] as string))) best = head;
  }
  return best ?? fallback ?? [...words.slice(0, 1)];
}
