import { type ImportEncoding, type ImportResult, importSummary } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileUp, Keyboard, Upload } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { type TabDef, Tabs } from '../../../components/tabs.tsx';
import { toast } from '../../../components/toast/index.ts';
import { AdminForm } from '../../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  FieldError,
  inputClass,
  labelClass,
  primaryButton,
  secondaryButton,
  selectClass,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { fileProblem } from './address-books/import-dialog.tsx';
import {
  EMAIL_IMPORT_PATH,
  formatCount,
  importManual,
  previewFileImport,
  previewManualImport,
  refreshAudience,
  useAddressBooks,
} from './api.ts';
import { AudienceDialog } from './audience-dialog.tsx';
import { MergeChoice, previewKey, useMergeChoice } from './import-merge.tsx';
import {
  EncodingSelect,
  encodingField,
  ImportOutcome,
  ImportProgressPanel,
  type ImportState,
  useImport,
} from './import-progress.tsx';

type Mode = 'csv' | 'manual';
const MODES: TabDef<Mode>[] = [
  { key: 'csv', label: 'CSV Upload', icon: <FileUp className="h-4 w-4" aria-hidden="true" /> },
  { key: 'manual', label: 'Manual Entry', icon: <Keyboard className="h-4 w-4" aria-hidden="true" /> },
];

const completeToast = (r: ImportResult) => toast({ title: 'Import Complete', description: importSummary(r) });

/**
 * Import contacts (email marketing §2 dialogs, §5): a CSV file (.csv only; columns email,
 * firstName, lastName, company, phone) or manual entry (one contact per line, comma separated
 * in that order), into the default address book or another one; live progress for files.
 */
