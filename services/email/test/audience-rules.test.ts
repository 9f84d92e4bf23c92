import { importSummary } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { bookChanges, newBookFields, normalizeColor } from '../src/features/audience/domain/books.ts';
import {
  cleanText,
  field,
  normalizeEmail,
  parseCount,
  parseRating,
  parseWords,
  searchPattern,
  searchTerm,
  splitName,
  statusForSuppression,
} from '../src/features/audience/domain/contacts.ts';
import {
  copyLine,
  looksHeaderless,
  manualRecords,
  mapHeader,
  positionalMap,
  type StagedContact,
  toContact,
} from '../src/features/audience/domain/import.ts';

describe('email addresses', () => {
  it('keeps the local part, lower-cases and punycodes the domain', () => {
    expect(normalizeEmail('John.Doe+news@Example.COM')).toBe('John.Doe+news@example.com');
    expect(normalizeEmail(' <ann@b.io> ')).toBe('ann@b.io');
    expect(normalizeEmail('mailto:Z@Z.de')).toBe('Z@z.de');
    expect(normalizeEmail('x@bücher.de')).toBe('x@xn--bcher-kva.de');
    expect(normalizeEmail('x@y.com.')).toBe('x@y.com');
  });

  it('refuses what no mail could be sent to', () => {
    for (const bad of [
      '',
      'plain',
      'a@',
      '@b.co',
      'a@b',
      'a@b.c1',
      'a..b@x.io',
      '.a@x.io',
      'a@-x.io',
      'a b@x.io',
      'üser@x.de',
      'a@@x.io',
      `${'a'.repeat(65)}@x.io`,
      `a@${'b'.repeat(250)}.io`,
      'a@x.io\u0000',
    ])
      expect(normalizeEmail(bad), JSON.stringify(bad)).toBe(bad === 'a@x.io\u0000' ? 'a@x.io' : null);
  });
});

