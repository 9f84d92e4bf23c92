import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactsRepository } from '../src/features/audience/contacts.repository.ts';
import { selectiveTrigrams } from '../src/features/audience/domain/search-trigrams.ts';
import { type AudienceUnderTest, csv, startAudience } from './audience-peers.ts';

/** Address books and contacts over HTTP against the real service, PostgreSQL and NATS. */

let t: AudienceUnderTest;

beforeAll(async () => {
  t = await startAudience('audience_books');
});
afterAll(async () => {
  await t?.stop();
});

const bookByName = async (name: string) =>
  ((await t.call('GET', '/api/admin/address-books')).json as Array<{ id: number; name: string }>).find(
    (b) => b.name === name,
  );

describe('address books', () => {
  it('has exactly one default book from the first start, which cannot be deleted', async () => {
    const list = await t.call('GET', '/api/admin/address-books');
    expect(list.status).toBe(200);
    const defaults = list.json.filter((b: { isDefault: boolean }) => b.isDefault);
    expect(defaults).toHaveLength(1);
    expect(defaults[0]).toMatchObject({ color: '#06b6d4', contactCount: 0 });
    const del = await t.call('DELETE', `/api/admin/address-books/${defaults[0].id}`);
    expect(del.status).toBe(409);
    expect(del.json).toEqual({ error: 'Conflict', message: 'Default address book cannot be deleted' });
    // The database refuses too, whoever asks.
    await expect(t.db.query('DELETE FROM address_books WHERE is_default')).rejects.toThrow(
      'Default address book cannot be deleted',
    );
    await expect(t.db.query('UPDATE address_books SET is_default = false')).rejects.toThrow();
    await expect(
      t.db.query(`INSERT INTO address_books (name, is_default) VALUES ('Second default', true)`),
    ).rejects.toThrow();
    await t.waitEvent('email.address_book.created', (p) => p.id === defaults[0].id && p.isDefault === true);
  });

  it('creates, edits, searches and refuses bad input without changing anything', async () => {
    const created = await t.call('POST', '/api/admin/address-books', {
      name: '  Boston   Law Firms ',
      description: 'Partners at mid-size firms',
      keywords: 'Legal, law, , legal',
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: 'Boston Law Firms',
      description: 'Partners at mid-size firms',
      color: '#06b6d4',
      isDefault: false,
      contactCount: 0,
      keywords: ['legal', 'law'],
      tags: [],
    });
    const id = created.json.id;
    await t.waitEvent('email.address_book.created', (p) => p.id === id && p.name === 'Boston Law Firms');

    const dup = await t.call('POST', '/api/admin/address-books', { name: 'boston law firms' });
    expect(dup.status).toBe(409);
    expect(dup.json.message).toBe('An address book named "boston law firms" already exists.');

    for (const body of [
      {},
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'Ok', color: 'blue' },
      { name: 'Ok', keywords: { a: 1 } },
    ]) {
      const r = await t.call('POST', '/api/admin/address-books', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toBe('Bad Request');
    }
    expect((await t.call('POST', '/api/admin/address-books', {})).json.message).toBe('Name is required');
    expect(await bookByName('Ok')).toBeUndefined();

    const edited = await t.call('PUT', `/api/admin/address-books/${id}`, {
      name: 'Boston Legal',
      color: '#F0A',
      keywords: ['real estate', 'law'],
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({
      name: 'Boston Legal',
      color: '#ff00aa',
      description: 'Partners at mid-size firms',
      keywords: ['real estate', 'law'],
    });
    expect((await t.call('PUT', '/api/admin/address-books/999999', { name: 'Nope' })).status).toBe(404);
    expect((await t.call('PUT', '/api/admin/address-books/abc', { name: 'Nope' })).status).toBe(400);

    const search = async (q: string) =>
      (
        (await t.call('GET', `/api/admin/address-books?search=${encodeURIComponent(q)}`)).json as Array<{
          name: string;
        }>
      ).map((b) => b.name);
    expect(await search('REAL ESTATE')).toEqual(['Boston Legal']);
    expect(await search('mid-size')).toEqual(['Boston Legal']);
    expect(await search('boston')).toEqual(['Boston Legal']);
    expect(await search('100%')).toEqual([]);
    expect(await search('insurance')).toEqual([]);
  });

  it('refuses callers without the admin assertion', async () => {
    const r = await t.call('GET', '/api/admin/address-books', undefined, {});
    expect(r.status).toBe(401);
    const forged = await t.call('GET', '/api/admin/email/contacts', undefined, {
      'x-parley-assertion': 'nope',
    });
    expect(forged.status).toBe(401);
  });

  it('deletes a book with all its contacts and publishes the deletion', async () => {
    const book = (await t.call('POST', '/api/admin/address-books', { name: 'Short-lived' })).json;
    const imported = await t.upload(
      '/api/admin/contacts/import-csv',
      {
        name: 'leads.csv',
        content: csv([
          ['Email', 'Name'],
          ['a@short.example.com', 'Ann A'],
          ['b@short.example.com', 'Bob B'],
        ]),
      },
      { addressBookId: String(book.id) },
    );
    expect(imported.json.imported).toBe(2);
    const del = await t.call('DELETE', `/api/admin/address-books/${book.id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ success: true, message: 'Deleted "Short-lived" and its 2 contacts.' });
    const left = await t.db.query(
      'SELECT count(*)::int AS n FROM email_contacts WHERE address_book_id = $1',
      [book.id],
    );
    expect(left.rows[0].n).toBe(0);
    const deltas = await t.db.query(
      'SELECT count(*)::int AS n FROM address_book_count_deltas WHERE address_book_id = $1',
      [book.id],
    );
    expect(deltas.rows[0].n).toBe(0);
    await t.waitEvent('email.address_book.deleted', (p) => p.id === book.id && p.contactCount === 2);
    expect((await t.call('DELETE', `/api/admin/address-books/${book.id}`)).status).toBe(404);
    expect(await bookByName('Short-lived')).toBeUndefined();
  });

  it('keeps contacts tied to an existing book, set-based, like a foreign key', async () => {
    await expect(
      t.db.query(
        `INSERT INTO email_contacts (address_book_id, email) VALUES (987654, 'x@orphan.example.com')`,
      ),
    ).rejects.toMatchObject({ code: '23503' });
    const book = (await t.call('POST', '/api/admin/address-books', { name: 'Mover' })).json;
    const other = (await t.call('POST', '/api/admin/address-books', { name: 'Mover target' })).json;
    await t.db.query(
      `INSERT INTO email_contacts (address_book_id, email) VALUES ($1, 'm@move.example.com')`,
      [book.id],
    );
    await expect(
      t.db.query(`UPDATE email_contacts SET address_book_id = 987654 WHERE email = 'm@move.example.com'`),
    ).rejects.toMatchObject({ code: '23503' });
    await t.db.query(`UPDATE email_contacts SET address_book_id = $1 WHERE email = 'm@move.example.com'`, [
      other.id,
    ]);
    const counts = await t.call('GET', '/api/admin/address-books');
    const byId = new Map(
      counts.json.map((b: { id: number; contactCount: number }) => [b.id, b.contactCount]),
    );
    expect(byId.get(book.id)).toBe(0);
    expect(byId.get(other.id)).toBe(1);
  });
});

describe('contacts', () => {
  let bookId: number;
  beforeAll(async () => {
    bookId = (await t.call('POST', '/api/admin/address-books', { name: 'Contacts under test' })).json.id;
    const rows: Array<Array<string | number>> = [['email', 'firstName', 'lastName', 'company', 'phone']];
    for (let i = 1; i <= 120; i++)
      rows.push([
        `person${i}@${i % 2 ? 'acme' : 'globex'}.example.com`,
        `First${i}`,
        `Last${i}`,
        i % 2 ? 'Acme Corp' : 'Globex',
        `555-01${i}`,
      ]);
    const r = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'people.csv', content: csv(rows) },
      { addressBookId: String(bookId) },
    );
    expect(r.json.imported).toBe(120);
  });

  it('pages newest first with an exact total and hasMore', async () => {
    const p1 = await t.call('GET', `/api/admin/email/contacts?limit=50&offset=0&addressBookId=${bookId}`);
    expect(p1.status).toBe(200);
    expect(p1.json.meta).toEqual({ hasMore: true, total: 120, totalExact: true, limit: 50, offset: 0 });
    expect(p1.json.contacts).toHaveLength(50);
    expect(p1.json.contacts[0]).toMatchObject({
      email: 'person120@globex.example.com',
      firstName: 'First120',
      lastName: 'Last120',
      company: 'Globex',
      status: 'active',
      addressBookId: bookId,
      source: 'csv',
      unsubscribedAt: null,
    });
    const ids = p1.json.contacts.map((c: { id: number }) => c.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const p3 = await t.call('GET', `/api/admin/email/contacts?limit=50&offset=100&addressBookId=${bookId}`);
    expect(p3.json.meta.hasMore).toBe(false);
    expect(p3.json.contacts).toHaveLength(20);
    const book = await t.call('GET', `/api/admin/address-books/${bookId}/contacts?limit=5`);
    expect(book.json.meta).toMatchObject({ total: 120, hasMore: true });
  });

  it('searches names, emails and companies (contains, case-insensitive) with a counted total', async () => {
    const q = async (s: string, extra = '') =>
      (
        await t.call(
          'GET',
          `/api/admin/email/contacts?addressBookId=${bookId}&limit=50&q=${encodeURIComponent(s)}${extra}`,
        )
      ).json;
    const globex = await q('GLOBEX');
    expect(globex.meta).toMatchObject({ total: 60, totalExact: true, hasMore: true });
    expect(globex.contacts.every((c: { company: string }) => c.company === 'Globex')).toBe(true);
    const one = await q('first117 ');
    expect(one.contacts.map((c: { email: string }) => c.email)).toEqual(['person117@acme.example.com']);
    expect(one.meta).toMatchObject({ total: 1, hasMore: false });
    expect((await q('rson11')).meta.total).toBe(11); // person11, person110..119
    expect((await q('%')).meta.total).toBe(0);
    expect((await q('_')).meta.total).toBe(0);
    expect((await q('n1')).meta.total).toBeGreaterThan(0); // short terms scan newest first
  });

  it('answers a search the same whether the index is asked for every trigram or the rarest', async () => {
    const repo = new ContactsRepository(t.db);
    const sample = await repo.refreshSearchSample();
    const terms = [
      'first117 ',
      'last117 acme',
      'rson11',
      'PERSON42@ACME',
      '555-0111',
      'globex',
      'acme corp',
      'zzqx',
      'st9',
      '%',
    ];
    // Rare terms take the rarest-trigram path at this size too; common ones do not.
    expect(selectiveTrigrams('first117 ', sample)).not.toBeNull();
    expect(selectiveTrigrams('zzqx', sample)).not.toBeNull();
    // Its rare trigram ('117') is in one contact, which holds both words but not this phrase.
    expect(selectiveTrigrams('last117 acme', sample)).not.toBeNull();
    expect(selectiveTrigrams('globex', sample)).toBeNull();
    for (const q of terms) {
      const term = q.trim().toLowerCase();
      const expected = await t.db.query<{ email: string }>(
        `SELECT email FROM email_contacts WHERE address_book_id = $1 AND strpos(search_text, $2) > 0 ORDER BY id DESC`,
        [bookId, term],
      );
      const page = await repo.list({ limit: 50, offset: 0, q, addressBookId: bookId });
      expect(
        page.contacts.map((c) => c.email),
        q,
      ).toEqual(expected.rows.slice(0, 50).map((r) => r.email));
      expect(page.total, q).toBe(expected.rows.length);
      expect(page.hasMore, q).toBe(expected.rows.length > 50);
    }
  });

  it('validates queries, and deletes one contact keeping the count exact', async () => {
    for (const qs of ['limit=0', 'limit=5001', 'offset=-1', 'status=gone', 'addressBookId=0', 'limit=abc']) {
      const r = await t.call('GET', `/api/admin/email/contacts?${qs}`);
      expect(r.status, qs).toBe(400);
    }
    expect((await t.call('GET', '/api/admin/email/contacts?limit=5000')).status).toBe(200);
    expect((await t.call('GET', '/api/admin/email/contacts?addressBookId=999999')).status).toBe(404);
    const first = (await t.call('GET', `/api/admin/email/contacts?addressBookId=${bookId}&limit=1`)).json
      .contacts[0];
    const del = await t.call('DELETE', `/api/admin/email/contacts/${first.id}`);
    expect(del.json).toEqual({ success: true, message: 'Contact deleted' });
    expect((await t.call('DELETE', `/api/admin/email/contacts/${first.id}`)).status).toBe(404);
    expect((await t.call('DELETE', '/api/admin/email/contacts/nope')).status).toBe(400);
    const after = await t.call('GET', `/api/admin/email/contacts?addressBookId=${bookId}&limit=1`);
    expect(after.json.meta.total).toBe(119);
  });

  it('exports a book as CSV, formula cells neutralised, and the export re-imports as it was', async () => {
    const book = (await t.call('POST', '/api/admin/address-books', { name: 'Export: Ünïcode/Test' })).json;
    const dangerous = csv([
      ['Email', 'First Name', 'Last Name', 'Company', 'Phone', 'Description'],
      ['eve@export.example.com', '=HYPERLINK("http://evil")', '+SUM(1)', '@cmd', '+1 555 0100', '-2+3'],
      ['joe@export.example.com', 'Joe', 'O"Neil, Jr', 'Line\nBreak', '', 'tab\tinside'],
    ]);
    expect(
      (
        await t.upload(
          '/api/admin/contacts/import-csv',
          { name: 'x.csv', content: dangerous },
          { addressBookId: String(book.id) },
        )
      ).json.imported,
    ).toBe(2);
    const res = await fetch(`${t.url}/api/admin/address-books/${book.id}/export`, {
      headers: await t.admin(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''export-unicode-test-contacts-`,
    );
    const body = Buffer.from(await res.arrayBuffer()).toString('utf8');
    expect(body.split('\n')[0]).toBe(
      '\uFEFFEmail,First Name,Last Name,Company,Phone,Address,Category,Website,Rating,Reviews,Description,Tags,Status,Added,Unsubscribed',
    );
    // Every cell a spreadsheet would evaluate starts with an apostrophe inside its quotes.
    expect(body).toContain(`"'=HYPERLINK(""http://evil"")","'+SUM(1)","'@cmd","'+1 555 0100"`);
    expect(body).toContain(`"'-2+3"`);
    expect(body).not.toMatch(/(^|,)"[=+\-@]/m);
    expect(body).toContain(`"joe@export.example.com","Joe","O""Neil, Jr","Line\nBreak"`);

    const copy = (await t.call('POST', '/api/admin/address-books', { name: 'Export copy' })).json;
    const back = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'back.csv', content: body },
      { addressBookId: String(copy.id) },
    );
    expect(back.json).toMatchObject({ imported: 2, errorCount: 0 });
    const eve = (await t.call('GET', `/api/admin/email/contacts?addressBookId=${copy.id}&q=eve@`)).json
      .contacts[0];
    expect(eve).toMatchObject({
      firstName: '=HYPERLINK("http://evil")',
      lastName: '+SUM(1)',
      company: '@cmd',
      phone: '+1 555 0100',
      description: '-2+3',
    });
    expect(
      (await fetch(`${t.url}/api/admin/address-books/999999/export`, { headers: await t.admin() })).status,
    ).toBe(404);
  });
});
