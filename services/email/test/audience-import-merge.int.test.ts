import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AudienceUnderTest, csv, type Loose, startAudience } from './audience-peers.ts';

/**
 * Re-importing into a book that has the contacts already (issue 35, item 7): by default an
 * import fills empty fields only and never replaces a value (a phone of 555-111-2222 must not
 * become "555"); overwrite and skip are chosen explicitly; the preview counts, before
 * anything is written, how many contacts each choice changes and how many would lose a value.
 */

let t: AudienceUnderTest;

beforeAll(async () => {
  t = await startAudience('audience_import_merge');
});
afterAll(async () => {
  await t?.stop();
});

const HEADER = ['email', 'firstName', 'lastName', 'company', 'phone'];
/** The better data already in the book. */
const GOOD = csv([
  HEADER,
  ['ann@merge.example', 'Ann', '', 'Acme Dental', '555-111-2222'],
  ['bob@merge.example', 'Bob', 'Barr', '', ''],
  ['cy@merge.example', 'Cy', 'Cole', 'Cole & Co', '555-333-4444'],
]);
/** A worse export of the same people, one new address, and a repeated row. */
const WORSE = csv([
  HEADER,
  ['ANN@merge.example', '', 'Adams', 'Acme', '555'],
  ['bob@merge.example', '', '', 'Barr Builders', '555-0200'],
  ['cy@merge.example', 'Cy', 'Cole', 'Cole & Co', '555-333-4444'],
  ['dee@merge.example', 'Dee', '', '', ''],
  ['ann@merge.example', 'Again', '', '', '1'],
]);

const newBook = async (name: string): Promise<number> => {
  const r = await t.call('POST', '/api/admin/address-books', { name });
  expect(r.status, r.text).toBe(201);
  return r.json.id;
};
const upload = (path: string, book: number, content: string, fields: Record<string, string> = {}) =>
  t.upload(path, { name: 'contacts.csv', content }, { addressBookId: String(book), ...fields });
const contacts = async (book: number): Promise<Map<string, Loose>> => {
  const r = await t.call('GET', `/api/admin/email/contacts?addressBookId=${book}&limit=100`);
  return new Map(r.json.contacts.map((c: Loose) => [c.email.toLowerCase(), c]));
};
const seeded = async (name: string) => {
  const book = await newBook(name);
  const r = await upload('/api/admin/contacts/import-csv', book, GOOD);
  expect(r.json).toMatchObject({ status: 'completed', imported: 3 });
  return book;
};
const jobsOf = async (book: number) =>
  (await t.db.query('SELECT count(*)::int AS n FROM email_imports WHERE address_book_id = $1', [book]))
    .rows[0].n;

describe('re-importing contacts that are already in the book', () => {
  it('previews what each choice changes, and writes nothing', async () => {
    const book = await seeded('Merge preview');
    const before = await contacts(book);
    const jobs = await jobsOf(book);
    const r = await upload('/api/admin/email/import-preview', book, WORSE);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({
      addressBookId: book,
      rowsRead: 5,
      errorCount: 0,
      errors: [],
      encoding: 'utf-8',
      newContacts: 1,
      existing: 3,
      repeated: 1,
      modes: {
        // Ann gains a last name, Bob a company and a phone; Cy is the same.
        fill: { changed: 2, valuesReplaced: 0 },
        // Ann's phone and company would be replaced by worse ones.
        overwrite: { changed: 2, valuesReplaced: 1 },
        skip: { changed: 0, valuesReplaced: 0 },
      },
    });
    expect(await contacts(book)).toEqual(before);
    expect(await jobsOf(book)).toBe(jobs);

    const manual = await t.call('POST', '/api/admin/email/import-manual/preview', {
      addressBookId: book,
      contacts: 'ann@merge.example, Ann, , , 555\nnew@merge.example',
    });
    expect(manual.status, manual.text).toBe(200);
    expect(manual.json).toMatchObject({
      newContacts: 1,
      existing: 1,
      modes: { fill: { changed: 0 }, overwrite: { changed: 1, valuesReplaced: 1 } },
    });
  });

  it('by default fills empty fields only: no value is ever replaced', async () => {
    const book = await seeded('Merge default');
    const r = await upload('/api/admin/contacts/import-csv', book, WORSE);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ mergeMode: 'fill', imported: 1, updated: 2, skipped: 2 });
    expect(r.json.message).toBe(
      'Imported 1 contact, skipped 2 duplicates, 0 errors. Updated 2 existing contacts (fill empty fields only).',
    );
    const list = await contacts(book);
    expect(list.get('ann@merge.example')).toMatchObject({
      firstName: 'Ann',
      lastName: 'Adams',
      company: 'Acme Dental',
      phone: '555-111-2222',
    });
    expect(list.get('bob@merge.example')).toMatchObject({
      firstName: 'Bob',
      lastName: 'Barr',
      company: 'Barr Builders',
      phone: '555-0200',
    });
    expect(list.get('dee@merge.example')).toMatchObject({ firstName: 'Dee' });
    const job = await t.call('GET', `/api/admin/email/imports/${r.json.importId}`);
    expect(job.json).toMatchObject({ mergeMode: 'fill', updated: 2 });

    // The same through manual entry.
    const manual = await t.call('POST', '/api/admin/email/import-manual', {
      addressBookId: book,
      contacts: 'ann@merge.example, Anna, Other, , 1',
    });
    expect(manual.json).toMatchObject({ mergeMode: 'fill', imported: 0, updated: 0, skipped: 1 });
    expect((await contacts(book)).get('ann@merge.example')).toMatchObject({
      firstName: 'Ann',
      phone: '555-111-2222',
    });
  });

  it('overwrites only when asked to, with the first row of an address winning', async () => {
    const book = await seeded('Merge overwrite');
    const r = await upload('/api/admin/contacts/import-csv', book, WORSE, { mergeMode: 'overwrite' });
    expect(r.json).toMatchObject({ mergeMode: 'overwrite', imported: 1, updated: 2, skipped: 2 });
    const list = await contacts(book);
    expect(list.get('ann@merge.example')).toMatchObject({
      firstName: 'Ann',
      lastName: 'Adams',
      company: 'Acme',
      phone: '555',
    });
    expect(list.get('bob@merge.example')).toMatchObject({ company: 'Barr Builders', phone: '555-0200' });
  });

  it('skips existing contacts when asked to: only new addresses are added', async () => {
    const book = await seeded('Merge skip');
    const before = await contacts(book);
    const r = await upload('/api/admin/email/import-csv', book, WORSE, { mergeMode: 'skip' });
    expect(r.json).toMatchObject({ mergeMode: 'skip', imported: 1, updated: 0, skipped: 4 });
    const after = await contacts(book);
    for (const email of before.keys()) expect(after.get(email)).toEqual(before.get(email));
    expect(after.has('dee@merge.example')).toBe(true);
  });

  it('refuses an unknown choice (400) and imports nothing', async () => {
    const book = await seeded('Merge refused');
    const before = await contacts(book);
    const r = await upload('/api/admin/contacts/import-csv', book, WORSE, { mergeMode: 'replace' });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(
      'Unknown choice for existing contacts "replace". Choose one of: fill, overwrite, skip.',
    );
    const manual = await t.call('POST', '/api/admin/email/import-manual', {
      addressBookId: book,
      contacts: 'new@merge.example',
      mergeMode: 'merge',
    });
    expect(manual.status).toBe(400);
    expect(await contacts(book)).toEqual(before);
  });
});
