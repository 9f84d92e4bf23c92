import { type ImportJob, type ImportKind, type ImportMergeMode, importSummary } from '@parley/contracts';
import { enqueueEvent, pgExecutor } from '@parley/kit';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { BOOK_SELECT } from './address-books.repository.ts';
import { STAGING_COLUMNS } from './domain/import.ts';
import { JOB_COLUMNS, type JobRow, type Progress, stagingPrefix, toImportJob } from './imports.repository.ts';

/**
 * The database side of an import, each on its own connection: the import's transaction
 * (ImportSession: merges the staged batches into email_contacts with one set-based upsert
 * each, and ends the job), the stager (Stager: COPYs each batch into a staging table) and the
 * preview (PreviewSession: counts what each merge choice would do, then rolls back). The import
 * is ONE transaction, so an import that fails, is cancelled or whose process dies changes
 * nothing. The jobs' rows are in imports.repository.ts.
 */

/**
 * Opens a dedicated connection (never a pooled one: it lives as long as the upload) named
 * `applicationName` and begins its transaction: checks the book exists with `bookCheck` (its
 * SELECT by id, with the lock the caller needs), lets a batch's sort stay in memory, then runs
 * `prepare`. A failure on the way rolls back and closes the connection.
 */
async function openBookTransaction(
  databaseUrl: string,
  opts: {
    applicationName: string;
    bookId: number;
    bookCheck: string;
    prepare?: (client: pg.Client) => Promise<void>;
  },
): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: opts.applicationName });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('BEGIN');
    const book = await client.query(opts.bookCheck, [opts.bookId]);
    if (!book.rowCount) throw new ImportBookGoneError();
    // Sorting a batch for the merge should stay in memory.
    await client.query(`SET LOCAL work_mem = '64MB'`);
    await opts.prepare?.(client);
  } catch (err) {
    await endTransaction(client);
    throw err;
  }
  return client;
}

/** Rolls back (if still open) and closes the connection. */
async function endTransaction(client: pg.Client): Promise<void> {
  await client.query('ROLLBACK').catch(() => {});
  await client.end().catch(() => {});
}

export interface MergeCounts {
  inserted: number;
  updated: number;
}

/**
 * One import's transaction on a dedicated connection (never a pooled one: it lives as long
 * as the upload). `stage` COPYs a batch of staging lines; `merge` upserts the staged batch;
 * `commit` ends the job as completed with its event, atomically with the contacts.
 */
export class ImportSession {
  private constructor(
    private readonly client: pg.Client,
    private readonly bookId: number,
    private readonly source: string,
  ) {}

  static async open(databaseUrl: string, bookId: number, source: string): Promise<ImportSession> {
    const client = await openBookTransaction(databaseUrl, {
      applicationName: 'parley-email-import',
      bookId,
      // The book stays until this transaction ends (deleting it waits, after cancelling us).
      bookCheck: 'SELECT 1 FROM "address_books" WHERE "id" = $1 FOR KEY SHARE',
    });
    return new ImportSession(client, bookId, source);
  }

