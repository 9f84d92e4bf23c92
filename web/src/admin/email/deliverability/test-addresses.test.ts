import { describe, expect, it } from 'vitest';
import { hasHtmlContent, usableTestAddresses } from './test-addresses.ts';

describe('deliverability test addresses', () => {
  it('uses only entries with an at sign, trimmed, without repeats', () => {
    expect(
      usableTestAddresses([' a@example.com ', 'no-at-sign', '', 'A@example.com', 'b@example.com']),
    ).toEqual(['a@example.com', 'b@example.com']);
  });

  it('reads at most five rows', () => {
    const rows = Array.from({ length: 7 }, (_, i) => `qa${i}@example.com`);
    expect(usableTestAddresses(rows)).toEqual(rows.slice(0, 5));
  });

  it('has nothing usable when no entry has an at sign', () => {
    expect(usableTestAddresses(['   ', 'example.com'])).toEqual([]);
  });

  it('needs HTML content', () => {
    expect(hasHtmlContent('<p>Hi</p>')).toBe(true);
    expect(hasHtmlContent('  \n ')).toBe(false);
    expect(hasHtmlContent(null)).toBe(false);
  });
});
