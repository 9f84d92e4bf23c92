import { describe, expect, it } from 'vitest';
import { importSummary } from '../src/email.ts';
import { nounFor, plural } from '../src/plural.ts';

describe('plural', () => {
  it('counts nouns in US English, never "1 rows"', () => {
    expect(plural(0, 'row')).toBe('0 rows');
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(2, 'error')).toBe('2 errors');
    expect(plural(1240, 'contact')).toBe('1,240 contacts');
    expect(plural(1, 'address', 'addresses')).toBe('1 address');
    expect(plural(5, 'address', 'addresses')).toBe('5 addresses');
    expect(nounFor(1, 'company', 'companies')).toBe('company');
    expect(nounFor(3, 'company', 'companies')).toBe('companies');
  });

  it('reads the import summary as a person would write it', () => {
    expect(importSummary({ imported: 1, skipped: 1, errorCount: 1 })).toBe(
      'Imported 1 contact, skipped 1 duplicate, 1 error.',
    );
    expect(importSummary({ imported: 3000, skipped: 0, errorCount: 2 })).toBe(
      'Imported 3,000 contacts, skipped 0 duplicates, 2 errors.',
    );
  });
});