  /**
   * Upserts the staged batch into the book: the first row of each address in the batch; a
   * new address becomes a contact (unsubscribed or bounced when it is on the suppression
   * list); an address already in the book is merged by `mode` (MERGE_SQL: never its status),
   * unless this import already wrote it (an earlier duplicate in the file: skipped).
   */
  async merge(table: string, mode: ImportMergeMode): Promise<MergeCounts> {
    const { rows } = await this.client.query<{ inserted: string; updated: string }>(
      `WITH src AS (
         SELECT DISTINCT ON ("email_key") * FROM ${table} ORDER BY "email_key", "line"
       ), written AS (
         INSERT INTO "email_contacts" AS c ("address_book_id", "email", "first_name", "last_name", "company", "phone",
           "website", "address", "category", "rating", "review_count", "description", "tags", "source", "status",
           "subscribed_at", "unsubscribed_at")
         SELECT $1, s."email", s."first_name", s."last_name", s."company", s."phone", s."website", s."address",
           s."category", s."rating", s."review_count", s."description", coalesce(s."tags", '{}'), $2,
           CASE WHEN sp."reason" IS NULL THEN 'active' WHEN sp."reason" = 'bounced' THEN 'bounced' ELSE 'unsubscribed' END::"ContactStatus",
           CASE WHEN sp."reason" IS NULL THEN now() END,
           sp."created_at"
         FROM src s LEFT JOIN "email_suppressions" sp ON sp."address" = s."email_key"
         -- ids follow the file's order, so the newest-first list shows the file's end first
         ORDER BY s."line"
         ${MERGE_SQL[mode]}
         RETURNING (c."xmax" = 0) AS inserted
       )
       SELECT count(*) FILTER (WHERE inserted) AS inserted, count(*) FILTER (WHERE NOT inserted) AS updated FROM written`,
      [this.bookId, this.source],
    );
    // The batch is merged: its table goes with this transaction (kept if it rolls back, for the cleanup).
    await this.client.query(`DROP TABLE ${table}`);
    return { inserted: Number(rows[0]?.inserted ?? 0), updated: Number(rows[0]?.updated ?? 0) };
  }

  /**
   * Marks the job completed (with its final counts), bumps the book's last-updated date,
   * enqueues `email.import.completed` and commits: all of it happens, or none.
   */
  async commit(jobId: string, p: Progress, kind: ImportKind): Promise<ImportJob> {
    const message = importSummary(p);
    const { rows } = await this.client.query<JobRow>(
      `UPDATE "email_imports" SET "status" = 'completed', "phase" = 'done', "message" = $2, "finished_at" = now(),
         "bytes_received" = $3, "rows_read" = $4, "imported" = $5, "updated" = $6, "skipped" = $7,
         "error_count" = $8, "errors" = $9::jsonb, "encoding" = $10, "heartbeat_at" = now()
       WHERE "id" = $1 AND "status" = 'running' AND NOT "cancel_requested" RETURNING ${JOB_COLUMNS}`,
      [
        jobId,
        message,
        p.bytesReceived,
        p.rowsRead,
        p.imported,
        p.updated,
        p.skipped,
        p.errorCount,
        JSON.stringify(p.errors),
        p.encoding,
      ],
    );
    const row = rows[0];
    if (!row) throw new ImportCancelledError();
    if (p.imported || p.updated)
      await this.client.query(`UPDATE "address_books" SET "updated_at" = now() WHERE "id" = $1`, [
        this.bookId,
      ]);
    const book = await this.client.query<{ contact_count: string }>(`${BOOK_SELECT} WHERE b."id" = $1`, [
      this.bookId,
    ]);
    const job = toImportJob(row);
    await enqueueEvent(pgExecutor(this.client), 'email.import.completed', {
      importId: jobId,
      addressBookId: this.bookId,
      kind,
      rowsRead: p.rowsRead,
      imported: p.imported,
      updated: p.updated,
      skipped: p.skipped,
      errorCount: p.errorCount,
      contactCount: Number(book.rows[0]?.contact_count ?? 0),
      completedAt: job.finishedAt ?? new Date().toISOString(),
    });
    await this.client.query('COMMIT');
    return job;
  }

  /** Rolls back (if still open) and closes the connection. */
  close(): Promise<void> {
    return endTransaction(this.client);
  }
}

/** The contact fields an import writes (status and the address itself never change). */
const TEXT_FIELDS = [
  'first_name',
  'last_name',
  'company',
  'phone',
  'website',
  'address',
  'category',
  'description',
] as const;
const NUMBER_FIELDS = ['rating', 'review_count'] as const;
const FIELDS = [...TEXT_FIELDS, ...NUMBER_FIELDS];

/** An existing contact's value, with an empty text counted as no value. */
const had = (f: string, old: string) =>
  (TEXT_FIELDS as readonly string[]).includes(f) ? `nullif(${old}."${f}", '')` : `${old}."${f}"`;
const tagsAdded = (neu: string, old: string) =>
  `NOT (coalesce(${neu}."tags", '{}') <@ coalesce(${old}."tags", '{}'))`;