export function ImportContactsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const books = useAddressBooks();
  const defaultBook = books.data?.find((b) => b.isDefault) ?? null;
  const [bookId, setBookId] = useState<number | null>(null);
  const target = bookId ?? defaultBook?.id ?? null;
  const [mode, setMode] = useState<Mode>('csv');
  const [file, setFile] = useState<File | null>(null);
  const [encoding, setEncoding] = useState<ImportEncoding>('auto');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [manualResult, setManualResult] = useState<Exclude<ImportState, { kind: 'idle' | 'running' }> | null>(
    null,
  );

  const merge = useMergeChoice(open, previewKey(mode, file, text, target, encoding, open), () =>
    mode === 'csv' && file
      ? previewFileImport(file, {
          ...(target ? { addressBookId: String(target) } : {}),
          ...encodingField(encoding),
        })
      : previewManualImport(text, target),
  );
  const imp = useImport(target, open, {
    complete: completeToast,
    failed: (message) =>
      toast({ variant: 'destructive', title: 'Error', description: message || 'Upload failed' }),
  });
  const manual = useMutation({
    mutationFn: () => importManual(text, target, merge.mode),
    onSuccess: async (r) => {
      completeToast(r);
      setManualResult({ kind: 'done', result: r });
      await refreshAudience(queryClient);
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: `Failed to import contacts: ${messageOr(err, 'Please try again.')}`,
      }),
  });

  useEffect(() => {
    if (open) return;
    // Closed: the next opening starts afresh (an import still running is found again).
    setProblem(null);
    setManualResult(null);
  }, [open]);

  const { state } = imp;
  const outcome =
    state.kind === 'done' || state.kind === 'failed' || state.kind === 'cancelled' ? state : manualResult;
  const reset = () => {
    imp.reset();
    manual.reset();
    setManualResult(null);
    setFile(null);
    setText('');
  };

  const submit = () => {
    if (mode === 'csv') {
      const p = fileProblem(file, 'csv');
      setProblem(p);
      if (p) return [p];
      if (!file) return;
      void imp.start(EMAIL_IMPORT_PATH, file, {
        ...(target ? { addressBookId: String(target) } : {}),
        ...encodingField(encoding),
        mergeMode: merge.mode,
      });
    } else {
      if (!text.trim()) {
        setProblem('Please enter at least one contact.');
        return ['Please enter at least one contact.'];
      }
      setProblem(null);
      manual.mutate();
    }
  };

  return (
    <AudienceDialog
      open={open}
      onOpenChange={(o) => {
        onOpenChange(o);
        if (!o && state.kind !== 'running') reset();
      }}
      title="Import Contacts"
      description="Upload a CSV file or type contacts in."
      wide
    >
      {state.kind === 'running' ? (
        <ImportProgressPanel state={state} job={imp.job} onCancel={() => void imp.cancel()} />
      ) : outcome ? (
        <div className="space-y-4">
          <ImportOutcome state={outcome} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button type="button" className={secondaryButton} onClick={reset}>
              Import more
            </button>
            <button type="button" className={primaryButton} onClick={() => onOpenChange(false)}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <AdminForm className="space-y-4" onSubmit={submit}>
          <div>
            <label htmlFor={`${id}-book`} className={labelClass}>
              Address book
            </label>
            <select
              id={`${id}-book`}
              className={selectClass}
              value={target ?? ''}
              onChange={(e) => setBookId(Number(e.target.value) || null)}
            >
              {(books.data ?? []).map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name} ({formatCount(b.contactCount)})
                </option>
              ))}
            </select>
          </div>
          <Tabs<Mode>
            label="Import mode"
            tabs={MODES}
            selected={mode}
            onSelect={(m) => {
              setMode(m);
              setProblem(null);
            }}
          >
            {mode === 'csv' ? (
              <div>
                <label htmlFor={`${id}-file`} className={labelClass}>
                  CSV file
                </label>
                <input
                  id={`${id}-file`}
                  type="file"
                  accept=".csv,text/csv"
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={`${id}-file-hint${problem ? ` ${id}-problem` : ''}`}
                  onChange={(e) => {
                    setFile(e.target.files?.[0] ?? null);
                    setProblem(null);
                  }}
                  className={`${inputClass} file:mr-3 file:rounded-md file:border-0 file:bg-navy-700 file:px-3 file:py-1 file:text-sm file:text-slate-100`}
                />
                <p id={`${id}-file-hint`} className="mt-1 text-xs text-slate-500">
                  Columns: email, firstName, lastName, company, phone (any case; the first row names them).
                </p>
                <div className="mt-3">
                  <EncodingSelect id={`${id}-encoding`} value={encoding} onChange={setEncoding} />
                </div>
              </div>
            ) : (
              <div>
                <label htmlFor={`${id}-text`} className={labelClass}>
                  Contacts
                </label>
                <textarea
                  id={`${id}-text`}
                  className={`${inputClass} font-mono`}
                  rows={7}
                  value={text}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={`${id}-text-hint${problem ? ` ${id}-problem` : ''}`}
                  placeholder={'ann@example.com, Ann, Lee, Lee Dental, 617-555-0100\nbob@example.com, Bob'}
                  onChange={(e) => {
                    setText(e.target.value);
                    setProblem(null);
                  }}
                />
                <p id={`${id}-text-hint`} className="mt-1 text-xs text-slate-500">
                  One contact per line: email, firstName, lastName, company, phone. A line of addresses
                  separated by commas adds each address.
                </p>
              </div>
            )}
          </Tabs>
          <MergeChoice
            choice={merge}
            canPreview={
              mode === 'csv' ? fileProblem(file, 'csv') : text.trim() ? null : 'Type contacts in to preview.'
            }
          />
          <FieldError id={`${id}-problem`} message={problem ?? undefined} />
          <DialogActions>
            <CancelButton onCancel={() => onOpenChange(false)} />
            <BusyButton busy={manual.isPending} icon={Upload}>
              Import Contacts
            </BusyButton>
          </DialogActions>
        </AdminForm>
      )}
    </AudienceDialog>
  );
}
