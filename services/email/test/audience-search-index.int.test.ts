import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactsRepository } from '../src/features/audience/contacts.repository.ts';
import { type AudienceUnderTest, csv, startAudience } from './audience-peers.ts';

/**
 * The search index kept behind the writes (migration contact_search_index): contacts are
 * queued in the transaction that writes them and indexed later, and a search finds every
 * committed contact whether it is indexed yet or not. The service's own indexer is slowed to
 * once an hour here, so the test decides when indexing happens.
 */

let t: AudienceUnderTest;
let repo: ContactsRepository;
let bookId: number;

beforeAll(async () => {
  t = await startAudience('audience_search_index', { SEARCH_INDEX_MS: '3600000' });
  repo = new ContactsRepository(t.db);
  bookId = (await t.call('POST', '/api/admin/address-books', { name: 'Search index' })).json.id;
});
afterAll(async () => {
  await t?.stop();
});

/** Imports rows into the book; contacts already there take the file's values (overwrite). */
const importRows = async (rows: Array<Array<string | number>>) => {
  const r = await t.upload(
    '/api/admin/contacts/import-csv',
    { name: 'people.csv', content: csv([['Name', 'Email', 'Company'], ...rows]) },
    { addressBookId: String(bookId), mergeMode: 'overwrite' },
  );
  expect(r.status).toBe(200);
  return r.json;
};

/** A book's emails matching `q` as a plain scan finds them, newest first. */
const plainScan = async (book: number, q: string) =>
  (
    await t.db.query<{ email: string }>(
      `SELECT email FROM email_contacts WHERE address_book_id = $1 AND strpos(search_text, $2) > 0 ORDER BY id DESC`,
      [book, q.trim().toLowerCase()],
    )
  ).rows.map((r) => r.email);

/** The book's emails matching `q` as the API answers, and as a plain scan would. */
const search = async (q: string) => {
  const page = await t.call(
    'GET',
    `/api/admin/email/contacts?addressBookId=${bookId}&limit=50&q=${encodeURIComponent(q)}`,
  );
  expect(page.status).toBe(200);
  return {
    found: page.json.contacts.map((c: { email: string }) => c.email) as string[],
    total: page.json.meta.total as number,
    truth: await plainScan(bookId, q),
  };
};

const indexed = async () =>
  new Map(
    (
      await t.db.query<{ contact_id: string; search_text: string }>(
        `SELECT contact_id, search_text FROM email_contact_search`,
      )
    ).rows.map((r) => [Number(r.contact_id), r.search_text]),
  );

// Rare terms (the rarest-trigram path), a common one (the newest-first probe, then the whole
// index) and one that matches nothing.
const TERMS = ['zebulon', 'quagga7', 'person 1', 'acme', 'okapi', 'nothing-like-this'];

