import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CONTACT_SEARCH_COUNT_CAP, type Contact, type ContactStatus } from '@parley/contracts';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { searchLength, searchPattern } from '../domain/contacts.ts';
import { BOOK_SELECT } from './address-books.repository.ts';

/**
 * Contacts: pages and contains-searches that stay fast at a million rows, delete, and the
 * streamed CSV export. Newest first is `id DESC` (ids grow with time), which the primary key
 * and the (book, id) index serve without sorting.
 */

export interface ContactRow {
  id: string;
  address_book_id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  phone: string | null;
  website: string | null;
  address: string | null;
  category: string | null;
  rating: number | null;
  review_count: number | null;
  description: string | null;
  source: string;
  status: ContactStatus;
  tags: string[] | null;
  subscribed_at: Date | null;
  unsubscribed_at: Date | null;
  last_contacted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const CONTACT_COLUMNS = `c."id", c."address_book_id", c."email", c."first_name", c."last_name", c."company",
  c."phone", c."website", c."address", c."category", c."rating", c."review_count", c."description", c."source",
  c."status", c."tags", c."subscribed_at", c."unsubscribed_at", c."last_contacted_at", c."created_at", c."updated_at"`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toContact(r: ContactRow): Contact {
  return {
    id: Number(r.id),
    addressBookId: r.address_book_id,
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
    company: r.company,
    phone: r.phone,
    website: r.website,
    address: r.address,
    category: r.category,
    rating: r.rating,
    reviewCount: r.review_count,
    description: r.description,
    source: r.source,
    status: r.status,
    tags: r.tags ?? [],
    subscribedAt: iso(r.subscribed_at),
    unsubscribedAt: iso(r.unsubscribed_at),
    lastContactedAt: iso(r.last_contacted_at),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export interface ContactQuery {
  limit: number;
  offset: number;
  q?: string | undefined;
  status?: ContactStatus | undefined;
  addressBookId?: number | undefined;
}

export interface ContactPage {
  contacts: Contact[];
  hasMore: boolean;
  total: number;
  totalExact: boolean;
}

/**
 * A search first looks among the newest PROBE_WINDOW contacts of the filtered set: a term
 * common enough to fill the page there is answered from it (reading at most that many rows,
 * newest first). Rarer terms go to the trigram index. Both bound the work per request.
 */
const PROBE_WINDOW = 20_000;

export class ContactsRepository {
  constructor(private readonly pool: pg.Pool) {}

  async get(id: number): Promise<Contact | null> {
    const { rows } = await this.pool.query<ContactRow>({
      name: 'audience_contact_get',
      text: `SELECT ${CONTACT_COLUMNS} FROM "email_contacts" c WHERE c."id" = $1`,
      values: [id],
    });
    return rows[0] ? toContact(rows[0]) : null;
  }

  /** Deletes one contact (the book's count follows through the trigger). False when absent. */
  async delete(id: number): Promise<boolean> {
    const { rowCount } = await this.pool.query({
      name: 'audience_contact_delete',
      text: `DELETE FROM "email_contacts" WHERE "id" = $1`,
      values: [id],
    });
    return (rowCount ?? 0) > 0;
  }

  async list(query: ContactQuery): Promise<ContactPage> {
    const pattern = searchPattern(query.q);
    const where: string[] = [];
    const values: unknown[] = [];
    if (query.addressBookId !== undefined) {
      values.push(query.addressBookId);
      where.push(`c."address_book_id" = $${values.length}`);
    }
    if (query.status) {
      values.push(query.status);
      where.push(`c."status" = $${values.length}::"ContactStatus"`);
    }
    const filters = where.join(' AND ');
    const need = query.offset + query.limit + 1;

    if (!pattern) {
      const page = await this.pool.query<ContactRow>(
        `SELECT ${CONTACT_COLUMNS} FROM "email_contacts" c ${filters ? `WHERE ${filters}` : ''}
         ORDER BY c."id" DESC LIMIT ${query.limit + 1} OFFSET ${query.offset}`,
        values,
      );
      const total = await this.exactTotal(query);
      return this.page(page.rows, query.limit, total, true);
    }

    values.push(pattern);
    const like = `c."search_text" LIKE $${values.length}`;
    const matchWhere = filters ? `${filters} AND ${like}` : like;
    const short = searchLength(pattern) < 3;
    let rows: ContactRow[] | null = null;
    let capped = false;
    if (!short) {
      // The newest rows first: enough matches there answer the page (and the count) without the index.
      const probe = await this.pool.query<ContactRow>(
        `SELECT ${CONTACT_COLUMNS} FROM (
           SELECT * FROM "email_contacts" c ${filters ? `WHERE ${filters}` : ''}
           ORDER BY c."id" DESC LIMIT ${PROBE_WINDOW}
         ) c WHERE ${like} ORDER BY c."id" DESC LIMIT ${Math.max(need, CONTACT_SEARCH_COUNT_CAP + 1)}`,
        values,
      );
      if (probe.rows.length >= need) rows = probe.rows.slice(query.offset, need);
      capped = probe.rows.length > CONTACT_SEARCH_COUNT_CAP;
    }
    if (rows === null && !short) {
      // Rarer terms: the trigram index finds every match, and `id + 0` keeps the planner from
      // walking the whole primary key instead. Sorting needs every match, so the same scan
      // counts them (a window count): no second pass through the index for the total.
      const found = await this.pool.query<ContactRow & { matches: string }>(
        `SELECT ${CONTACT_COLUMNS}, count(*) OVER () AS matches FROM "email_contacts" c WHERE ${matchWhere}
         ORDER BY c."id" + 0 DESC LIMIT ${query.limit + 1} OFFSET ${query.offset}`,
        values,
      );
      const first = found.rows[0];
      if (first) {
        const n = Number(first.matches);
        return this.page(
          found.rows,
          query.limit,
          Math.min(n, CONTACT_SEARCH_COUNT_CAP),
          n <= CONTACT_SEARCH_COUNT_CAP,
        );
      }
      rows = found.rows;
    }
    if (rows === null) {
      // A term of fewer than three characters has no trigram: newest first, it is common enough
      // to fill a page quickly.
      const found = await this.pool.query<ContactRow>(
        `SELECT ${CONTACT_COLUMNS} FROM "email_contacts" c WHERE ${matchWhere}
         ORDER BY c."id" DESC LIMIT ${query.limit + 1} OFFSET ${query.offset}`,
        values,
      );
      rows = found.rows;
    }
    if (capped) return this.page(rows, query.limit, CONTACT_SEARCH_COUNT_CAP, false);
    const counted = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM "email_contacts" c WHERE ${matchWhere} LIMIT ${CONTACT_SEARCH_COUNT_CAP + 1}) m`,
      values,
    );
    const n = Number(counted.rows[0]?.n ?? 0);
    return this.page(rows, query.limit, Math.min(n, CONTACT_SEARCH_COUNT_CAP), n <= CONTACT_SEARCH_COUNT_CAP);
  }

  private page(rows: ContactRow[], limit: number, total: number, exact: boolean): ContactPage {
    return {
      contacts: rows.slice(0, limit).map(toContact),
      hasMore: rows.length > limit,
      total,
      totalExact: exact,
    };
  }

  /** The exact number of contacts matching book and status, from the maintained counts. */
  private async exactTotal(query: ContactQuery): Promise<number> {
    const { rows } = await this.pool.query<{
      contact_count: string;
      unsubscribed_count: string;
      bounced_count: string;
    }>(
      `SELECT coalesce(sum(contact_count), 0) AS contact_count, coalesce(sum(unsubscribed_count), 0) AS unsubscribed_count,
              coalesce(sum(bounced_count), 0) AS bounced_count
       FROM (${BOOK_SELECT} ${query.addressBookId !== undefined ? 'WHERE b."id" = $1' : ''}) t`,
      query.addressBookId !== undefined ? [query.addressBookId] : [],
    );
    const r = rows[0];
    const all = Number(r?.contact_count ?? 0);
    const unsubscribed = Number(r?.unsubscribed_count ?? 0);
    const bounced = Number(r?.bounced_count ?? 0);
    switch (query.status) {
      case 'active':
        return all - unsubscribed - bounced;
      case 'unsubscribed':
        return unsubscribed;
      case 'bounced':
        return bounced;
      default:
        return all;
    }
  }

  /**
   * Streams a book's contacts as CSV into `out` (PostgreSQL's COPY, so memory stays flat):
   * a UTF-8 BOM for spreadsheets, every cell quoted, and any cell a spreadsheet would run as
   * a formula (starting with = + - @ tab or CR) prefixed with an apostrophe (OWASP CSV
   * injection). Columns are the import's, so an export re-imports as it was.
   */
  async exportBook(bookId: number, out: Writable): Promise<void> {
    const client = await this.pool.connect();
    let failed = false;
    try {
      const safe = (col: string) =>
        `CASE WHEN ${col} ~ '^[=+\\-@\\t\\r]' THEN '''' || ${col} ELSE ${col} END`;
      const copy = client.query(
        copyTo(`COPY (
          SELECT ${safe('c."email"')} AS "Email", ${safe('c."first_name"')} AS "First Name",
                 ${safe('c."last_name"')} AS "Last Name", ${safe('c."company"')} AS "Company",
                 ${safe('c."phone"')} AS "Phone", ${safe('c."address"')} AS "Address",
                 ${safe('c."category"')} AS "Category", ${safe('c."website"')} AS "Website",
                 c."rating" AS "Rating", c."review_count" AS "Reviews",
                 ${safe('c."description"')} AS "Description", array_to_string(c."tags", ', ') AS "Tags",
                 c."status" AS "Status", to_char(c."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "Added",
                 to_char(c."unsubscribed_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "Unsubscribed"
          FROM "email_contacts" c WHERE c."address_book_id" = ${Number(bookId)} ORDER BY c."id"
        ) TO STDOUT WITH (FORMAT csv, HEADER true, FORCE_QUOTE *)`),
      );
      out.write('\uFEFF');
      await pipeline(copy, out);
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // A COPY cut short (the client went away) leaves the connection mid-protocol: drop it.
      client.release(failed ? true : undefined);
    }
  }
}
