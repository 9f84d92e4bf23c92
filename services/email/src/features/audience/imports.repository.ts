import type {
  ImportJob,
  ImportKind,
  ImportMergeMode,
  ImportPhase,
  ImportRowError,
  ImportStatus,
} from '@parley/contracts';
import type pg from 'pg';

/**
 * Import jobs (email_imports): their rows, progress and heartbeat, cancelling and reaping, and
 * the cleanup of what a job that did not commit left staged. The import's own connections
 * (its transaction, the stager and the preview) are in import-sessions.repository.ts.
 */

export class ImportRunningError extends Error {
  override name = 'ImportRunningError';
}

export interface JobRow {
  id: string;
  address_book_id: number;
  kind: ImportKind;
  file_name: string | null;
  status: ImportStatus;
  phase: ImportPhase;
  bytes_received: string;
  bytes_total: string | null;
  rows_read: number;
  imported: number;
  updated: number;
  skipped: number;
  error_count: number;
  errors: ImportRowError[];
  encoding: string | null;
  merge_mode: ImportMergeMode;
  message: string | null;
  started_at: Date;
  finished_at: Date | null;
}

export const JOB_COLUMNS = `"id", "address_book_id", "kind", "file_name", "status", "phase", "bytes_received", "bytes_total",
  "rows_read", "imported", "updated", "skipped", "error_count", "errors", "encoding", "merge_mode", "message",
  "started_at", "finished_at"`;

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
    errors: r.errors,
    encoding: r.encoding,
    mergeMode: r.merge_mode,
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
      const { rows } = await this.pool.query<JobRow>(
        `INSERT INTO "email_imports" ("address_book_id", "kind", "file_name", "bytes_total", "created_by", "merge_mode")
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${JOB_COLUMNS}`,
        [job.addressBookId, job.kind, job.fileName, job.bytesTotal, job.createdBy, job.mergeMode],
      );
      const row = rows[0];
      if (!row) throw new Error('import job not created');
      return toImportJob(row);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new ImportRunningError();
      throw err;
    }
  }

  async get(id: string): Promise<ImportJob | null> {
    const { rows } = await this.pool.query<JobRow>({
      name: 'audience_import_get',
      text: `SELECT ${JOB_COLUMNS} FROM "email_imports" WHERE "id" = $1`,
      values: [id],
    });
    return rows[0] ? toImportJob(rows[0]) : null;
  }

  async list(filter: { addressBookId?: number; status?: ImportStatus; limit: number }): Promise<ImportJob[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    if (filter.addressBookId !== undefined) {
      values.push(filter.addressBookId);
      where.push(`"address_book_id" = $${values.length}`);
    }
    if (filter.status) {
      values.push(filter.status);
      where.push(`"status" = $${values.length}::"ImportStatus"`);
    }
    const { rows } = await this.pool.query<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM "email_imports" ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY "started_at" DESC LIMIT ${filter.limit}`,
      values,
    );
    return rows.map(toImportJob);
  }

  /** Writes a running job's progress and heartbeat; answers whether a cancel was asked for. */
  async progress(
    id: string,
    p: Progress,
    withErrors: boolean,
  ): Promise<{ cancel: boolean; running: boolean }> {
    const { rows } = await this.pool.query<{ cancel_requested: boolean; status: ImportStatus }>(
      `UPDATE "email_imports" SET "phase" = $2, "bytes_received" = $3, "rows_read" = $4, "imported" = $5,
         "updated" = $6, "skipped" = $7, "error_count" = $8,
         "errors" = CASE WHEN $9::jsonb IS NULL THEN "errors" ELSE $9::jsonb END, "encoding" = $10,
         "heartbeat_at" = now()
       WHERE "id" = $1 AND "status" = 'running' RETURNING "cancel_requested", "status"`,
      [
        id,
        p.phase,
        p.bytesReceived,
        p.rowsRead,
        p.imported,
        p.updated,
        p.skipped,
        p.errorCount,
        withErrors ? JSON.stringify(p.errors) : null,
        p.encoding,
      ],
    );
    const r = rows[0];
    return { cancel: r?.cancel_requested ?? true, running: !!r };
  }

  /** Ends a job that did not commit (failed or cancelled): its counts say what was read; nothing was imported. */
  async finishWithout(
    id: string,
    status: 'failed' | 'cancelled',
    message: string,
    p: Progress,
  ): Promise<ImportJob | null> {
    const { rows } = await this.pool.query<JobRow>(
      `UPDATE "email_imports" SET "status" = $2, "phase" = 'done', "message" = $3, "finished_at" = now(),
         "bytes_received" = $4, "rows_read" = $5, "imported" = 0, "updated" = 0, "skipped" = 0,
         "error_count" = $6, "errors" = $7::jsonb, "encoding" = $8, "heartbeat_at" = now()
       WHERE "id" = $1 AND "status" = 'running' RETURNING ${JOB_COLUMNS}`,
      [id, status, message, p.bytesReceived, p.rowsRead, p.errorCount, JSON.stringify(p.errors), p.encoding],
    );
    return rows[0] ? toImportJob(rows[0]) : this.get(id);
  }

  /** Asks a running job to stop. A job whose process died is ended here at once. */
  async requestCancel(id: string): Promise<ImportJob | null> {
    await this.pool.query(
      `UPDATE "email_imports" SET "cancel_requested" = true WHERE "id" = $1 AND "status" = 'running'`,
      [id],
    );
    await this.reapStale();
    return this.get(id);
  }

  /** Asks the running import of a book (if any) to stop; returns its id. */
  async cancelRunningOfBook(bookId: number): Promise<string | null> {
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE "email_imports" SET "cancel_requested" = true
       WHERE "address_book_id" = $1 AND "status" = 'running' RETURNING "id"`,
      [bookId],
    );
    return rows[0]?.id ?? null;
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
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE "email_imports" SET "status" = CASE WHEN "cancel_requested" THEN 'cancelled'::"ImportStatus" ELSE 'failed'::"ImportStatus" END,
         "phase" = 'done', "finished_at" = now(), "imported" = 0, "updated" = 0, "skipped" = 0,
         "message" = CASE WHEN "cancel_requested" THEN 'Import cancelled. No contacts were imported.'
           ELSE 'The import stopped unexpectedly (its server went away) before it finished. No contacts were imported; please import the file again.' END
       WHERE "status" = 'running' AND "heartbeat_at" < now() - make_interval(secs => $1)
       RETURNING "id"`,
      [STALE_AFTER_SECONDS],
    );
    return rows.map((r) => r.id);
  }
}

/** Staging tables are named after their job: `import_rows_<job id hex>_<batch>`. */
export const stagingPrefix = (jobId: string) => `import_rows_${jobId.replaceAll('-', '')}_`;

/**
 * Drops the staging tables of jobs that are not running (or no longer exist): what a failed,
 * cancelled or crashed import left. Returns how many were dropped.
 */
export async function dropStaged(pool: pg.Pool, jobId?: string): Promise<number> {
  const { rows } = await pool.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname LIKE 'import_rows_%'
       AND ($1::text IS NULL OR c.relname LIKE $1::text || '%')
       AND NOT EXISTS (
         SELECT 1 FROM "email_imports" j
         WHERE j."status" = 'running' AND c.relname LIKE 'import_rows_' || replace(j."id"::text, '-', '') || '_%'
       )`,
    [jobId ? stagingPrefix(jobId) : null],
  );
  for (const r of rows) await pool.query(`DROP TABLE IF EXISTS "${r.relname.replace(/"/g, '')}"`);
  return rows.length;
}
