import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resubscribe, suppress } from '../src/features/audience/suppressions.repository.ts';
import { type AudienceUnderTest, csv, type Loose, startAudience } from './audience-peers.ts';

/**
 * The suppression list across books and re-imports, and the exact contact counts under
 * concurrent imports, deletes and suppressions (real PostgreSQL and NATS).
 */

let t: AudienceUnderTest;
// What the mail half receives from the composition root.
let ctx: Parameters<typeof suppress>[0];

beforeAll(async () => {
  t = await startAudience('audience_suppress');
  ctx = { deps: { pool: t.db } } as unknown as typeof ctx;
});
afterAll(async () => {
  await t?.stop();
});

const newBook = async (name: string): Promise<number> =>
  (await t.call('POST', '/api/admin/address-books', { name })).json.id;
/** Imports rows into a book; contacts already there take the file's values (overwrite). */
const importInto = async (book: number, rows: string[][]) =>
  (
    await t.upload(
      '/api/admin/contacts/import-csv',
      { name: 'x.csv', content: csv(rows) },
      { addressBookId: String(book), mergeMode: 'overwrite' },
    )
  ).json;
const contactsWith = async (email: string): Promise<Loose[]> =>
  (
    await t.db.query(
      'SELECT id::int, address_book_id, status, unsubscribed_at FROM email_contacts WHERE email_key = lower($1) ORDER BY id',
      [email],
    )
  ).rows;

describe('suppression list', () => {
  it('an unsubscribe applies to the address in every book at once, survives re-import, and is published', async () => {
    const a = await newBook('Suppress A');
    const b = await newBook('Suppress B');
    await importInto(a, [
      ['email', 'firstName'],
      ['Sam@Supp.example.com', 'Sam'],
      ['keep@supp.example.com', 'Kim'],
    ]);
    await importInto(b, [['email'], ['sam@supp.example.com']]);

    const result = await suppress(ctx, 'SAM@supp.example.com', 'unsubscribed', 'unsubscribe-link');
    expect(result.created).toBe(true);
    expect(result.contactIds).toHaveLength(2);
    const sams = await contactsWith('sam@supp.example.com');
    expect(sams.map((c) => c.status)).toEqual(['unsubscribed', 'unsubscribed']);
    expect(sams.every((c) => c.unsubscribed_at instanceof Date)).toBe(true);
    expect((await contactsWith('keep@supp.example.com'))[0].status).toBe('active');
    const event = await t.waitEvent(
      'email.contact.unsubscribed',
      (p) => p.address === 'sam@supp.example.com',
    );
    expect(event.payload).toMatchObject({
      reason: 'unsubscribed',
      source: 'unsubscribe-link',
      contactIds: result.contactIds,
      addressBookIds: [a, b].sort((x, y) => x - y),
    });
    expect(event.key).toBe('address:sam@supp.example.com');

    // Again: nothing changes, nothing new is published.
    const again = await suppress(ctx, 'sam@supp.example.com', 'unsubscribed', 'list-unsubscribe');
    expect(again).toEqual({ created: false, contactIds: [] });

    // Re-import into the same book, and a first import into a new book: still unsubscribed.
    const r = await importInto(a, [
      ['email', 'firstName'],
      ['sam@supp.example.com', 'Samuel'],
    ]);
    expect(r.updated).toBe(1);
    const c = await newBook('Suppress C');
    expect((await importInto(c, [['email'], ['sam@supp.example.com']])).imported).toBe(1);
    const after = await contactsWith('sam@supp.example.com');
    expect(after.map((x) => x.status)).toEqual(['unsubscribed', 'unsubscribed', 'unsubscribed']);
    const inA = (await t.call('GET', `/api/admin/email/contacts?addressBookId=${a}&q=sam@`)).json.contacts[0];
    expect(inA).toMatchObject({ firstName: 'Samuel', status: 'unsubscribed' });
    expect(inA.unsubscribedAt).not.toBeNull();

    const books = (await t.call('GET', '/api/admin/address-books')).json;
    const byId = new Map(books.map((x: Loose) => [x.id, x]));
    expect(byId.get(a)).toMatchObject({ contactCount: 2, unsubscribedCount: 1, bouncedCount: 0 });
    expect(byId.get(c)).toMatchObject({ contactCount: 1, unsubscribedCount: 1 });
    const activeOnly = await t.call('GET', `/api/admin/email/contacts?addressBookId=${a}&status=active`);
    expect(activeOnly.json.meta.total).toBe(1);
    const unsubOnly = await t.call('GET', '/api/admin/email/contacts?status=unsubscribed&limit=10');
    expect(unsubOnly.json.contacts.every((x: Loose) => x.status === 'unsubscribed')).toBe(true);
    expect(unsubOnly.json.meta.total).toBe(3);
  });

  it('a hard bounce marks contacts bounced; an admin re-subscribe clears the address everywhere', async () => {
    const a = await newBook('Bounce A');
    const b = await newBook('Bounce B');
    await importInto(a, [['email'], ['bo@bounce.example.com']]);
    await importInto(b, [['email'], ['BO@bounce.example.com']]);
    await suppress(ctx, 'bo@bounce.example.com', 'bounced', 'ses');
    expect((await contactsWith('bo@bounce.example.com')).map((x) => x.status)).toEqual([
      'bounced',
      'bounced',
    ]);
    // A bounce is not an unsubscribe: no unsubscribed event for it.
    await new Promise((r) => setTimeout(r, 300));
    expect(
      t.events.some(
        (e) =>
          e.subject === 'email.contact.unsubscribed' &&
          (e.payload as Loose).address === 'bo@bounce.example.com',
      ),
    ).toBe(false);

    const [first] = await contactsWith('bo@bounce.example.com');
    const res = await t.call('POST', `/api/admin/contacts/${first.id}/resubscribe`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      reactivated: 2,
      message: 'bo@bounce.example.com is subscribed again (in 2 address books).',
      contact: { id: first.id, status: 'active', unsubscribedAt: null },
    });
    expect((await contactsWith('bo@bounce.example.com')).map((x) => x.status)).toEqual(['active', 'active']);
    const suppressed = await t.db.query(
      `SELECT 1 FROM email_suppressions WHERE address = 'bo@bounce.example.com'`,
    );
    expect(suppressed.rowCount).toBe(0);
    await t.waitEvent(
      'email.contact.resubscribed',
      (p) => p.address === 'bo@bounce.example.com' && p.by === 'admin-1',
    );
    const twice = await t.call('POST', `/api/admin/contacts/${first.id}/resubscribe`);
    expect(twice.json).toMatchObject({
      reactivated: 0,
      message: 'bo@bounce.example.com is already subscribed.',
    });
    expect((await t.call('POST', '/api/admin/contacts/99999999/resubscribe')).status).toBe(404);
    expect((await t.call('POST', '/api/admin/contacts/x/resubscribe')).status).toBe(400);

    const direct = await resubscribe(ctx, first.id);
    expect(direct.reactivated).toBe(0);
  });

  it('complaints unsubscribe too, and suppressing an unknown address still records it', async () => {
    const r = await suppress(ctx, 'nobody@complaint.example.com', 'complained', 'ses');
    expect(r).toEqual({ created: true, contactIds: [] });
    const book = await newBook('Complaints');
    await importInto(book, [['email'], ['nobody@complaint.example.com']]);
    expect((await contactsWith('nobody@complaint.example.com'))[0].status).toBe('unsubscribed');
    await expect(suppress(ctx, 'not an address', 'unsubscribed', 'x')).rejects.toThrow();
  });
});

