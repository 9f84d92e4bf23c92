import type { AddressBook } from '@parley/contracts';
import { enqueueEvent, inTransaction, isUniqueViolation, pgExecutor } from '@parley/kit';
import { sql } from 'kysely';
import type pg from 'pg';
import { db, execute, firstRow, type Queryable, type Row, rows } from '../../shared/sql.ts';
import type { BookFields } from './domain/books.ts';

/**
 * Address books. A book's counts are its columns plus its rows of address_book_count_deltas
 * (written by the contact triggers, see the audience migration), so every read here is exact
 * however many imports and deletes run at once; `compactCounts` folds the deltas in.
 */

export class DefaultBookError extends Error {
  override name = 'DefaultBookError';
}
export class DuplicateBookNameError extends Error {
  override name = 'DuplicateBookNameError';
}

/** Books with exact counts (column + pending deltas): the typed statement every book read starts from. */
export function selectBooks() {
  return db
    .selectFrom('address_books as b')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('address_book_count_deltas')
          .select((d) => [
            d.fn.sum<string | null>('contacts').as('contacts'),
            d.fn.sum<string | null>('unsubscribed').as('unsubscribed'),
            d.fn.sum<string | null>('bounced').as('bounced'),
          ])
          .whereRef('address_book_id', '=', 'b.id')
          .as('d'),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      'b.id',
      'b.name',
      'b.description',
      'b.color',
      'b.is_default',
      sql<string>`${eb.ref('b.contact_count')} + coalesce(${eb.ref('d.contacts')}, 0)`.as('contact_count'),
      sql<string>`${eb.ref('b.unsubscribed_count')} + coalesce(${eb.ref('d.unsubscribed')}, 0)`.as(
        'unsubscribed_count',
      ),
      sql<string>`${eb.ref('b.bounced_count')} + coalesce(${eb.ref('d.bounced')}, 0)`.as('bounced_count'),
      'b.tags',
      'b.keywords',
      'b.created_at',
      'b.updated_at',
    ]);
}

type BookRow = Row<ReturnType<typeof selectBooks>>;

/** The same statement as SQL text (alias `b`), for the statements not yet built with `db`. */
export const BOOK_SELECT = selectBooks().compile().sql;