describe('text from imports', () => {
  it('drops NUL, repairs lone surrogates, trims, and undoes our export escaping', () => {
    expect(cleanText('  a\u0000b ')).toBe('ab');
    expect(cleanText('x\ud800y')).toBe('x\uFFFDy');
    expect(cleanText("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(cleanText("'+1 555")).toBe('+1 555');
    expect(cleanText("'quoted'")).toBe("'quoted'");
    expect(cleanText(null)).toBe('');
    expect(field('  ', 10)).toBeNull();
    expect(field('abcdef', 3)).toBe('abc');
    // A cut never leaves half a surrogate pair.
    expect(field('ab😀c', 3)).toBe('ab\uFFFD');
  });

  it('splits names, reads ratings and review counts, parses word lists', () => {
    expect(splitName('Ada  King Lovelace')).toEqual({ firstName: 'Ada', lastName: 'King Lovelace' });
    expect(splitName('Cher')).toEqual({ firstName: 'Cher', lastName: null });
    expect(splitName(null)).toEqual({ firstName: null, lastName: null });
    expect([parseRating('4.5'), parseRating('4,5'), parseRating('4.56 stars'), parseRating('5')]).toEqual([
      4.5, 4.5, 4.6, 5,
    ]);
    expect([parseRating('5.1'), parseRating('x'), parseRating('')]).toEqual([null, null, null]);
    expect([parseCount('1,234'), parseCount('(87)'), parseCount('1 234 reviews'), parseCount('0')]).toEqual([
      1234, 87, 1234, 0,
    ]);
    expect([parseCount('abc'), parseCount(''), parseCount('99999999999')]).toEqual([null, null, null]);
    expect(parseWords('Legal, law , LEGAL,,', 10, 40)).toEqual(['legal', 'law']);
    expect(parseWords(['a', 'b', 'c'], 2, 40)).toEqual(['a', 'b']);
  });

  it('turns a search into a term and an escaped contains pattern', () => {
    expect(searchTerm('  Acme   Corp ')).toBe('acme corp');
    expect(searchTerm('   ')).toBeNull();
    expect(searchTerm(undefined)).toBeNull();
    expect(searchPattern('acme corp')).toBe('%acme corp%');
    expect(searchPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });

  it('maps suppression reasons to contact statuses', () => {
    expect(statusForSuppression(null)).toBe('active');
    expect(statusForSuppression('bounced')).toBe('bounced');
    expect(statusForSuppression('unsubscribed')).toBe('unsubscribed');
    expect(statusForSuppression('complained')).toBe('unsubscribed');
  });
});

describe('import columns and rows', () => {
  it('matches both column sets of the spec whatever their case or spelling', () => {
    expect(mapHeader(['email', 'firstName', 'lastName', 'company', 'phone'])).toEqual({
      email: 0,
      firstName: 1,
      lastName: 2,
      company: 3,
      phone: 4,
    });
    expect(
      mapHeader([
        'Name',
        'Email',
        'Phone',
        'Address',
        'Category',
        'Website',
        'Rating',
        'Reviews',
        'Description',
      ]),
    ).toEqual({
      name: 0,
      email: 1,
      phone: 2,
      address: 3,
      category: 4,
      website: 5,
      rating: 6,
      reviews: 7,
      description: 8,
    });
    expect(mapHeader(['E-Mail Address', 'FIRST_NAME', 'last name', 'Organisation', 'Mobile'])).toMatchObject({
      email: 0,
      firstName: 1,
      lastName: 2,
      company: 3,
      phone: 4,
    });
    expect(mapHeader(['Name', 'Phone'])).toBeNull();
    // The first column naming a field wins.
    expect(mapHeader(['email', 'Email'])).toEqual({ email: 0 });
  });

  it('recognises a file without a header by an address in its first row', () => {
    expect(looksHeaderless(['ann@x.io', 'Ann'])).toBe(true);
    expect(looksHeaderless(['Mail', 'Name'])).toBe(false);
  });

  it('makes a contact, an error with its line, or nothing from a row', () => {
    const map = mapHeader(['Name', 'Email', 'Rating', 'Reviews', 'Tags']) ?? {};
    expect(
      toContact(['Ada King Lovelace', ' Ada@Example.com ', '4,5', '1,234', 'vip, VIP, lead'], map, 7),
    ).toEqual({
      kind: 'contact',
      contact: {
        line: 7,
        email: 'Ada@example.com',
        emailKey: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'King Lovelace',
        company: null,
        phone: null,
        website: null,
        address: null,
        category: null,
        rating: 4.5,
        reviewCount: 1234,
        description: null,
        tags: ['vip', 'lead'],
      },
    });
    expect(toContact(['Bob', 'not-an-email'], map, 3)).toEqual({
      kind: 'error',
      error: { line: 3, email: 'not-an-email', message: 'Invalid email address "not-an-email"' },
    });
    expect(toContact(['Bob', ''], map, 4)).toEqual({
      kind: 'error',
      error: { line: 4, email: null, message: 'Missing email address' },
    });
    expect(toContact(['', '  '], map, 5)).toEqual({ kind: 'empty' });
    const long = toContact(['x', `${'a'.repeat(300)}@x.io`], map, 6);
    expect(long.kind === 'error' && long.error.email?.endsWith('…')).toBe(true);
  });

  it('reads manual lines as one contact, or one contact per address', () => {
    expect(manualRecords(['a@x.io', 'Ann', 'Lee'])).toEqual([['a@x.io', 'Ann', 'Lee']]);
    expect(manualRecords(['a@x.io', ' b@y.io', 'c@z.io '])).toEqual([['a@x.io'], ['b@y.io'], ['c@z.io']]);
    expect(positionalMap()).toEqual({ email: 0, firstName: 1, lastName: 2, company: 3, phone: 4 });
  });

  it('writes staging lines in COPY text format', () => {
    const c: StagedContact = {
      line: 2,
      email: 'a@x.io',
      emailKey: 'a@x.io',
      firstName: 'Tab\there',
      lastName: 'Back\\slash',
      company: 'Multi\nline\r',
      phone: null,
      website: null,
      address: null,
      category: null,
      rating: 4.5,
      reviewCount: 12,
      description: null,
      tags: ['a "quoted"', 'b\\c'],
    };
    expect(copyLine(c)).toBe(
      '2\ta@x.io\ta@x.io\tTab\\there\tBack\\\\slash\tMulti\\nline\\r\t\\N\t\\N\t\\N\t\\N\t4.5\t12\t\\N\t{"a \\\\"quoted\\\\"","b\\\\\\\\c"}\n',
    );
  });

  it('words the summary as the spec does', () => {
    expect(importSummary({ imported: 3, skipped: 1, errorCount: 2 })).toBe(
      'Imported 3 contacts, skipped 1 duplicate, 2 errors.',
    );
  });
});

describe('address book input', () => {
  it('requires a name and fills the defaults', () => {
    expect(newBookFields({})).toEqual({ ok: false, message: 'Name is required' });
    expect(newBookFields({ name: '  ' })).toEqual({ ok: false, message: 'Name is required' });
    expect(newBookFields({ name: ' Leads  2025 ', keywords: 'A, b' })).toEqual({
      ok: true,
      value: { name: 'Leads 2025', description: null, color: '#06b6d4', tags: [], keywords: ['a', 'b'] },
    });
    expect(newBookFields({ name: 'x', color: 'red' })).toEqual({
      ok: false,
      message: 'Color must be a hex colour such as #06b6d4',
    });
  });

  it('changes only what an update names', () => {
    expect(bookChanges({ description: '' })).toEqual({ ok: true, value: { description: null } });
    expect(bookChanges({ color: '#ABC' })).toEqual({ ok: true, value: { color: '#aabbcc' } });
    expect(normalizeColor('06B6D4')).toBe('#06b6d4');
    expect(normalizeColor('#12345')).toBeNull();
  });
});
