import type { Writable } from 'node:stream';
import {
  CONTACT_SEARCH_COUNT_CAP,
  type Contact,
  type ContactAttributes,
  type ContactStatus,
} from '@parley/contracts';
import { inTransaction } from '@parley/kit';
import { sql } from 'kysely';
import type pg from 'pg';
import { copyCsv, spreadsheetSafe } from '../../shared/csv-export.ts';
import { db, execute, firstRow, rows } from '../../shared/sql.ts';
import { BOOK_SELECT } from './address-books.repository.ts';
import type { ContactChanges } from './domain/contact-edit.ts';
import { emailKey, searchPattern, searchTerm } from './domain/contacts.ts';
import { selectiveTrigrams, TrigramSample } from './domain/search-trigrams.ts';

/**
 * SQL text, not `db` (docs/adr/0066-typed-sql-with-kysely.md): these pages and searches are
 * tuned at 1,000,000 contacts, and a typed version could not yet be measured apart from them
 * on this machine; the row type is written beside them.
 *
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
  custom_fields: ContactAttributes | null;
  subscribed_at: Date | null;
  unsubscribed_at: Date | null;
  last_contacted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const CONTACT_COLUMNS = `c."id", c."address_book_id", c."email", c."first_name", c."last_name", c."company",
  c."phone", c."website", c."address", c."category", c."rating", c."review_count", c."description", c."source",
  c."status", c."tags", c."custom_fields", c."subscribed_at", c."unsubscribed_at", c."last_contacted_at", c."created_at", c."updated_at"`;

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
    attributes: r.custom_fields ?? {},
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
 * A search for a common term (every trigram shared by many contacts) first looks among the
 * newest PROBE_WINDOW contacts of the filtered set: enough matches there answer the page (and
 * a capped count) reading at most that many rows, newest first. Rare terms go to the trigram
 * index, asked only for their rarest trigrams (domain/search-trigrams.ts). Both bound the work
 * per request.
 */
const PROBE_WINDOW = 20_000;
/** Contacts sampled for the trigram statistics, and how long a sample serves. */
const SAMPLE_ROWS = 10_000;
const SAMPLE_TTL_MS = 60_000;
/** Queue entries the search indexer takes per transaction. */
const INDEX_BATCH = 10_000;
/**
 * While the indexer catches up on a large queue (a fresh import of a million contacts), a
 * search reads the contacts themselves rather than joining every queued id: measured at
 * 1,000,000 contacts all queued, 0.3 s against 4.7 s. The join costs about 16 times what a
 * scan costs per contact, so the scan wins once the queue holds more than a sixteenth of the
 * contacts (and at least SCAN_QUEUED_MIN entries).
 */
const SCAN_QUEUED_MIN = 5_000;
const SCAN_QUEUED_SHARE = 16;

/** The search queue as a search sees it: nothing queued, a few (joined), or many (scan). */
export type SearchQueueState = 'empty' | 'some' | 'many';

