import {
  type AddressBook,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_FILE_BYTES,
  type ImportEncoding,
  importSummary,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { DialogFrame } from '../../../../components/dialog.tsx';
import { toast } from '../../../../components/toast/index.ts';
import { AdminForm } from '../../../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  FieldError,
  inputClass,
  primaryButton,
  secondaryButton,
} from '../../../components/ui.tsx';
import { BOOK_IMPORT_PATH, previewFileImport, useAddressBooks } from '../api.ts';
import { MergeChoice, previewKey, useMergeChoice } from '../import-merge.tsx';
import {
  EncodingSelect,
  encodingField,
  ImportOutcome,
  ImportProgressPanel,
  useImport,
} from '../import-progress.tsx';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Checks a chosen file before anything is sent: .csv or .xlsx, not empty, within the limit. */
export function fileProblem(file: File | null, formats: 'csv' | 'csv-xlsx'): string | null {
  if (!file) return formats === 'csv' ? 'Please choose a CSV file.' : 'Please choose a .csv or .xlsx file.';
  const name = file.name.toLowerCase();
  const ok = name.endsWith('.csv') || (formats === 'csv-xlsx' && name.endsWith('.xlsx'));
  if (!ok)
    return formats === 'csv'
      ? 'Only .csv files can be imported.'
      : 'Only .csv or .xlsx files can be imported.';
  if (file.size === 0) return 'The file is empty.';
  if (file.size > IMPORT_MAX_FILE_BYTES)
    return `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`;
  return null;
}

/**
 * Import Contacts into one address book (admin back office §2): a .csv or .xlsx file with the
 * columns Name, Email, Phone, Address, Category, Website, Rating, Reviews, Description (or
 * email, firstName, lastName, company, phone), live progress, cancel, and the outcome.
 */
export function BookImportDialog({
  book,
  open,
  onOpenChange,
}: {
  book: AddressBook | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [encoding, setEncoding] = useState<ImportEncoding>('auto');
  const merge = useMergeChoice(open, previewKey(file, book?.id, encoding, open), () =>
    previewFileImport(file as File, { addressBookId: String(book?.id), ...encodingField(encoding) }),
  );
  const imp = useImport(book?.id ?? null, open, {
    complete: (r) => toast({ title: 'Import Complete', description: importSummary(r) }),
    failed: (message) =>
      toast({
        variant: 'destructive',
        title: 'Import Failed',
        description: `Failed to import contacts: ${message || 'Import failed'}`,
      }),
  });
  const { state } = imp;
  // The book as it is now (an import just finished changes its count), not as it was at opening.
  const books = useAddressBooks();
  const live = books.data?.find((b) => b.id === book?.id) ?? book;

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next && state.kind !== 'running') {
      imp.reset();
      setFile(null);
      setProblem(null);
    }
  };

  return (
    <DialogFrame
      open={open}
      onOpenChange={close}
      title="Import Contacts"
      description={live ? `Into "${live.name}" (${plural(live.contactCount, 'contact')} now).` : ''}
    >
      {state.kind === 'running' ? (
        <ImportProgressPanel state={state} job={imp.job} onCancel={() => void imp.cancel()} />
      ) : state.kind === 'idle' ? (
        <AdminForm
          onSubmit={() => {
            const p = fileProblem(file, 'csv-xlsx');
            setProblem(p);
            if (p) return [p];
            if (!file || !book) return;
            void imp.start(BOOK_IMPORT_PATH, file, {
              addressBookId: String(book.id),
              ...encodingField(encoding),
              mergeMode: merge.mode,
            });
          }}
          className="space-y-4"
        >
          <div>
            <label htmlFor={fileId} className="mb-1 block text-sm font-medium text-slate-300">
              Contacts file (.csv or .xlsx)
            </label>
            <input
              id={fileId}
              type="file"
              accept={ACCEPT}
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${fileId}-hint${problem ? ` ${fileId}-error` : ''}`}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setProblem(null);
              }}
              className={`${inputClass} file:mr-3 file:rounded-md file:border-0 file:bg-navy-700 file:px-3 file:py-1 file:text-sm file:text-slate-100`}
            />
            <p id={`${fileId}-hint`} className="mt-1 text-xs text-slate-500">
              Columns: Name, Email, Phone, Address, Category, Website, Rating, Reviews, Description (or email,
              firstName, lastName, company, phone). The first row names the columns; Email is required.
              Addresses already in the book are never re-subscribed.
            </p>
            <FieldError id={`${fileId}-error`} message={problem ?? undefined} />
          </div>
          <EncodingSelect
            id={`${fileId}-encoding`}
            label="Text encoding of a CSV"
            value={encoding}
            onChange={setEncoding}
          />
          <MergeChoice choice={merge} canPreview={fileProblem(file, 'csv-xlsx')} />
          <DialogActions>
            <CancelButton onCancel={() => close(false)} />
            <BusyButton busy={false} icon={Upload}>
              Import
            </BusyButton>
          </DialogActions>
        </AdminForm>
      ) : (
        <div className="space-y-4">
          <ImportOutcome state={state} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              type="button"
              className={secondaryButton}
              onClick={() => {
                imp.reset();
                setFile(null);
              }}
            >
              Import another file
            </button>
            <button type="button" className={primaryButton} onClick={() => close(false)}>
              Done
            </button>
          </div>
        </div>
      )}
    </DialogFrame>
  );
}
