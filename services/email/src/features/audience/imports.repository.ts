import type {
  ImportJob,
  ImportKind,
  ImportMergeMode,
  ImportPhase,
  ImportRowError,
  ImportStatus,
} from '@parley/contracts';
import { type SqlBool, sql } from 'kysely';
import type pg from 'pg';
import { db, execute, firstRow, type Row, rows } from '../../shared/sql.ts';

/**
 * Import jobs (email_imports): their rows, progress and heartbeat, cancelling and reaping, and
 * the cleanup of what a job that did not commit left staged. The import's own connections
 * (its transaction, the stager and the preview) are in import-sessions.repository.ts.
 */

export class ImportRunningError extends Error {
  override name = 'ImportRunningError';
}

/** The columns of a job as the API shows it. */
const JOB_FIELDS = [
  'id',
  'address_book_id',
  'kind',
  'file_name',
  'status',
  'phase',
  'bytes_received',
  'bytes_total',
  'rows_read',
  'imported',
  'updated',
  'skipped',
  'error_count',
  'errors',
  'encoding',
  'merge_mode',
  'message',
  'started_at',
  'finished_at',
] as const;

/** Jobs with the columns toImportJob reads: the typed statement job reads start from. */
function selectJobs() {
  return db.selectFrom('email_imports').select(JOB_FIELDS);
}

export type JobRow = Row<ReturnType<typeof selectJobs>>;

/** The same columns as SQL text, for the statements not yet built with `db`. */
export const JOB_COLUMNS = JOB_FIELDS.map((f) => `"${f}"`).join(', ');

export function toImportJob(r: JobRow): ImportJob {
  return {
    id: r.id,
    addressBookId: r.address_book_id,
    kind: r.kind,
    fileName: r.file_name,
    status: r.status,
    phase: r.phase,
    bytesReceived: Number(r.bytes_received),
    bytesTotal: r.bytes_total === null ? null : Number(r.bytes_total),
    rowsRead: r.rows_read,
    imported: r.imported,
    updated: r.updated,
    skipped: r.skipped,
    errorCount: r.error_count,
    // A JSON column: what progress() and the session's commit wrote, ImportRowError[].
    errors: r.errors as ImportRowError[],
    encoding: r.encoding,
    // A text column holding an ImportMergeMode (create() writes it).
    mergeMode: r.merge_mode as ImportMergeMode,
    message: r.message,
    startedAt: r.started_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
  };
}

export interface Progress {
  phase: ImportPhase;
  bytesReceived: number;
  rowsRead: number;
  imported: number;
  updated: number;
  skipped: number;
  errorCount: number;
  errors: ImportRowError[];
  /** The text encoding the CSV is read in, once known. */
  encoding: string | null;
}

/** A job whose process stopped writing its heartbeat this long ago is dead. */
export const STALE_AFTER_SECONDS = 30;

/** The messages of a job reaped after its process died (reapStale), cancelled or not. */
const REAPED_CANCELLED = 'Import cancelled. No contacts were imported.';
const REAPED_DIED =
  'The import stopped unexpectedly (its server went away) before it finished. No contacts were imported; please import the file again.';

