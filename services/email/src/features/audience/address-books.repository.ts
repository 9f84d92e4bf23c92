import type { AddressBook } from '@parley/contracts';
import { enqueueEvent, inTransaction, isUniqueViolation, pgExecutor } from '@parley/kit';
import type pg from 'pg';
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

interface BookRow {
  id: number;
  name: string;
  description: string | null;
  color: string;
  is_default: boolean;
  contact_count: string;
  unsubscribed_count: string;
  bounced_count: string;
  tags: string[] | null;
  keywords: string[] | null;
  created_at: Date;
  updated_at: Date;
}

/** Book columns with exact counts (column + pending deltas). */
export const BOOK_SELECT = `
  SELECT b."id", b."name", b."description", b."color", b."is_default",
         b."contact_count" + coalesce(d.contacts, 0) AS contact_count,
         b."unsubscribed_count" + coalesce(d.unsubscribed, 0) AS unsubscribed_count,
         b."bounced_count" + coalesce(d.bounced, 0) AS bounced_count,
         b."tags", b."keywords", b."created_at", b."updated_at"
  FROM "address_books" b
  LEFT JOIN LATERAL (
    SELECT sum("contacts") AS contacts, sum("unsubscribed") AS unsubscribed, sum("bounced") AS bounced
    FROM "address_book_count_deltas" WHERE "address_book_id" = b."id"
  ) d ON true`;

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
    const existing = await this.pool.query<BookRow>(`${BOOK_SELECT} WHERE b."is_default"`);
    if (existing.rows[0]) return toAddressBook(existing.rows[0]);
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO "address_books" ("name", "description", "is_default", "searchable_text")
         VALUES ($1, $2, true, $3) ON CONFLICT DO NOTHING RETURNING "id"`,
        [
          DEFAULT_BOOK.name,
          DEFAULT_BOOK.description,
          searchable({ ...DEFAULT_BOOK, keywords: [], tags: [] }),
        ],
      );
      const created = rows[0];
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

  private async getOn(client: pg.ClientBase, id: number | null): Promise<AddressBook | null> {
    const { rows } = await client.query<BookRow>(
      id === null ? `${BOOK_SELECT} WHERE b."is_default"` : `${BOOK_SELECT} WHERE b."id" = $1`,
      id === null ? [] : [id],
    );
    return rows[0] ? toAddressBook(rows[0]) : null;
  }

  async get(id: number): Promise<AddressBook | null> {
    const { rows } = await this.pool.query<BookRow>({
      name: 'audience_book_get',
      text: `${BOOK_SELECT} WHERE b."id" = $1`,
      values: [id],
    });
    return rows[0] ? toAddressBook(rows[0]) : null;
  }

  async getDefault(): Promise<AddressBook> {
    const { rows } = await this.pool.query<BookRow>(`${BOOK_SELECT} WHERE b."is_default"`);
    return rows[0] ? toAddressBook(rows[0]) : this.ensureDefault();
  }

  /** Every book, the default first, then by name; `search` matches name, description, keywords, tags. */
  async list(search?: string): Promise<AddressBook[]> {
    const q = search?.trim().toLowerCase();
    const { rows } = await this.pool.query<BookRow>(
      `${BOOK_SELECT} ${q ? `WHERE b."searchable_text" LIKE $1` : ''}
       ORDER BY b."is_default" DESC, lower(b."name"), b."id"`,
      q ? [`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] : [],
    );
    return rows.map(toAddressBook);
  }

  async create(fields: BookFields): Promise<AddressBook> {
    try {
      return await inTransaction(this.pool, async (client) => {
        const { rows } = await client.query<{ id: number }>(
          `INSERT INTO "address_books" ("name", "description", "color", "tags", "keywords", "searchable_text")
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING "id"`,
          [fields.name, fields.description, fields.color, fields.tags, fields.keywords, searchable(fields)],
        );
        const book = await this.getOn(client, rows[0]?.id ?? -1);
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
        const current = await client.query<{
          name: string;
          description: string | null;
          keywords: string[] | null;
          tags: string[] | null;
        }>(
          `SELECT "name", "description", "keywords", "tags" FROM "address_books" WHERE "id" = $1 FOR NO KEY UPDATE`,
          [id],
        );
        const cur = current.rows[0];
        if (!cur) return null;
        const next = {
          name: fields.name ?? cur.name,
          description: fields.description !== undefined ? fields.description : cur.description,
          keywords: fields.keywords ?? cur.keywords ?? [],
          tags: fields.tags ?? cur.tags ?? [],
        };
        await client.query(
          `UPDATE "address_books" SET "name" = $2, "description" = $3, "color" = coalesce($4, "color"),
             "keywords" = $5, "tags" = $6, "searchable_text" = $7, "updated_at" = now()
           WHERE "id" = $1`,
          [id, next.name, next.description, fields.color ?? null, next.keywords, next.tags, searchable(next)],
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
        const locked = await client.query<{ is_default: boolean }>(
          `SELECT "is_default" FROM "address_books" WHERE "id" = $1 FOR UPDATE`,
          [id],
        );
        if (!locked.rows[0]) return null;
        if (locked.rows[0].is_default) throw new DefaultBookError();
        const book = await this.getOn(client, id);
        if (!book) return null;
        await client.query(`DELETE FROM "address_books" WHERE "id" = $1`, [id]);
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
