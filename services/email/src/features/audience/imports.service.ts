import {
  IMPORT_ERRORS_LISTED,
  IMPORT_MERGE_MODE_LABELS,
  type ImportJob,
  type ImportKind,
  type ImportMergeMode,
  type ImportPreview,
  type ImportRowError,
  importSummary,
  plural,
} from '@parley/contracts';
import type { ServiceDeps } from '@parley/kit';
import type { SheetRecord } from './domain/csv.ts';

import {
  type ColumnMap,
  CopyBatch,
  copyLine,
  errorLine,
  ImportInputError,
  looksHeaderless,
  manualRecords,
  mapHeader,
  NO_EMAIL_COLUMN,
  positionalMap,
  type StagedContact,
  toContact,
} from './domain/import.ts';
import { ImportCancelledError, ImportSession, PreviewSession, Stager } from './import-sessions.repository.ts';
import type { ImportsRepository, Progress } from './imports.repository.ts';

/**
 * Runs imports: rows stream from the upload through the import rules into batches, each batch
 * is COPYed and merged while the next one is read (parsing in Node and writing in PostgreSQL
 * overlap, and the upload waits when both are busy, so memory stays flat), all in one
 * transaction. Progress and a heartbeat are written to the job every PROGRESS_MS; a cancel
 * asked for through the job (from any replica) stops it at the next batch.
 */

/** Rows per COPY + merge. */
export const BATCH_ROWS = 25_000;
const PROGRESS_MS = 500;
/** An import adding this many contacts refreshes the table's statistics. */
const ANALYZE_AFTER_ROWS = 50_000;

export interface ImportInput {
  /** The records of the file (its header first) or of the manual text. */
  records: AsyncIterable<SheetRecord>;
  /** manual: no header; a line of comma-separated addresses is one contact per address. */
  layout: 'sheet' | 'manual';
  /** Upload bytes received so far (progress). */
  bytesReceived: () => number;
  /** The text encoding the records are read in, once known (a CSV's; none for .xlsx and manual entry). */
  encoding?: () => string | null;
  /** Called once every record has been read and staged (or the import has ended). */
  onRead?: () => void;
}

export interface RunningImport {
  job: ImportJob;
  /** Settles with the finished job (completed, failed or cancelled); never rejects. */
  done: Promise<{ job: ImportJob; error?: Error }>;
}

export class Importer {
  private readonly running = new Map<string, { abort: (reason: Error) => void; done: Promise<unknown> }>();

  constructor(
    private readonly jobs: ImportsRepository,
    private readonly databaseUrl: string,
    private readonly logger: ServiceDeps['logger'],
  ) {}

  /** Fails jobs whose process died and drops what they staged (a job of the service: every 10 s). */
  async reap(): Promise<void> {
    const ids = await this.jobs.reapStale();
    if (ids.length) this.logger.warn({ ids }, 'import jobs of a stopped process marked failed');
    await this.jobs.dropStaged();
  }

  /** Stops every import of this process (each rolls back and is marked failed). */
  async stop(): Promise<void> {
    const all = [...this.running.values()];
    for (const r of all)
      r.abort(new Error('The service was stopped during the import. No contacts were imported.'));
    await Promise.allSettled(all.map((r) => r.done));
  }

