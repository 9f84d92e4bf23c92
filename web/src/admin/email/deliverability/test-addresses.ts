import { TEST_EMAIL_MAX } from '@parley/contracts/settings';

/**
 * The deliverability test's addresses (spec §5): at most five, and only entries containing an
 * at sign are used; blanks and repeats (any case) are dropped.
 */
export function usableTestAddresses(rows: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const row of rows.slice(0, TEST_EMAIL_MAX)) {
    const a = row.trim();
    if (!a.includes('@') || seen.has(a.toLowerCase())) continue;
    seen.add(a.toLowerCase());
    out.push(a);
  }
  return out;
}

/** A campaign has something to test only when its HTML has content (spec §5 "No Content"). */
export const hasHtmlContent = (html: string | null | undefined) => Boolean(html?.trim());
