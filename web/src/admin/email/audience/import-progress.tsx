import {
  IMPORT_ENCODINGS,
  IMPORT_MERGE_MODE_LABELS,
  type ImportEncoding,
  type ImportJob,
  type ImportResult,
  importSummary,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, Loader2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, errorStatus } from '../../../lib/api.ts';
import { labelClass, ProgressBar, secondaryButton, selectClass } from '../../components/ui.tsx';
import {
  cancelImport,
  formatCount,
  IMPORTS_PATH,
  refreshAudience,
  runningImportKey,
  uploadImport,
  useImportJob,
  useRunningImport,
} from './api.ts';

/**
 * An import's life in a dialog: the upload (bytes sent), the job's live counts (rows read,
 * imported, skipped, errors; polled), cancel, and the outcome. A dialog opened while its book
 * has a running import (after a reload, or from another tab) picks that import up.
 */

export type ImportState =
  | { kind: 'idle' }
  | { kind: 'running'; jobId: string | null; sent: number; total: number; uploading: boolean }
  | { kind: 'done'; result: ImportResult }
  | { kind: 'cancelled'; message: string }
  | { kind: 'failed'; message: string; status?: number | undefined };

/** The spec's answer shape, from a finished job. */
export function resultOf(job: ImportJob): ImportResult {
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
    message: job.message ?? importSummary(job),
  };
}

/** How each text encoding reads in the import dialogs. */
export const ENCODING_LABELS: Record<ImportEncoding, string> = {
  auto: 'Detect automatically',
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 (little-endian)',
  'utf-16be': 'UTF-16 (big-endian)',
  'windows-1252': 'Western European (Windows-1252 / Latin-1)',
  'windows-1250': 'Central European (Windows-1250)',
  'iso-8859-2': 'Central European (ISO-8859-2)',
  'windows-1251': 'Cyrillic (Windows-1251)',
  shift_jis: 'Japanese (Shift_JIS)',
  gb18030: 'Chinese (GB18030)',
};