  /**
   * Starts an import into `bookId` (the job exists once this resolves; ImportRunningError
   * when the book has a running import) and runs it in the background.
   */
  async start(
    bookId: number,
    meta: {
      kind: ImportKind;
      fileName: string | null;
      bytesTotal: number | null;
      createdBy: string | null;
      mergeMode: ImportMergeMode;
    },
    input: ImportInput,
  ): Promise<RunningImport> {
    const job = await this.jobs.create({ addressBookId: bookId, ...meta });
    let abort: (reason: Error) => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      abort = reject;
    });
    aborted.catch(() => {});
    const done = this.run(job, meta.kind, meta.mergeMode, input, aborted).finally(() =>
      this.running.delete(job.id),
    );
    this.running.set(job.id, { abort, done });
    return { job, done };
  }

  /**
   * Reads the input as the import would and counts, without writing anything, what it would
   * add and what each merge choice would change in the book (the import dialog's preview).
   */
  async preview(bookId: number, input: ImportInput): Promise<ImportPreview> {
    const session = await PreviewSession.open(this.databaseUrl, bookId);
    try {
      let rowsRead = 0;
      let errorCount = 0;
      const errors: ImportRowError[] = [];
      let batch = new CopyBatch();
      await readContacts(input, {
        contact: (c) => {
          rowsRead++;
          batch.add(copyLine(c));
        },
        error: (e) => {
          rowsRead++;
          errorCount++;
          if (errors.length < IMPORT_ERRORS_LISTED) errors.push(e);
        },
        full: () => batch.rows >= BATCH_ROWS,
        flush: async () => {
          const rows = batch.rows;
          await session.stage(batch.finish(), rows);
          batch = new CopyBatch();
        },
        stopped: () => null,
      });
      if (batch.rows) await session.stage(batch.finish(), batch.rows);
      const c = await session.counts();
      return {
        addressBookId: bookId,
        rowsRead,
        errorCount,
        errors: errors.map(errorLine),
        encoding: input.encoding?.() ?? null,
        newContacts: c.newContacts,
        existing: c.existing,
        repeated: c.repeated,
        modes: {
          fill: { changed: c.fill, valuesReplaced: 0 },
          overwrite: { changed: c.overwrite, valuesReplaced: c.replaced },
          skip: { changed: 0, valuesReplaced: 0 },
        },
      };
    } finally {
      await session.close();
      input.onRead?.();
    }
  }

  private async run(
    job: ImportJob,
    kind: ImportKind,
    mergeMode: ImportMergeMode,
    input: ImportInput,
    aborted: Promise<never>,
  ): Promise<{ job: ImportJob; error?: Error }> {
    const progress: Progress = {
      phase: 'receiving',
      bytesReceived: 0,
      rowsRead: 0,
      imported: 0,
      updated: 0,
      skipped: 0,
      errorCount: 0,
      errors: [],
      encoding: null,
    };
    let validRows = 0;
    let errorsChanged = false;
    let stopReason: Error | null = null;
    const noteError = (e: ImportRowError) => {
      progress.errorCount++;
      if (progress.errors.length < IMPORT_ERRORS_LISTED) {
        progress.errors.push(e);
        errorsChanged = true;
      }
    };

    // Progress, heartbeat and the cancel flag, on the pool (the session's connection is busy).
    let writing: Promise<void> = Promise.resolve();
    const writeProgress = () => {
      progress.bytesReceived = input.bytesReceived();
      progress.encoding = input.encoding?.() ?? null;
      const withErrors = errorsChanged;
      errorsChanged = false;
      writing = this.jobs
        .progress(job.id, progress, withErrors)
        .then(({ cancel }) => {
          if (cancel && !stopReason) stop(new ImportCancelledError());
        })
        .catch((err) => this.logger.warn({ err, importId: job.id }, 'import progress not written'));
    };
    let session: ImportSession | null = null;
    let stager: Stager | null = null;
    // A stop rolls the transaction back at once (releasing the book), even while the upload
    // is stalled; the reading loop notices when it next runs.
    // Settles (rejects) as soon as the import is stopped: the job ends then, without waiting
    // for a stalled upload to deliver its next bytes.
    let rejectStopped: (reason: Error) => void = () => {};
    const stopped = new Promise<never>((_, reject) => {
      rejectStopped = reject;
    });
    stopped.catch(() => {});
    const stop = (reason: Error) => {
      stopReason ??= reason;
      rejectStopped(stopReason);
      void session?.close();
      void stager?.close();
    };
    const timer = setInterval(() => void writing.then(writeProgress), PROGRESS_MS);
    aborted.catch((err: Error) => stop(err));

    // Staged batches wait here for the merge (the import's transaction), which runs beside the reading.
    const queue: Array<{ table: string; rows: number }> = [];
    let reading = true;
    let wake: (() => void) | null = null;
    const signal = () => {
      wake?.();
      wake = null;
    };
    let merger: Promise<void> = Promise.resolve();

    try {
      [session, stager] = await Promise.all([
        ImportSession.open(this.databaseUrl, job.addressBookId, kind),
        Stager.open(this.databaseUrl, job.id),
      ]);
      if (stopReason) throw stopReason;
      const db = session;
      const staging = stager;
      merger = (async () => {
        for (;;) {
          if (stopReason) throw stopReason;
          const next = queue.shift();
          if (!next) {
            if (!reading) return;
            await new Promise<void>((r) => {
              wake = r;
            });
            continue;
          }
          const merged = await db.merge(next.table, mergeMode);
          progress.imported += merged.inserted;
          progress.updated += merged.updated;
          progress.skipped += next.rows - merged.inserted - merged.updated;
        }
      })();
      // A failing merge stops the reading too.
      merger.catch((err: Error) => stop(err));

      let batches = 0;
      const flush = async (batch: CopyBatch) => {
        const rows = batch.rows;
        const table = await staging.stage(batches++, batch.finish());
        queue.push({ table, rows });
        signal();
      };

      let batch = new CopyBatch();
      const readAll = () =>
        readContacts(input, {
          contact: (c) => {
            progress.rowsRead++;
            validRows++;
            batch.add(copyLine(c));
          },
          error: (e) => {
            progress.rowsRead++;
            noteError(e);
          },
          full: () => batch.rows >= BATCH_ROWS,
          flush: async () => {
            const full = batch;
            batch = new CopyBatch();
            await flush(full);
          },
          stopped: () => stopReason,
        }).then(async () => {
          if (stopReason) throw stopReason;
          if (batch.rows) await flush(batch);
        });
      const read = readAll();
      // Once stopped, reading winds down in the background (its error is the stop's).
      read.catch(() => {});
      await Promise.race([read, stopped]);
      reading = false;
      signal();
      input.onRead?.();
      progress.phase = 'saving';
      await Promise.race([merger, stopped]);
      if (stopReason) throw stopReason;
      clearInterval(timer);
      await writing;
      progress.bytesReceived = input.bytesReceived();
      progress.encoding = input.encoding?.() ?? null;
      const finished = await session.commit(job.id, progress, kind);
      // After a bulk load the planner's statistics are stale until autovacuum comes by; the
      // searches choose between the trigram index and a newest-first walk on them.
      if (progress.imported >= ANALYZE_AFTER_ROWS)
        void this.jobs
          .analyzeContacts()
          .catch((err) => this.logger.warn({ err }, 'analyze after import failed'));
      this.logger.info(
        { importId: job.id, bookId: job.addressBookId, rows: progress.rowsRead, valid: validRows, batches },
        'import completed',
      );
      return { job: finished };
    } catch (err) {
      clearInterval(timer);
      // A cancel or a stop may surface as whatever error it caused downstream.
      const error = stopReason ?? (err instanceof Error ? err : new Error(String(err)));
      stop(error);
      reading = false;
      signal();
      await merger.catch(() => {});
      await writing;
      const cancelled = error instanceof ImportCancelledError;
      const message = cancelled
        ? 'Import cancelled. No contacts were imported.'
        : `Import failed: ${publicMessage(error)} No contacts were imported.`;
      if (!cancelled && !(error instanceof ImportInputError) && !isClientError(error))
        this.logger.error({ err: error, importId: job.id }, 'import failed');
      await session?.close();
      session = null;
      progress.bytesReceived = input.bytesReceived();
      progress.encoding = input.encoding?.() ?? null;
      const ended = await this.jobs
        .finishWithout(job.id, cancelled ? 'cancelled' : 'failed', message, progress)
        .catch(() => null);
      await this.jobs
        .dropStaged(job.id)
        .catch((e) => this.logger.warn({ err: e, importId: job.id }, 'staging tables not dropped'));
      return { job: ended ?? job, error };
    } finally {
      clearInterval(timer);
      await session?.close();
      await stager?.close();
      input.onRead?.();
    }
  }
}

