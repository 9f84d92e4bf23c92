import type { Contact, NewsletterAudience } from '@parley/contracts';

/**
 * Who a newsletter goes to, as the send and schedule dialogs choose it (email marketing §2:
 * All Contacts, Individual, By Industry). The choice becomes an `audience` the server resolves
 * (contract: NewsletterAudience), so All and By Industry never carry thousands of ids and work
 * beyond the 5,000 contacts the dialog reads.
 */

export type RecipientTab = 'all' | 'contacts' | 'companies';

export interface RecipientChoice {
  tab: RecipientTab;
  /** Individual: the ticked contacts (kept across searches). */
  contactIds: number[];
  /** By Industry: the ticked company names, as the server lists them. */
  companies: string[];
}

export const EMPTY_CHOICE: RecipientChoice = { tab: 'all', contactIds: [], companies: [] };

/** The audience of a choice; null when the chosen tab has nothing ticked. */
export function audienceOf(choice: RecipientChoice): NewsletterAudience | null {
  if (choice.tab === 'all') return { type: 'all' };
  if (choice.tab === 'contacts')
    return choice.contactIds.length ? { type: 'contacts', contactIds: choice.contactIds } : null;
  return choice.companies.length ? { type: 'companies', companies: choice.companies } : null;
}

type Searchable = Pick<Contact, 'firstName' | 'lastName' | 'email' | 'company'>;

const norm = (s: string) => s.trim().toLowerCase();

/** Individual's search: the words of the query each found in the name, email or company. */
export function contactMatches(c: Searchable, query: string): boolean {
  const q = norm(query);
  if (!q) return true;
  const hay = [c.firstName, c.lastName, c.email, c.company].filter(Boolean).join(' ').toLowerCase();
  return q.split(/\s+/).every((word) => hay.includes(word));
}

/** By Industry's search: a part of the company name. */
export const companyMatches = (company: string, query: string) => company.toLowerCase().includes(norm(query));

/**
 * Select all over what is shown: on adds every shown one (keeping those ticked elsewhere), off
 * removes only the shown ones.
 */
export function toggleAll<T>(selected: readonly T[], shown: readonly T[], on: boolean): T[] {
  if (on) {
    const have = new Set(selected);
    return [...selected, ...shown.filter((x) => !have.has(x))];
  }
  const drop = new Set(shown);
  return selected.filter((x) => !drop.has(x));
}

export const toggleOne = <T>(selected: readonly T[], item: T, on: boolean): T[] =>
  on ? (selected.includes(item) ? [...selected] : [...selected, item]) : selected.filter((x) => x !== item);

/** The select-all box's state over what is shown. */
export function selectAllState<T>(selected: readonly T[], shown: readonly T[]): 'all' | 'some' | 'none' {
  if (!shown.length) return 'none';
  const have = new Set(selected);
  const n = shown.filter((x) => have.has(x)).length;
  return n === 0 ? 'none' : n === shown.length ? 'all' : 'some';
}

/**
 * What the send button does: "Send to N Contacts" / "Resend to N Contacts" (the spec's button,
 * whatever N), or in test mode (`testAddresses` given) where the mail really goes: "Send to 2
 * test addresses (test mode)".
 */
export const sendLabel = (resend: boolean, n: number | null, testAddresses: number | null = null) =>
  testAddresses !== null
    ? `Send to ${testAddresses.toLocaleString('en-US')} test address${testAddresses === 1 ? '' : 'es'} (test mode)`
    : `${resend ? 'Resend' : 'Send'} to ${n === null ? '…' : n.toLocaleString('en-US')} Contacts`;

/**
 * A schedule's date (YYYY-MM-DD) and time (HH:MM) in the admin's zone as an instant, or why not:
 * the spec's message when either is missing, the future rule otherwise.
 */
export function scheduleInstant(
  date: string,
  time: string,
  now: Date = new Date(),
): { ok: true; at: Date } | { ok: false; reason: 'missing' | 'past' } {
  if (!date || !time) return { ok: false, reason: 'missing' };
  const at = new Date(`${date}T${time}`);
  if (Number.isNaN(at.getTime())) return { ok: false, reason: 'missing' };
  return at.getTime() > now.getTime() ? { ok: true, at } : { ok: false, reason: 'past' };
}