/**
 * Whether merging `neu` (the file's row) into `old` (the contact) changes it under `mode`;
 * `replaced`: whether it would lose a value it has (only overwrite can). Set-based: the same
 * conditions serve the import's upsert and the preview's count.
 */
export function mergeChanges(mode: ImportMergeMode | 'replaced', neu: string, old: string): string {
  if (mode === 'skip') return 'false';
  const each = FIELDS.map((f) =>
    mode === 'fill'
      ? `(${had(f, old)} IS NULL AND ${neu}."${f}" IS NOT NULL)`
      : mode === 'overwrite'
        ? `(${neu}."${f}" IS NOT NULL AND ${neu}."${f}" IS DISTINCT FROM ${old}."${f}")`
        : `(${neu}."${f}" IS NOT NULL AND ${had(f, old)} IS NOT NULL AND ${neu}."${f}" IS DISTINCT FROM ${old}."${f}")`,
  );
  return `(${[...each, ...(mode === 'replaced' ? [] : [tagsAdded(neu, old)])].join('\n  OR ')})`;
}

/**
 * The conflict clause of the import's upsert per mode. fill: a field takes the file's value
 * only where the contact has none; overwrite: the file's non-empty values win; both add new
 * tags. skip: an existing contact is left alone. A contact this import already wrote (an
 * earlier row of the same address, in an earlier batch) is never written again.
 */
const MERGE_SQL: Record<ImportMergeMode, string> = {
  skip: 'ON CONFLICT ("email_key", "address_book_id") DO NOTHING',
  ...Object.fromEntries(
    (['fill', 'overwrite'] as const).map((mode) => [
      mode,
      `ON CONFLICT ("email_key", "address_book_id") DO UPDATE SET
         ${FIELDS.map((f) =>
           mode === 'fill'
             ? `"${f}" = coalesce(${had(f, 'c')}, excluded."${f}")`
             : `"${f}" = coalesce(excluded."${f}", c."${f}")`,
         ).join(',\n         ')},
         "tags" = coalesce(c."tags", '{}') || ARRAY(SELECT unnest(excluded."tags") EXCEPT SELECT unnest(coalesce(c."tags", '{}'))),
         "updated_at" = now()
       WHERE c."xmin" <> pg_current_xact_id()::xid AND ${mergeChanges(mode, 'excluded', 'c')}`,
    ]),
  ),
} as Record<ImportMergeMode, string>;

export interface PreviewCounts {
  newContacts: number;
  existing: number;
  /** Valid rows of an address that an earlier row of the file had. */
  repeated: number;
  fill: number;
  overwrite: number;
  replaced: number;
}

/**
 * An import's preview on its own connection: the file's rows are staged as the import
 * stages them, the first row of each address kept (the import's rule), and counted against
 * the book for every merge choice in one statement; then everything is rolled back.
 */
export class PreviewSession {
  private valid = 0;

  private constructor(
    private readonly client: pg.Client,
    private readonly bookId: number,
  ) {}

  static async open(databaseUrl: string, bookId: number): Promise<PreviewSession> {
    const client = await openBookTransaction(databaseUrl, {
      applicationName: 'parley-email-import-preview',
      bookId,
      bookCheck: 'SELECT 1 FROM "address_books" WHERE "id" = $1',
      prepare: async (client) => {
        await client.query(`CREATE TEMP TABLE "preview_stage" (${STAGING_TABLE_COLUMNS}) ON COMMIT DROP`);
        await client.query(
          `CREATE TEMP TABLE "preview_rows" (${STAGING_TABLE_COLUMNS}, PRIMARY KEY ("email_key")) ON COMMIT DROP`,
        );
      },
    });
    return new PreviewSession(client, bookId);
  }

  /** Stages one batch (CopyBatch bytes of `rows` lines); the first row of an address stays. */
  async stage(data: Buffer[], rows: number): Promise<void> {
    await this.client.query('TRUNCATE "preview_stage"');
    await copyInto(this.client, '"preview_stage"', data);
    await this.client.query(
      `INSERT INTO "preview_rows" SELECT DISTINCT ON ("email_key") * FROM "preview_stage"
       ORDER BY "email_key", "line" ON CONFLICT ("email_key") DO NOTHING`,
    );
    this.valid += rows;
  }

