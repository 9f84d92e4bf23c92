import { domainToASCII } from 'node:url';
import { AUDIENCE_LIMITS, type ContactStatus, type SuppressionReason } from '@parley/contracts';

/**
 * Rules for contact data: what an email address must look like, how imported text is
 * cleaned, names split, numbers read, and how a search is turned into a LIKE pattern.
 */

/** Local part: the characters HTML's email input allows (WHATWG), dots not at the ends or doubled. */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const PLAIN_EMAIL =
  /^([A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*)@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})$/;

/**
 * The address as stored, or null when it is not one a mail could be sent to: ASCII local part
 * (case kept), the domain lower-cased (internationalised domains in their punycode form),
 * at least two labels, an alphabetic top-level domain, at most 254 characters. A `mailto:`
 * prefix and surrounding `<>` or quotes are dropped.
 */
export function normalizeEmail(raw: string): string | null {
  // Most addresses are plain ASCII already: one regex, no URL machinery.
  const plain = PLAIN_EMAIL.exec(raw);
  if (plain && raw.length <= AUDIENCE_LIMITS.email) {
    const [, local = '', domain = ''] = plain;
    if (local.length <= 64) return /[A-Z]/.test(domain) ? `${local}@${domain.toLowerCase()}` : raw;
  }
  let s = cleanText(raw);
  if (!s) return null;
  if (/^mailto:/i.test(s)) s = s.slice(7);
  s = s.replace(/^[<"']+|[>"']+$/g, '').trim();
  const at = s.lastIndexOf('@');
  if (at < 1 || at === s.length - 1) return null;
  const local = s.slice(0, at);
  const domainRaw = s.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return null;
  if (/\s/.test(domainRaw)) return null;
  const domain = domainToASCII(domainRaw.replace(/\.$/, ''));
  if (!domain) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => DOMAIN_LABEL.test(l))) return null;
  const tld = labels[labels.length - 1] ?? '';
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return null;
  const email = `${local}@${domain}`;
  return email.length <= AUDIENCE_LIMITS.email ? email : null;
}

/** Lone surrogates replaced by U+FFFD. */
export const wellFormed = (s: string): string => s.toWellFormed();

/** The key two addresses share when they are the same mailbox for us (case-insensitive). */
export const emailKey = (email: string) => email.toLowerCase();

/**
 * Text safe to store: no NUL (PostgreSQL text cannot hold it), no lone surrogates (not
 * encodable as UTF-8), trimmed. A leading apostrophe that neutralised a formula in a CSV we
 * exported (`'=…`, `'+…`) is removed again, so an export re-imports as it was.
 */
export function cleanText(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = typeof value === 'string' ? value : String(value);
  if (s.length === 0) return s;
  if (s.indexOf('\u0000') !== -1) s = s.replaceAll('\u0000', '');
  if (!(s as string & { isWellFormed(): boolean }).isWellFormed()) s = wellFormed(s);
  s = s.trim();
  if (s.length > 1 && s.charCodeAt(0) === 39 && FORMULA_START.includes(s.charAt(1))) s = s.slice(1);
  return s;
}
/** First characters a spreadsheet runs as a formula (OWASP CSV injection). */
export const FORMULA_START = '=+-@\t\r';

/** Cleaned text cut to `max` characters (never inside a surrogate pair); null when empty. */
export function field(value: unknown, max: number): string | null {
  const s = cleanText(value);
  if (!s) return null;
  return s.length <= max ? s : wellFormed(s.slice(0, max)).trimEnd();
}

/** A full name split the way a mail merge expects: the first word, then the rest. */
export function splitName(full: string | null): { firstName: string | null; lastName: string | null } {
  if (!full) return { firstName: null, lastName: null };
  const cut = full.search(/\s/);
  if (cut === -1) return { firstName: full.slice(0, AUDIENCE_LIMITS.name), lastName: null };
  const rest = full
    .slice(cut + 1)
    .trim()
    .replace(/\s+/g, ' ');
  return {
    firstName: full.slice(0, Math.min(cut, AUDIENCE_LIMITS.name)),
    lastName: rest ? rest.slice(0, AUDIENCE_LIMITS.name) : null,
  };
}

/** A star rating from text ('4.5', '4,5', '4.5 stars'): 0 to 5 in tenths, else null. */
export function parseRating(value: string): number | null {
  const s = value.trim();
  let whole = 0;
  let i = 0;
  for (; i < s.length && i < 2; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    whole = whole * 10 + c;
  }
  if (i === 0) return null;
  let tenths = 0;
  const sep = s.charAt(i);
  if (sep === '.' || sep === ',') {
    const c = s.charCodeAt(i + 1) - 48;
    if (c >= 0 && c <= 9) {
      tenths = c;
      const next = s.charCodeAt(i + 2) - 48;
      if (next >= 5 && next <= 9) tenths++;
    }
  }
  const n = whole + tenths / 10;
  return n <= 5 ? Math.round(n * 10) / 10 : null;
}

/** A review count from text ('1,234', '(87)', '1 234 reviews'): a non-negative integer, else null. */
export function parseCount(value: string): number | null {
  let n = 0;
  let digits = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value.charAt(i);
    if (ch >= '0' && ch <= '9') {
      n = n * 10 + (ch.charCodeAt(0) - 48);
      if (++digits > 10) return null;
    } else if (COUNT_SEPARATORS.includes(ch)) {
      // thousands separators inside the number, brackets or spaces around it
      if (digits && ch === ')') break;
    } else if (digits) break;
    else return null;
  }
  return digits && n <= 2_147_483_647 ? n : null;
}
const COUNT_SEPARATORS = ",. '\u00a0()";

/** Tags or keywords from a list or comma-separated text: trimmed, lower-cased, unique, capped. */
export function parseWords(
  input: string | readonly string[] | undefined,
  max: number,
  each: number,
): string[] {
  if (input === undefined) return [];
  const parts = (typeof input === 'string' ? [input] : input).flatMap((t) => t.split(','));
  const out: string[] = [];
  for (const p of parts) {
    const w = cleanText(p).toLowerCase().replace(/\s+/g, ' ').slice(0, each).trim();
    if (w && !out.includes(w)) out.push(w);
    if (out.length >= max) break;
  }
  return out;
}

/** The status a contact takes when its address is on the suppression list. */
export function statusForSuppression(reason: SuppressionReason | null): ContactStatus {
  if (!reason) return 'active';
  return reason === 'bounced' ? 'bounced' : 'unsubscribed';
}

/**
 * A contains-search's term as the lower-cased search text holds it: trimmed, whitespace runs
 * collapsed. Null when nothing is left to search for.
 */
export function searchTerm(q: string | undefined): string | null {
  const s = cleanText(q ?? '')
    .toLowerCase()
    .replace(/\s+/g, ' ');
  return s || null;
}

/** A term as a LIKE pattern matching it anywhere, LIKE's wildcards escaped. */
export const searchPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