export class ImportsRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Creates a running job; ImportRunningError when the book already has one (the partial unique index). */
  async create(job: {
    addressBookId: number;
    kind: ImportKind;
    fileName: string | null;
    bytesTotal: number | null;
    createdBy: string | null;
    mergeMode: ImportMergeMode;
  }): Promise<ImportJob> {
    try {
      const row = await firstRow(
        this.pool,
        db
          .insertInto('email_imports')
          .values({
            address_book_id: job.addressBookId,
            kind: job.kind,
            file_name: job.fileName,
            bytes_total: job.bytesTotal === null ? null : String(job.bytesTotal),
            created_by: job.createdBy,
            merge_mode: job.mergeMode,
          })
          .returning(JOB_FIELDS),
      );
      if (!row) throw new Error('import job not created');
      return toImportJob(row);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new ImportRunningError();
      throw err;
    }
  }

  async get(id: string): Promise<ImportJob | null> {
    const row = await firstRow(this.pool, selectJobs().where('id', '=', id), 'audience_import_get');
    return row ? toImportJob(row) : null;
  }

  async list(filter: { addressBookId?: number; status?: ImportStatus; limit: number }): Promise<ImportJob[]> {
    let jobs = selectJobs();
    if (filter.addressBookId !== undefined) jobs = jobs.where('address_book_id', '=', filter.addressBookId);
    if (filter.status) jobs = jobs.where('status', '=', filter.status);
    const found = await rows(this.pool, jobs.orderBy('started_at', 'desc').limit(filter.limit));
    return found.map(toImportJob);
  }

  /** Writes a running job's progress and heartbeat; answers whether a cancel was asked for. */
  async progress(
    id: string,
    p: Progress,
    withErrors: boolean,
  ): Promise<{ cancel: boolean; running: boolean }> {
    const r = await firstRow(
      this.pool,
      db
        .updateTable('email_imports')
        .set({
          phase: p.phase,
          bytes_received: String(p.bytesReceived),
          rows_read: p.rowsRead,
          imported: p.imported,
          updated: p.updated,
          skipped: p.skipped,
          error_count: p.errorCount,
          // The errors are written only when asked for; otherwise they stay as they are.
          ...(withErrors ? { errors: JSON.stringify(p.errors) } : {}),
          encoding: p.encoding,
          heartbeat_at: sql`now()`,
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .returning(['cancel_requested', 'status']),
    );
    return { cancel: r?.cancel_requested ?? true, running: !!r };
  }

  /** Ends a job that did not commit (failed or cancelled): its counts say what was read; nothing was imported. */
  async finishWithout(
    id: string,
    status: 'failed' | 'cancelled',
    message: string,
    p: Progress,
  ): Promise<ImportJob | null> {
    const row = await firstRow(
      this.pool,
      db
        .updateTable('email_imports')
        .set({
          status,
          phase: 'done',
          message,
          finished_at: sql`now()`,
          bytes_received: String(p.bytesReceived),
          rows_read: p.rowsRead,
          imported: 0,
          updated: 0,
          skipped: 0,
          error_count: p.errorCount,
          errors: JSON.stringify(p.errors),
          encoding: p.encoding,
          heartbeat_at: sql`now()`,
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .returning(JOB_FIELDS),
    );
    return row ? toImportJob(row) : this.get(id);
  }

  /** Asks a running job to stop. A job whose process died is ended here at once. */
  async requestCancel(id: string): Promise<ImportJob | null> {
    await execute(
      this.pool,
      db
        .updateTable('email_imports')
        .set({ cancel_requested: true })
        .where('id', '=', id)
        .where('status', '=', 'running'),
    );
    await this.reapStale();
    return this.get(id);
  }

  /** Asks the running import of a book (if any) to stop; returns its id. */
  async cancelRunningOfBook(bookId: number): Promise<string | null> {
    const row = await firstRow(
      this.pool,
      db
        .updateTable('email_imports')
        .set({ cancel_requested: true })
        .where('address_book_id', '=', bookId)
        .where('status', '=', 'running')
        .returning('id'),
    );
    return row?.id ?? null;
  }

  /** Refreshes the planner's statistics of the contacts (after a bulk load). */
  async analyzeContacts(): Promise<void> {
    await this.pool.query('ANALYZE "email_contacts"');
  }

  /** Drops what a job that did not commit left staged (all ended jobs' tables when no id is given). */
  dropStaged(jobId?: string): Promise<number> {
    return dropStaged(this.pool, jobId);
  }

  /**
   * Jobs left running by a process that died (no heartbeat for STALE_AFTER_SECONDS) are
   * failed; their transaction died with their connection, so nothing of them was imported.
   */
  async reapStale(): Promise<string[]> {
    const reaped = await rows(
      this.pool,
      db
        .updateTable('email_imports')
        .set((eb) => ({
          // The enum's values are cast: a CASE of bare literals would be text.
          status: sql<ImportStatus>`CASE WHEN ${eb.ref('cancel_requested')} THEN 'cancelled'::"ImportStatus" ELSE 'failed'::"ImportStatus" END`,
          phase: 'done',
          finished_at: sql`now()`,
          imported: 0,
          updated: 0,
          skipped: 0,
          message: sql<string>`CASE WHEN ${eb.ref('cancel_requested')} THEN ${REAPED_CANCELLED} ELSE ${REAPED_DIED} END`,
        }))
        .where('status', '=', 'running')
        .where('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${STALE_AFTER_SECONDS})`)
        .returning('id'),
    );
    return reaped.map((r) => r.id);
  }
}

/** Staging tables are named after their job: `import_rows_<job id hex>_<batch>`. */
export const stagingPrefix = (jobId: string) => `import_rows_${jobId.replaceAll('-', '')}_`;

/**
 * Drops the staging tables of jobs that are not running (or no longer exist): what a failed,
 * cancelled or crashed import left. Returns how many were dropped.
 */
export async function dropStaged(pool: pg.Pool, jobId?: string): Promise<number> {
  const prefix = jobId ? stagingPrefix(jobId) : null;
  const running = db
    .selectFrom('email_imports as j')
    .select(sql.lit(1).as('one'))
    .where('j.status', '=', 'running')
    .where(
      (eb) =>
        sql<SqlBool>`c.relname LIKE 'import_rows_' || replace(${eb.ref('j.id')}::text, '-', '') || '_%'`,
    );
  // The tables are the catalog's (not in the schema): a template around the typed subquery.
  const staged = sql<{ relname: string }>`SELECT c.relname FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname LIKE 'import_rows_%'
      AND (${prefix}::text IS NULL OR c.relname LIKE ${prefix}::text || '%')
      AND NOT EXISTS ${running}`;
  const tables = await rows(pool, { compile: () => staged.compile(db) });
  for (const r of tables) await pool.query(`DROP TABLE IF EXISTS "${r.relname.replace(/"/g, '')}"`);
  return tables.length;
}