  async counts(): Promise<PreviewCounts> {
    const { rows } = await this.client.query<Record<keyof PreviewCounts, number>>(
      `SELECT count(*)::int AS "all", count(*) FILTER (WHERE c."id" IS NULL)::int AS "newContacts",
         count(c."id")::int AS "existing",
         count(*) FILTER (WHERE c."id" IS NOT NULL AND ${mergeChanges('fill', 'p', 'c')})::int AS "fill",
         count(*) FILTER (WHERE c."id" IS NOT NULL AND ${mergeChanges('overwrite', 'p', 'c')})::int AS "overwrite",
         count(*) FILTER (WHERE c."id" IS NOT NULL AND ${mergeChanges('replaced', 'p', 'c')})::int AS "replaced"
       FROM "preview_rows" p
       LEFT JOIN "email_contacts" c ON c."address_book_id" = $1 AND c."email_key" = p."email_key"`,
      [this.bookId],
    );
    const r = rows[0] as unknown as Record<string, number>;
    return {
      newContacts: r.newContacts ?? 0,
      existing: r.existing ?? 0,
      repeated: this.valid - (r.all ?? 0),
      fill: r.fill ?? 0,
      overwrite: r.overwrite ?? 0,
      replaced: r.replaced ?? 0,
    };
  }

  /** Rolls everything back and closes the connection. */
  close(): Promise<void> {
    return endTransaction(this.client);
  }
}

/** The staging table's columns (the COPY's, domain/import.ts STAGING_COLUMNS). */
const STAGING_TABLE_COLUMNS = `"line" integer, "email" text, "email_key" text COLLATE "C", "first_name" text,
  "last_name" text, "company" text, "phone" text, "website" text, "address" text, "category" text, "rating" real,
  "review_count" integer, "description" text, "tags" text[]`;

/** COPYs staging lines into `table`. */
async function copyInto(client: pg.Client, table: string, data: Buffer[]): Promise<void> {
  const copy = client.query(copyFrom(`COPY ${table} (${STAGING_COLUMNS.join(', ')}) FROM STDIN`));
  await new Promise<void>((resolve, reject) => {
    copy.on('error', reject);
    copy.on('finish', resolve);
    for (const chunk of data) copy.write(chunk);
    copy.end();
  });
}

/**
 * The staging side of an import, on its own connection: each batch is COPYed into its own
 * UNLOGGED table (no WAL, no index, dropped once merged) and committed at once, so the upload
 * is read as fast as it arrives and parsed while the import's transaction merges earlier
 * batches on the other connection. Tables of a job that did not commit are dropped by
 * `dropStaged` (after a failure) or by the reaper (after a crash).
 */
export class Stager {
  private constructor(
    private readonly client: pg.Client,
    private readonly prefix: string,
  ) {}

  static async open(databaseUrl: string, jobId: string): Promise<Stager> {
    const client = new pg.Client({
      connectionString: databaseUrl,
      application_name: 'parley-email-import-stage',
    });
    client.on('error', () => {});
    await client.connect();
    // Staged rows are scratch data: no need to wait for the disk at each commit.
    await client.query('SET synchronous_commit = off');
    return new Stager(client, stagingPrefix(jobId));
  }

  /** COPYs batch `n` (domain/import.ts CopyBatch bytes) into a new table; returns the table's name. */
  async stage(n: number, data: Buffer[]): Promise<string> {
    const table = `"${this.prefix}${n}"`;
    await this.client.query(`CREATE UNLOGGED TABLE ${table} (${STAGING_TABLE_COLUMNS})`);
    await copyInto(this.client, table, data);
    return table;
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}

/** The book of the import no longer exists. */
export class ImportBookGoneError extends Error {
  override name = 'ImportBookGoneError';
  readonly statusCode = 404;
  constructor() {
    super('Address book not found');
  }
}

/** The job was cancelled (or ended elsewhere) before it could commit. */
export class ImportCancelledError extends Error {
  override name = 'ImportCancelledError';
}