export class ContactsRepository {
  private sample: TrigramSample | null = null;
  private sampledAt = -Infinity;
  private sampling: Promise<unknown> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    /** Fewest queued entries that make a search scan the contacts (tests lower it). */
    private readonly scanQueuedMin = SCAN_QUEUED_MIN,
  ) {}

  async get(id: number): Promise<Contact | null> {
    const { rows } = await this.pool.query<ContactRow>({
      name: 'audience_contact_get',
      text: `SELECT ${CONTACT_COLUMNS} FROM "email_contacts" c WHERE c."id" = $1`,
      values: [id],
    });
    return rows[0] ? toContact(rows[0]) : null;
  }

  /**
   * Applies an admin's edit (domain/contact-edit.ts); null when the contact is gone. A new
   * address that is on the suppression list takes the status the list gives it, in the same
   * statement, so an edit cannot make a suppressed address sendable. The search index follows
   * through the update trigger; a duplicate address in the book fails with PostgreSQL's 23505.
   */
  async update(id: number, changes: ContactChanges): Promise<Contact | null> {
    const { custom_fields: attributes, ...columns } = changes;
    return inTransaction(this.pool, async (client) => {
      const contact = await this.write(client, id, columns, attributes);
      const keys = Object.entries(attributes ?? {});
      if (contact && keys.length)
        await execute(
          client,
          db
            .insertInto('email_contact_attribute_keys')
            .values(keys.map(([key, v]) => ({ key, kind: typeof v === 'string' ? 'text' : typeof v })))
            .onConflict((oc) => oc.column('key').doNothing()),
        );
      return contact;
    });
  }

  /** The attribute names in use, by name. */
  async attributeKeys(): Promise<Array<{ key: string; kind: 'text' | 'number' | 'boolean' }>> {
    const found = await rows(
      this.pool,
      db.selectFrom('email_contact_attribute_keys').select(['key', 'kind']).orderBy('key'),
    );
    return found as Array<{ key: string; kind: 'text' | 'number' | 'boolean' }>;
  }

  private async write(
    client: pg.PoolClient,
    id: number,
    columns: Omit<ContactChanges, 'custom_fields'>,
    attributes: ContactAttributes | undefined,
  ): Promise<Contact | null> {
    const row = await firstRow(
      client,
      db
        .updateTable('email_contacts')
        .set({
          ...columns,
          ...(attributes !== undefined && { custom_fields: sql`${JSON.stringify(attributes)}::jsonb` }),
          ...(columns.email !== undefined && {
            status: sql<ContactStatus>`coalesce((SELECT CASE s."reason" WHEN 'bounced' THEN 'bounced' ELSE 'unsubscribed' END::"ContactStatus"
              FROM "email_suppressions" s WHERE s."address" = ${emailKey(columns.email)}), "email_contacts"."status")`,
          }),
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', String(id))
        .returningAll(),
    );
    return row ? toContact(row as unknown as ContactRow) : null;
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
    const term = searchTerm(query.q);
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

    if (!term) {
      const page = await this.pool.query<ContactRow>(
        `SELECT ${CONTACT_COLUMNS} FROM "email_contacts" c ${filters ? `WHERE ${filters}` : ''}
         ORDER BY c."id" DESC LIMIT ${query.limit + 1} OFFSET ${query.offset}`,
        values,
      );
      const total = await this.exactTotal(query);
      return this.page(page.rows, query.limit, total, true);
    }

    const and = (cond: string) => (filters ? `${filters} AND ${cond}` : cond);
    const sample = term.length < 3 ? null : this.searchSample();
    const rare = sample ? selectiveTrigrams(term, sample) : null;
    if (rare) {
      // The rarest trigrams find a superset of the matches through the index; the whole term
      // is then checked on those rows alone.
      const params = rare.map((t) => {
        values.push(`%${t}%`);
        return `$${values.length}`;
      });
      values.push(term);
      const exact = (alias: string) => `strpos(${alias}."search_text", $${values.length}) > 0`;
      const trigrams = (alias: string) => params.map((p) => `${alias}."search_text" LIKE ${p}`).join(' AND ');
      const match = await this.viaIndex((a) => `${exact(a)} AND ${trigrams(a)}`, exact('c'));
      return this.indexed(query, and(match), values);
    }

    values.push(searchPattern(term));
    const pattern = `$${values.length}`;
    const like = `c."search_text" LIKE ${pattern}`;
    if (term.length < 3) {
      // A term of fewer than three characters has no trigram: newest first, it is common enough
      // to fill a page quickly.
      const found = await this.pool.query<ContactRow>(
        `SELECT ${CONTACT_COLUMNS} FROM "email_contacts" c WHERE ${and(like)}
         ORDER BY c."id" DESC LIMIT ${query.limit + 1} OFFSET ${query.offset}`,
        values,
      );
      return this.counted(found.rows, query, and(like), values);
    }

    // A common term: the newest rows first. Only the page leaves the database, with the number
    // of matches found in the window (a window count over at most the cap plus one).
    const need = query.offset + query.limit + 1;
    const probe = await this.pool.query<ContactRow & { matches: string }>(
      `SELECT ${CONTACT_COLUMNS}, count(*) OVER () AS matches FROM (
         SELECT * FROM (
           SELECT * FROM "email_contacts" c ${filters ? `WHERE ${filters}` : ''}
           ORDER BY c."id" DESC LIMIT ${PROBE_WINDOW}
         ) c WHERE ${like} ORDER BY c."id" DESC LIMIT ${Math.max(need, CONTACT_SEARCH_COUNT_CAP + 1)}
       ) c ORDER BY c."id" DESC LIMIT ${query.limit + 1} OFFSET ${query.offset}`,
      values,
    );
    const inWindow = Number(probe.rows[0]?.matches ?? 0);
    if (inWindow >= need) {
      // Beyond the cap the window's count is the answer; below it, older matches may add more.
      if (inWindow > CONTACT_SEARCH_COUNT_CAP) return this.capped(probe.rows, query, inWindow);
      return this.counted(probe.rows, query, and(like), values);
    }
    // Common trigrams, yet few matches among the newest: the whole index, every trigram.
    const match = await this.viaIndex((a) => `${a}."search_text" LIKE ${pattern}`, like);
    return this.indexed(query, and(match), values);
  }

  /**
   * The condition for contacts the search index finds with `indexCond` (written for an alias:
   * on the index rows, `s`, the whole term is checked before any contact is read) and that
   * pass `exact` (on the contact, `c`: the contact's own text decides). A contact whose index
   * row is out of date is queued for the index; queued contacts (written since the indexer
   * last ran: a fresh import, a re-import that renamed them) are checked directly, so a search
   * finds every committed contact. The queue is usually empty, and then the plan is the
   * index's alone. While the queue is large, the contacts are scanned instead, with the same
   * condition on their own text (it implies `exact`, and uses every parameter).
   */
  private async viaIndex(indexCond: (alias: string) => string, exact: string): Promise<string> {
    const queue = await this.searchQueue();
    if (queue === 'many') return indexCond('c');
    const queued =
      queue === 'some' ? ` UNION ALL SELECT p."contact_id" FROM "email_contact_search_pending" p` : '';
    return `c."id" IN (SELECT s."contact_id" FROM "email_contact_search" s WHERE ${indexCond('s')}${queued}) AND ${exact}`;
  }

  /**
   * Whether contacts wait for the search index, and whether so many that a search should scan
   * the contacts (more than a sixteenth of them, by the planner's estimate of the table).
   * Both checks walk the queue's key: a queue just drained holds dead rows until vacuumed,
   * and the second runs only when the first found an entry, counting at most that many.
   */
  async searchQueue(): Promise<SearchQueueState> {
    const { rows } = await this.pool.query<{ queued: boolean }>({
      name: 'audience_search_queued',
      text: `SELECT EXISTS (SELECT 1 FROM "email_contact_search_pending" ORDER BY "seq" LIMIT 1) AS "queued"`,
    });
    if (!rows[0]?.queued) return 'empty';
    const many = await this.pool.query<{ many: boolean }>({
      name: 'audience_search_queued_many',
      text: `SELECT EXISTS (
               SELECT 1 FROM "email_contact_search_pending" ORDER BY "seq"
               OFFSET (SELECT greatest($1::float8, c.reltuples / $2)::bigint FROM pg_class c
                       WHERE c.oid = 'email_contacts'::regclass)
               LIMIT 1
             ) AS "many"`,
      values: [this.scanQueuedMin, SCAN_QUEUED_SHARE],
    });
    return many.rows[0]?.many ? 'many' : 'some';
  }

  /**
   * Indexes the contacts queued for search, a batch per transaction, until the queue is empty;
   * returns how many queue entries it took. Replicas share the queue (SKIP LOCKED). A contact
   * written while its batch runs was queued again by its own transaction (an entry this batch
   * cannot see), so the newest text is always indexed in the end. A contact gone by then is not
   * indexed (a delete committed while the batch ran can leave its row behind: searches only
   * return rows that are still contacts). Stops between batches once `signal` is aborted.
   */
  async indexQueued(signal?: AbortSignal, batch = INDEX_BATCH): Promise<number> {
    let taken = 0;
    while (!signal?.aborted) {
      const { rows } = await this.pool.query<{ taken: number }>({
        name: 'audience_search_index',
        // The batch's keys are gathered once into arrays (InitPlans) and looked up by key, a
        // plan linear in the batch whatever the statistics say. The semi-joins this replaced
        // could be planned quadratic: one batch, after a million-row import, ran CPU-bound for
        // over nine minutes.
        text: `WITH taken AS (
                 DELETE FROM "email_contact_search_pending" WHERE "seq" = ANY (ARRAY(
                   SELECT "seq" FROM "email_contact_search_pending" ORDER BY "seq" LIMIT $1 FOR UPDATE SKIP LOCKED
                 )) RETURNING "contact_id"
               ), written AS (
                 INSERT INTO "email_contact_search" AS s ("contact_id", "search_text")
                 SELECT c."id", c."search_text" FROM "email_contacts" c
                 WHERE c."id" = ANY (ARRAY(SELECT "contact_id" FROM taken))
                 ON CONFLICT ("contact_id") DO UPDATE SET "search_text" = excluded."search_text"
                   WHERE s."search_text" IS DISTINCT FROM excluded."search_text"
               )
               SELECT count(*)::int AS "taken" FROM taken`,
        values: [batch],
      });
      const n = rows[0]?.taken ?? 0;
      taken += n;
      if (n < batch) break;
    }
    // A large queue drained leaves its pages full of dead rows: vacuum them away now rather
    // than when autovacuum comes round (every search checks the queue).
    if (taken >= batch) await this.pool.query('VACUUM "email_contact_search_pending"');
    return taken;
  }

  /** How many queue entries wait for the search indexer (diagnostics, benchmarks, tests). */
  async queuedForIndex(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS "n" FROM "email_contact_search_pending"`,
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Every match through the trigram index, newest first, counted in the same scan (a window
   * count: sorting needs every match anyway). `id + 0` keeps the planner from walking the whole
   * primary key instead.
   */
  private async indexed(query: ContactQuery, match: string, values: unknown[]): Promise<ContactPage> {
    const found = await this.pool.query<ContactRow & { matches: string }>(
      `SELECT ${CONTACT_COLUMNS}, count(*) OVER () AS matches FROM "email_contacts" c WHERE ${match}
       ORDER BY c."id" + 0 DESC LIMIT ${query.limit + 1} OFFSET ${query.offset}`,
      values,
    );
    const first = found.rows[0];
    if (first) return this.capped(found.rows, query, Number(first.matches));
    // Past the last match (or none at all): the count alone.
    return this.counted(found.rows, query, match, values);
  }

  /** A page with the number of all matches, counted up to the cap plus one. */
  private async counted(
    rows: ContactRow[],
    query: ContactQuery,
    match: string,
    values: unknown[],
  ): Promise<ContactPage> {
    const counted = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM "email_contacts" c WHERE ${match} LIMIT ${CONTACT_SEARCH_COUNT_CAP + 1}) m`,
      values,
    );
    return this.capped(rows, query, Number(counted.rows[0]?.n ?? 0));
  }

  /** A page whose total of `matches` is shown up to the cap (exact up to it, "more than" beyond). */
  private capped(rows: ContactRow[], query: ContactQuery, matches: number): ContactPage {
    return this.page(
      rows,
      query.limit,
      Math.min(matches, CONTACT_SEARCH_COUNT_CAP),
      matches <= CONTACT_SEARCH_COUNT_CAP,
    );
  }

  /**
   * The trigram statistics of the search texts, from a sample refreshed in the background once
   * it is a minute old (a Bernoulli sample of about SAMPLE_ROWS contacts: 30 ms at a million).
   * Null until the first sample is in: searches then read every trigram, slower, same answers.
   */
  private searchSample(): TrigramSample | null {
    if (!this.sampling && performance.now() - this.sampledAt > SAMPLE_TTL_MS) {
      this.sampling = this.refreshSearchSample()
        // A failed sample leaves the last one (or none) in use; the next search tries again.
        .catch(() => null)
        .finally(() => {
          this.sampling = null;
        });
    }
    return this.sample;
  }

  /** Takes a new sample of the search texts now (the background refresh; tests call it). */
  async refreshSearchSample(): Promise<TrigramSample> {
    const total = await this.exactTotal({ limit: 0, offset: 0 });
    const percent = Math.min(100, (SAMPLE_ROWS / Math.max(total, 1)) * 100);
    const { rows } = await this.pool.query<{ search_text: string }>(
      `SELECT "search_text" FROM "email_contacts" TABLESAMPLE BERNOULLI ($1)`,
      [percent],
    );
    this.sample = new TrigramSample(
      rows.map((r) => r.search_text),
      total,
    );
    this.sampledAt = performance.now();
    return this.sample;
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
    const safe = spreadsheetSafe;
    await copyCsv(
      this.pool,
      () => `
          SELECT ${safe('c."email"')} AS "Email", ${safe('c."first_name"')} AS "First Name",
                 ${safe('c."last_name"')} AS "Last Name", ${safe('c."company"')} AS "Company",
                 ${safe('c."phone"')} AS "Phone", ${safe('c."address"')} AS "Address",
                 ${safe('c."category"')} AS "Category", ${safe('c."website"')} AS "Website",
                 c."rating" AS "Rating", c."review_count" AS "Reviews",
                 ${safe('c."description"')} AS "Description", array_to_string(c."tags", ', ') AS "Tags",
                 c."status" AS "Status", to_char(c."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "Added",
                 to_char(c."unsubscribed_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "Unsubscribed"
          FROM "email_contacts" c WHERE c."address_book_id" = ${Number(bookId)} ORDER BY c."id"`,
      out,
    );
  }
}