/** Where readContacts puts what it reads. */
interface ContactSink {
  contact(c: StagedContact): void;
  error(e: ImportRowError): void;
  /** Whether the batch is full: `flush` is awaited before the next record is read. */
  full(): boolean;
  flush(): Promise<void>;
  /** The reason the import was stopped, if it was (reading ends with it). */
  stopped(): Error | null;
}

/**
 * The import's reading of records (the same for the import and its preview): the header
 * names the columns (or, without one, the spec's order), each record becomes a contact or a
 * reported error, manual entry may hold several addresses on a line.
 */
async function readContacts(input: ImportInput, sink: ContactSink): Promise<void> {
  let map: ColumnMap | null = input.layout === 'manual' ? positionalMap() : null;
  for await (const record of input.records) {
    const stop = sink.stopped();
    if (stop) throw stop;
    if ('unreadable' in record) {
      sink.error({ line: record.line, email: null, message: record.unreadable });
      continue;
    }
    if (!map) {
      map = mapHeader(record.cells);
      if (map) continue;
      // No header naming an email column: a first row holding an address is data.
      if (!looksHeaderless(record.cells)) throw new ImportInputError(NO_EMAIL_COLUMN);
      map = positionalMap();
    }
    const records = input.layout === 'manual' ? manualRecords(record.cells) : [record.cells];
    for (const cells of records) {
      const outcome = toContact(cells, map, record.line);
      if (outcome.kind === 'empty') continue;
      if (outcome.kind === 'error') sink.error(outcome.error);
      else sink.contact(outcome.contact);
    }
    if (sink.full()) await sink.flush();
  }
}

/** An error caused by the request (a 4xx the caller sees), not by us. */
export function isClientError(err: Error): boolean {
  const status = (err as { statusCode?: number }).statusCode;
  return err instanceof ImportInputError || (typeof status === 'number' && status >= 400 && status < 500);
}

/** What a user may read of an error: input problems verbatim, anything else in general terms. */
function publicMessage(err: Error): string {
  if (isClientError(err)) return err.message.endsWith('.') ? err.message : `${err.message}.`;
  if ((err as { code?: string }).code === '23503') return 'The address book was deleted during the import.';
  return 'Something went wrong on our side.';
}

/** The answer of the import calls for a finished job. */
export function importResult(job: ImportJob) {
  return {
    importId: job.id,
    addressBookId: job.addressBookId,
    status: job.status,
    imported: job.imported,
    updated: job.updated,
    skipped: job.skipped,
    rowsRead: job.rowsRead,
    errorCount: job.errorCount,
    errors: job.errors.map((e) => (e.line === null ? e.message : `Line ${e.line}: ${e.message}`)),
    encoding: job.encoding,
    mergeMode: job.mergeMode,
    message:
      job.status === 'completed'
        ? `${importSummary(job)}${job.updated ? ` Updated ${plural(job.updated, 'existing contact')} (${IMPORT_MERGE_MODE_LABELS[job.mergeMode].toLowerCase()}).` : ''}`
        : (job.message ?? ''),
  };
}
