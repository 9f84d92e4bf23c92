import { TEST_EMAIL_MAX } from '@parley/contracts/settings';
import { isEmail } from '../../lib/email.ts';

/** The saved list read from its JSON: the addresses, null when there is none, 'unreadable' when broken. */
export function parseSavedAddresses(value: string | null | undefined): string[] | null | 'unreadable' {
  if (!value) return null;
  try {
    const list: unknown = JSON.parse(value);
    if (!Array.isArray(list) || !list.every((e) => typeof e === 'string')) return 'unreadable';
    return list.length ? list.slice(0, TEST_EMAIL_MAX) : null;
  } catch {
    return 'unreadable';
  }
}

/** A row of the Testing tab counts when it is non-empty and contains an @ (spec §5). */
export const isUsableTestAddress = (s: string) => s.trim().length > 0 && s.includes('@');

/**
 * What is wrong with each row before a save: an address the service would refuse (it checks
 * each one), or nothing. An empty row is no address and is simply left out.
 */
export function rowProblems(rows: readonly string[]): Array<string | undefined> {
  return rows.map((r) => {
    const v = r.trim();
    return v && !isEmail(v) ? 'Enter a valid email address, or remove this row' : undefined;
  });
}
