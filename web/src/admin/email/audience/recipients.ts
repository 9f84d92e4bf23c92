import type { Contact } from '@parley/contracts';
import { useSyncExternalStore } from 'react';

/**
 * Campaign recipients chosen in the Contact search tab ('Add Selected', the details dialog's
 * 'Add to Campaign'), kept for this browser tab in sessionStorage; the campaign dialogs'
 * recipient picker (campaigns/target-picker.tsx) offers them as a campaign's chosen contacts.
 */

export const RECIPIENTS_KEY = 'parley.campaign.recipients';

export type Recipient = Pick<Contact, 'id' | 'email' | 'firstName' | 'lastName' | 'company'>;

const listeners = new Set<() => void>();
let cache: Recipient[] | null = null;

function read(): Recipient[] {
  if (cache) return cache;
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(RECIPIENTS_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    cache = Array.isArray(parsed) ? (parsed as Recipient[]).filter((r) => typeof r?.id === 'number') : [];
  } catch {
    cache = [];
  }
  return cache;
}

function write(next: Recipient[]): void {
  cache = next;
  try {
    sessionStorage.setItem(RECIPIENTS_KEY, JSON.stringify(next));
  } catch {
    // storage full or disabled: the list still lives for this page
  }
  for (const l of listeners) l();
}

/** Adds contacts (those already chosen are kept once); returns how many were new. */
export function addRecipients(contacts: readonly Recipient[]): number {
  const current = read();
  const have = new Set(current.map((r) => r.id));
  const added = contacts
    .filter((c) => !have.has(c.id))
    .map(({ id, email, firstName, lastName, company }) => ({ id, email, firstName, lastName, company }));
  if (added.length) write([...current, ...added]);
  return added.length;
}

export const removeRecipient = (id: number) => write(read().filter((r) => r.id !== id));
export const clearRecipients = () => write([]);

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}
const empty: Recipient[] = [];

export function useRecipients(): Recipient[] {
  return useSyncExternalStore(subscribe, read, () => empty);
}