describe('contact search index', () => {
  it('finds imported contacts before they are indexed, and the same after', async () => {
    const rows: Array<Array<string | number>> = [];
    for (let i = 1; i <= 300; i++)
      rows.push([`Person ${i}`, `person${i}@acme.example.com`, i % 3 ? 'Acme' : 'Zebulon Works']);
    rows.push(['Quagga7 Striped', 'q7@wild.example.com', 'Okapi Ltd']);
    expect((await importRows(rows)).imported).toBe(301);
    // Every contact is queued, none indexed.
    expect(await repo.queuedForIndex()).toBe(301);
    expect((await indexed()).size).toBe(0);
    await repo.refreshSearchSample();
    for (const q of TERMS) {
      const r = await search(q);
      expect(r.found, q).toEqual(r.truth.slice(0, 50));
      expect(r.total, q).toBe(r.truth.length);
    }
    expect((await search('zebulon')).total).toBe(100);
    expect((await search('quagga7')).found).toEqual(['q7@wild.example.com']);

    // Batches of 100: a queue of more than one batch is vacuumed once drained, so the check
    // every search makes of it reads no dead pages.
    expect(await repo.indexQueued(undefined, 100)).toBe(301);
    expect(await repo.queuedForIndex()).toBe(0);
    const size = await t.db.query(`SELECT pg_relation_size('email_contact_search_pending') AS bytes`);
    expect(Number(size.rows[0].bytes)).toBe(0);
    const index = await indexed();
    const texts = await t.db.query<{ id: string; search_text: string }>(
      `SELECT id, search_text FROM email_contacts WHERE address_book_id = $1`,
      [bookId],
    );
    expect(index.size).toBe(301);
    for (const c of texts.rows) expect(index.get(Number(c.id))).toBe(c.search_text);
    for (const q of TERMS) {
      const r = await search(q);
      expect(r.found, q).toEqual(r.truth.slice(0, 50));
      expect(r.total, q).toBe(r.truth.length);
    }
  });

  it('a re-import that renames contacts queues them; the old name stops matching at once', async () => {
    // Person 1..3 get new names; person 4 comes again unchanged (not queued).
    await importRows([
      ['Gerenuk Renamed', 'person1@acme.example.com', 'Acme'],
      ['Gerenuk Renamed', 'person2@acme.example.com', 'Acme'],
      ['Gerenuk Renamed', 'person3@acme.example.com', 'Zebulon Works'],
      ['Person 4', 'person4@acme.example.com', 'Acme'],
    ]);
    expect(await repo.queuedForIndex()).toBe(3);
    const renamed = await search('gerenuk');
    expect(renamed.found.sort()).toEqual([
      'person1@acme.example.com',
      'person2@acme.example.com',
      'person3@acme.example.com',
    ]);
    // The index still holds "person 1 …" for them; the contact's own text decides.
    expect((await search('person 1')).found).not.toContain('person1@acme.example.com');
    expect(await repo.indexQueued()).toBe(3);
    const index = await indexed();
    const one = await t.db.query<{ id: string }>(
      `SELECT id FROM email_contacts WHERE email_key = 'person1@acme.example.com'`,
    );
    expect(index.get(Number(one.rows[0]?.id))).toBe('gerenuk renamed person1@acme.example.com acme');
    expect((await search('gerenuk')).total).toBe(3);
  });

  it('a contact written while a batch runs is indexed with its newest text by the next batch', async () => {
    const [{ id }] = (
      await t.db.query<{ id: string }>(
        `SELECT id FROM email_contacts WHERE email_key = 'q7@wild.example.com'`,
      )
    ).rows as [{ id: string }];
    // A writer renames the contact and has not committed when the indexer runs: its queue
    // entry is not visible to the batch, which indexes what is committed.
    const writer = await t.db.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(`UPDATE email_contacts SET first_name = 'Sitatunga' WHERE id = $1`, [id]);
      await t.db.query(`INSERT INTO email_contact_search_pending (contact_id) VALUES ($1)`, [id]);
      expect(await repo.indexQueued()).toBe(1);
      expect((await indexed()).get(Number(id))).toBe('quagga7 striped q7@wild.example.com okapi ltd');
      await writer.query('COMMIT');
    } finally {
      writer.release();
    }
    // The writer's own entry survived the batch.
    expect(await repo.queuedForIndex()).toBe(1);
    expect((await search('sitatunga')).found).toEqual(['q7@wild.example.com']);
    expect(await repo.indexQueued()).toBe(1);
    expect((await indexed()).get(Number(id))).toBe('sitatunga striped q7@wild.example.com okapi ltd');
  });

  it('deleted contacts leave the index with them, one or a whole book', async () => {
    const first = (await t.call('GET', `/api/admin/email/contacts?addressBookId=${bookId}&limit=1`)).json
      .contacts[0];
    expect((await t.call('DELETE', `/api/admin/email/contacts/${first.id}`)).status).toBe(200);
    expect((await indexed()).has(first.id)).toBe(false);
    expect((await indexed()).size).toBe(300);
    expect((await t.call('DELETE', `/api/admin/address-books/${bookId}`)).status).toBe(200);
    expect((await indexed()).size).toBe(0);
    // Queue entries of contacts gone are taken and index nothing.
    await t.db.query(`INSERT INTO email_contact_search_pending (contact_id) VALUES ($1)`, [first.id]);
    expect(await repo.indexQueued()).toBe(1);
    expect((await indexed()).size).toBe(0);
  });

  it('while the queue is large, a search scans the contacts and finds the same', async () => {
    const book = (await t.call('POST', '/api/admin/address-books', { name: 'Large queue' })).json.id;
    const rows: Array<Array<string | number>> = [];
    for (let i = 1; i <= 400; i++)
      rows.push([`Person ${i}`, `large${i}@acme.example.com`, i % 4 ? 'Acme' : 'Zebulon Works']);
    rows.push(['Quagga7 Striped', 'q7@large.example.com', 'Okapi Ltd']);
    const r = await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'large.csv', content: csv([['Name', 'Email', 'Company'], ...rows]) },
      { addressBookId: String(book) },
    );
    expect(r.json.imported).toBe(401);
    // The same queue is "some" for the service's threshold and "many" for one of 100.
    const scanning = new ContactsRepository(t.db, 100);
    expect(await repo.searchQueue()).toBe('some');
    expect(await scanning.searchQueue()).toBe('many');
    await scanning.refreshSearchSample();
    for (const q of TERMS) {
      const page = await scanning.list({ q, addressBookId: book, limit: 50, offset: 0 });
      const truth = await plainScan(book, q);
      expect(
        page.contacts.map((c) => c.email),
        q,
      ).toEqual(truth.slice(0, 50));
      expect(page.total, q).toBe(truth.length);
    }
    expect(await repo.indexQueued()).toBe(401);
    expect(await scanning.searchQueue()).toBe('empty');
  });

  it('the service indexes what is queued on its own', async () => {
    const other = await startAudience('audience_search_index_own', { SEARCH_INDEX_MS: '50' });
    try {
      const book = (await other.call('POST', '/api/admin/address-books', { name: 'Own' })).json.id;
      const r = await other.upload(
        '/api/admin/contacts/import-csv',
        { name: 'own.csv', content: csv([['Email'], ['one@own.example.com'], ['two@own.example.com']]) },
        { addressBookId: String(book) },
      );
      expect(r.json.imported).toBe(2);
      const deadline = Date.now() + 10_000;
      let size = 0;
      while (size < 2 && Date.now() < deadline) {
        size = Number((await other.db.query(`SELECT count(*) AS n FROM email_contact_search`)).rows[0].n);
        if (size < 2) await new Promise((res) => setTimeout(res, 50));
      }
      expect(size).toBe(2);
      expect(
        Number((await other.db.query(`SELECT count(*) AS n FROM email_contact_search_pending`)).rows[0].n),
      ).toBe(0);
    } finally {
      await other.stop();
    }
  });
});