describe('exact counts under concurrency', () => {
  it('imports, deletes and suppressions at once leave every book count equal to its rows', async () => {
    const books = [await newBook('Race 1'), await newBook('Race 2'), await newBook('Race 3')];
    const file = (prefix: string, n: number) => {
      const rows = [['email', 'firstName']];
      for (let i = 0; i < n; i++) rows.push([`${prefix}${i}@race.example.com`, `N${i}`]);
      return rows;
    };
    // Seed so deletes have something to delete while imports run.
    await Promise.all(books.map((b, i) => importInto(b, file(`seed${i}-`, 2000))));
    const seeded = (
      await t.db.query('SELECT id::int FROM email_contacts WHERE address_book_id = ANY($1) ORDER BY id', [
        books,
      ])
    ).rows.map((r) => r.id);
    const work: Array<Promise<unknown>> = [];
    // One import per book at a time (the rule); all three books at once.
    const waves = books.map((b, i) => importInto(b, file(`wave${i}-`, 6000)));
    work.push(...waves);
    // Deletes of seeded contacts, one request each, interleaved with the imports.
    for (const id of seeded.filter((_, k) => k % 15 === 0))
      work.push(t.call('DELETE', `/api/admin/email/contacts/${id}`));
    // Suppressions of seeded addresses in every book.
    for (let k = 0; k < 30; k++)
      work.push(
        suppress(ctx, `seed${k % 3}-${k}@race.example.com`, k % 2 ? 'bounced' : 'unsubscribed', 'race'),
      );
    await Promise.all(work);
    for (const w of await Promise.all(waves))
      expect(w).toMatchObject({ status: 'completed', imported: 6000 });

    const check = async () => {
      const listed = (await t.call('GET', '/api/admin/address-books')).json as Loose[];
      for (const b of books) {
        const real = (
          await t.db.query(
            `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'unsubscribed')::int AS u, count(*) FILTER (WHERE status = 'bounced')::int AS b
             FROM email_contacts WHERE address_book_id = $1`,
            [b],
          )
        ).rows[0];
        const shown = listed.find((x) => x.id === b);
        expect(
          { n: shown.contactCount, u: shown.unsubscribedCount, b: shown.bouncedCount },
          `book ${b}`,
        ).toEqual(real);
        expect(real.n).toBeGreaterThan(6000);
      }
      const total = (await t.call('GET', '/api/admin/email/contacts?limit=1')).json.meta.total;
      expect(total).toBe((await t.db.query('SELECT count(*)::int AS n FROM email_contacts')).rows[0].n);
    };
    await check();
    // Folding the deltas into the books changes nothing anyone reads.
    const deltas = (await t.db.query('SELECT count(*)::int AS n FROM address_book_count_deltas')).rows[0].n;
    expect(deltas).toBeGreaterThan(0);
    await expect
      .poll(
        async () => (await t.db.query('SELECT count(*)::int AS n FROM address_book_count_deltas')).rows[0].n,
        { timeout: 15_000 },
      )
      .toBe(0);
    await check();
  });
});