/** The text encoding of a CSV upload: detected by the server unless chosen here. */
export function EncodingSelect({
  id,
  value,
  onChange,
  label = 'Text encoding',
}: {
  id: string;
  value: ImportEncoding;
  onChange: (value: ImportEncoding) => void;
  label?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select
        id={id}
        className={selectClass}
        value={value}
        data-testid="import-encoding-select"
        onChange={(e) => onChange(e.target.value as ImportEncoding)}
      >
        {IMPORT_ENCODINGS.map((e) => (
          <option key={e} value={e}>
            {ENCODING_LABELS[e]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The form fields of an upload's encoding (none when the server is to detect it). */
export const encodingField = (encoding: ImportEncoding): Record<string, string> =>
  encoding === 'auto' ? {} : { encoding };

export function useImport(
  bookId: number | null,
  open: boolean,
  on: { complete: (r: ImportResult) => void; failed: (message: string, status?: number) => void },
) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ImportState>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const handlers = useRef(on);
  handlers.current = on;
  const running = state.kind === 'running';
  // While idle (resume after a reload) or uploading (learn the job's id), watch the book's running import.
  const bookJob = useRunningImport(bookId, open && (state.kind === 'idle' || (running && !state.jobId)));
  const jobId = running ? (state.jobId ?? bookJob.data?.id ?? null) : null;
  const job = useImportJob(jobId);

  const found = bookJob.data?.status === 'running' ? bookJob.data.id : null;
  useEffect(() => {
    if (!found) return;
    // Resume the book's running import, or learn the id of the one this dialog uploads.
    setState((s) =>
      s.kind === 'idle'
        ? { kind: 'running', jobId: found, sent: 0, total: 0, uploading: false }
        : s.kind === 'running' && !s.jobId
          ? { ...s, jobId: found }
          : s,
    );
  }, [found]);

  // The address-book cards list running imports: one more is running now.
  useEffect(() => {
    if (jobId) void queryClient.invalidateQueries({ queryKey: [`${IMPORTS_PATH}?status=running&limit=100`] });
  }, [jobId, queryClient]);

  const finish = useCallback(
    (next: ImportState) => {
      setState(next);
      // The book has no running import any more: a reopened dialog must not resume this one.
      if (bookId !== null) queryClient.setQueryData(runningImportKey(bookId), { imports: [] });
      void refreshAudience(queryClient);
      if (next.kind === 'done') handlers.current.complete(next.result);
      if (next.kind === 'failed') handlers.current.failed(next.message, next.status);
    },
    [queryClient, bookId],
  );

  // A job followed without its upload (resumed, or answered 202) ends when the job does.
  const j = job.data;
  useEffect(() => {
    if (state.kind !== 'running' || state.uploading || !j || j.status === 'running') return;
    if (j.status === 'completed') finish({ kind: 'done', result: resultOf(j) });
    else if (j.status === 'cancelled')
      finish({ kind: 'cancelled', message: j.message ?? 'Import cancelled.' });
    else finish({ kind: 'failed', message: j.message ?? 'Import failed' });
  }, [state, j, finish]);

  const start = useCallback(
    async (path: string, file: File, fields: Record<string, string>) => {
      const ctrl = new AbortController();
      abort.current = ctrl;
      setState({ kind: 'running', jobId: null, sent: 0, total: file.size, uploading: true });
      try {
        const { status, result } = await uploadImport(
          path,
          file,
          fields,
          (sent, total) => setState((s) => (s.kind === 'running' ? { ...s, sent, total } : s)),
          ctrl.signal,
        );
        if (status === 202)
          setState({
            kind: 'running',
            jobId: result.importId,
            sent: file.size,
            total: file.size,
            uploading: false,
          });
        else finish({ kind: 'done', result });
      } catch (err) {
        const statusCode = errorStatus(err);
        const message = errorMessage(err) ?? 'Upload failed';
        if (statusCode === 409 && /cancelled/i.test(message)) finish({ kind: 'cancelled', message });
        else finish({ kind: 'failed', message, status: statusCode });
      } finally {
        abort.current = null;
      }
    },
    [finish],
  );

  const cancel = useCallback(async () => {
    if (jobId) await cancelImport(jobId).catch(() => undefined);
    // The upload's answer (409) ends the dialog's import; a resumed one ends when its job does.
  }, [jobId]);

  const reset = useCallback(() => setState({ kind: 'idle' }), []);
  return { state, job: jobId ? (job.data ?? null) : null, start, cancel, reset };
}

/** Live figures of a running import. */
export function ImportProgressPanel({
  state,
  job,
  onCancel,
}: {
  state: Extract<ImportState, { kind: 'running' }>;
  job: ImportJob | null;
  onCancel: () => void;
}) {
  const sent = state.uploading ? state.sent : (job?.bytesReceived ?? 0);
  const total = state.uploading ? state.total : (job?.bytesTotal ?? 0);
  const percent = total > 0 ? Math.min(100, Math.round((sent / total) * 100)) : null;
  const saving = job?.phase === 'saving' || (percent === 100 && state.uploading);
  const [cancelling, setCancelling] = useState(false);
  return (
    <div role="status" aria-live="polite" data-testid="import-progress" className="space-y-3">
      <div className="flex items-center gap-2 text-sm text-slate-200">
        <Loader2 className="h-4 w-4 animate-spin text-brand motion-reduce:animate-none" aria-hidden="true" />
        {saving ? 'Saving contacts…' : 'Importing contacts…'}
        {percent !== null ? <span className="ml-auto tabular-nums text-slate-400">{percent}%</span> : null}
      </div>
      <ProgressBar label="Import progress" percent={percent} />
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <Figure label="Rows read" value={job?.rowsRead} testId="import-rows-read" />
        <Figure label="Imported" value={job?.imported} testId="import-imported" />
        <Figure label="Skipped" value={job?.skipped} testId="import-skipped" />
        <Figure label="Errors" value={job?.errorCount} testId="import-errors" />
      </dl>
      <p className="text-xs text-slate-500">
        Nothing is saved until the import finishes: cancelling leaves the address book as it was. You can
        close this dialog; the import goes on.
      </p>
      <button
        type="button"
        className={secondaryButton}
        disabled={cancelling}
        onClick={() => {
          setCancelling(true);
          onCancel();
        }}
      >
        {cancelling ? 'Cancelling…' : 'Cancel import'}
      </button>
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <div className="rounded-lg border border-navy-700 bg-navy-950/40 px-3 py-2">
      <dt className="text-xs text-slate-400">{label}</dt>
      <dd className="text-base font-semibold text-white tabular-nums" data-testid={testId}>
        {value === undefined ? '—' : formatCount(value)}
      </dd>
    </div>
  );
}

/** The outcome of a finished import: the summary and the refused rows with their lines. */
export function ImportOutcome({ state }: { state: Exclude<ImportState, { kind: 'idle' | 'running' }> }) {
  if (state.kind === 'done') {
    const r = state.result;
    return (
      <div role="status" data-testid="import-outcome" className="space-y-2">
        <p className="flex items-start gap-2 text-sm text-emerald-200">
          <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            {importSummary(r)}
            {r.updated
              ? ` Updated ${plural(r.updated, 'existing contact')} (${IMPORT_MERGE_MODE_LABELS[r.mergeMode].toLowerCase()}).`
              : ''}
          </span>
        </p>
        {r.encoding ? (
          <p className="text-xs text-slate-400" data-testid="import-encoding">
            Read as {ENCODING_LABELS[r.encoding as ImportEncoding] ?? r.encoding} text.
          </p>
        ) : null}
        {r.errors.length ? (
          <details className="rounded-lg border border-navy-700 bg-navy-950/40 px-3 py-2 text-sm" open>
            <summary className="cursor-pointer text-slate-300">
              {r.errorCount > r.errors.length
                ? `First ${formatCount(r.errors.length)} of ${plural(r.errorCount, 'row')} not imported`
                : `${plural(r.errors.length, 'row')} not imported`}
            </summary>
            <ul
              className="mt-2 max-h-40 space-y-1 overflow-y-auto text-xs text-slate-400"
              data-testid="import-error-list"
            >
              {r.errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>
    );
  }
  return (
    <p
      role="alert"
      data-testid="import-outcome"
      className="flex items-start gap-2 rounded-lg border border-amber-400/40 bg-amber-400/10 px-3 py-2 text-sm text-amber-100"
    >
      <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      {state.message}
    </p>
  );
}