export function toAddressBook(r: BookRow): AddressBook {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    color: r.color,
    isDefault: r.is_default,
    contactCount: Number(r.contact_count),
    unsubscribedCount: Number(r.unsubscribed_count),
    bouncedCount: Number(r.bounced_count),
    tags: r.tags ?? [],
    keywords: r.keywords ?? [],
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export const DEFAULT_BOOK = {
  name: 'Default address book',
  description: 'Contacts imported or added without choosing a book.',
} as const;

const searchable = (f: Pick<BookFields, 'name' | 'description' | 'keywords' | 'tags'>) =>
  [f.name, f.description ?? '', ...f.keywords, ...f.tags].join(' ').toLowerCase();

export class AddressBooksRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Creates the default book when there is none (first start); safe from several replicas at once. */
  async ensureDefault(): Promise<AddressBook> {
    const existing = await firstRow(this.pool, selectBooks().where('b.is_default', '=', true));
    if (existing) return toAddressBook(existing);
    return inTransaction(this.pool, async (client) => {
      const created = await firstRow(
        client,
        db
          .insertInto('address_books')
          .values({
            name: DEFAULT_BOOK.name,
            description: DEFAULT_BOOK.description,
            is_default: true,
            searchable_text: searchable({ ...DEFAULT_BOOK, keywords: [], tags: [] }),
          })
          .onConflict((oc) => oc.doNothing())
          .returning('id'),
      );
      const book = await this.getOn(client, created?.id ?? null);
      if (!book) throw new Error('the default address book could not be created');
      if (created)
        await enqueueEvent(pgExecutor(client), 'email.address_book.created', {
          id: book.id,
          name: book.name,
          isDefault: true,
          createdAt: book.createdAt,
        });
      return book;
    });
  }

  private async getOn(client: Queryable, id: number | null): Promise<AddressBook | null> {
    const row = await firstRow(
      client,
      id === null ? selectBooks().where('b.is_default', '=', true) : selectBooks().where('b.id', '=', id),
    );
    return row ? toAddressBook(row) : null;
  }

  async get(id: number): Promise<AddressBook | null> {
    const row = await firstRow(this.pool, selectBooks().where('b.id', '=', id), 'audience_book_get');
    return row ? toAddressBook(row) : null;
  }

  async getDefault(): Promise<AddressBook> {
    const row = await firstRow(this.pool, selectBooks().where('b.is_default', '=', true));
    return row ? toAddressBook(row) : this.ensureDefault();
  }

  /** Every book, the default first, then by name; `search` matches name, description, keywords, tags. */
  async list(search?: string): Promise<AddressBook[]> {
    const q = search?.trim().toLowerCase();
    const books = await rows(
      this.pool,
      selectBooks()
        .$if(Boolean(q), (qb) =>
          qb.where('b.searchable_text', 'like', `%${q?.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
        )
        .orderBy('b.is_default', 'desc')
        .orderBy((eb) => eb.fn('lower', ['b.name']))
        .orderBy('b.id'),
    );
    return books.map(toAddressBook);
  }

  async create(fields: BookFields): Promise<AddressBook> {
    try {
      return await inTransaction(this.pool, async (client) => {
        const created = await firstRow(
          client,
          db
            .insertInto('address_books')
            .values({
              name: fields.name,
              description: fields.description,
              color: fields.color,
              tags: fields.tags,
              keywords: fields.keywords,
              searchable_text: searchable(fields),
            })
            .returning('id'),
        );
        const book = await this.getOn(client, created?.id ?? -1);
        if (!book) throw new Error('created address book not found');
        await enqueueEvent(pgExecutor(client), 'email.address_book.created', {
          id: book.id,
          name: book.name,
          isDefault: false,
          createdAt: book.createdAt,
        });
        return book;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateBookNameError();
      throw err;
    }
  }

  /** Null when there is no such book. */
  async update(id: number, fields: Partial<BookFields>): Promise<AddressBook | null> {
    try {
      return await inTransaction(this.pool, async (client) => {
        const cur = await firstRow(
          client,
          db
            .selectFrom('address_books')
            .select(['name', 'description', 'keywords', 'tags'])
            .where('id', '=', id)
            .forNoKeyUpdate(),
        );
        if (!cur) return null;
        const next = {
          name: fields.name ?? cur.name,
          description: fields.description !== undefined ? fields.description : cur.description,
          keywords: fields.keywords ?? cur.keywords ?? [],
          tags: fields.tags ?? cur.tags ?? [],
        };
        await execute(
          client,
          db
            .updateTable('address_books')
            .set({
              name: next.name,
              description: next.description,
              ...(fields.color != null ? { color: fields.color } : {}),
              keywords: next.keywords,
              tags: next.tags,
              searchable_text: searchable(next),
              updated_at: sql`now()`,
            })
            .where('id', '=', id),
        );
        return this.getOn(client, id);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateBookNameError();
      throw err;
    }
  }

  /**
   * Deletes a book and all its contacts (the cascade trigger, set-based) with its
   * `email.address_book.deleted` event. Null when there is no such book; DefaultBookError for
   * the default book. An import running into the book must have been stopped first: the
   * delete waits for its transaction (it holds the book against deletion).
   */
  async delete(id: number): Promise<{ book: AddressBook; contactCount: number } | null> {
    try {
      return await inTransaction(this.pool, async (client) => {
        // A running import holds the book until it has rolled back; waiting longer means it is stuck.
        await client.query(`SET LOCAL lock_timeout = '20s'`);
        const locked = await firstRow(
          client,
          db.selectFrom('address_books').select('is_default').where('id', '=', id).forUpdate(),
        );
        if (!locked) return null;
        if (locked.is_default) throw new DefaultBookError();
        const book = await this.getOn(client, id);
        if (!book) return null;
        await execute(client, db.deleteFrom('address_books').where('id', '=', id));
        await enqueueEvent(pgExecutor(client), 'email.address_book.deleted', {
          id,
          name: book.name,
          contactCount: book.contactCount,
          deletedAt: new Date().toISOString(),
        });
        return { book, contactCount: book.contactCount };
      });
    } catch (err) {
      // The database's own guard (address_books_keep_default).
      if ((err as { code?: string }).code === '23001') throw new DefaultBookError();
      throw err;
    }
  }

  /**
   * Folds the committed count deltas into the books, in one statement (readers see either
   * before or after, never both). Deltas of deleted books are dropped. Returns rows folded.
   */
  async compactCounts(): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      // One compaction at a time across replicas; the others skip this round.
      const lock = await client.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [
        COMPACTION_LOCK,
      ]);
      if (!lock.rows[0]?.got) return 0;
      const { rows } = await client.query<{ n: string }>(`
        WITH moved AS (DELETE FROM "address_book_count_deltas" RETURNING *),
        per_book AS (
          SELECT "address_book_id", sum("contacts") AS c, sum("unsubscribed") AS u, sum("bounced") AS b, count(*) AS n
          FROM moved GROUP BY "address_book_id"
        ),
        folded AS (
          UPDATE "address_books" AS ab SET
            "contact_count" = ab."contact_count" + p.c,
            "unsubscribed_count" = ab."unsubscribed_count" + p.u,
            "bounced_count" = ab."bounced_count" + p.b
          FROM per_book p WHERE ab."id" = p."address_book_id"
        )
        SELECT coalesce(sum(n), 0) AS n FROM per_book`);
      return Number(rows[0]?.n ?? 0);
    });
  }
}

/** Advisory lock key of the count compaction (any constant unique in this database). */
const COMPACTION_LOCK = 0x6175_6431;
