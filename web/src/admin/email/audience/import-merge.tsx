import {
  DEFAULT_IMPORT_MERGE_MODE,
  IMPORT_MERGE_MODE_LABELS,
  IMPORT_MERGE_MODES,
  type ImportMergeMode,
  type ImportPreview,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { useMutation } from '@tanstack/react-query';
import { Eye, Loader2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { secondaryButton } from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';

/**
 * What an import does with contacts already in the book (issue 35: Mautic's and Brevo's
 * choices), and the preview that counts, before anything is saved, how many contacts each
 * choice changes. The default, fill, never loses a value.
 */

const DESCRIPTIONS: Record<ImportMergeMode, string> = {
  fill: 'Only fields that are empty now take the file’s values. Nothing saved is lost.',
  overwrite: 'The file’s values replace what is saved (empty cells never erase).',
  skip: 'Contacts already in the book are left as they are; only new addresses are added.',
};

/** What a preview was of: the parts of the input, a file by its name, size and date. */
export const previewKey = (...parts: Array<string | number | boolean | File | null | undefined>) =>
  JSON.stringify(
    parts.map((p) => (p instanceof File ? `${p.name}:${p.size}:${p.lastModified}` : (p ?? null))),
  );

/** The merge choice and its preview, kept in the dialog's state until the input changes. */
export function useMergeChoice(open: boolean, key: string, run: () => Promise<ImportPreview>) {
  const [mode, setMode] = useState<ImportMergeMode>(DEFAULT_IMPORT_MERGE_MODE);
  // Each opening of the dialog starts from the choice that loses nothing.
  useEffect(() => {
    if (!open) setMode(DEFAULT_IMPORT_MERGE_MODE);
  }, [open]);
  const preview = useMutation({ mutationFn: run });
  const { reset } = preview;
  // A preview describes one input: another file, text, book or encoding makes it stale.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what the preview was of
  useEffect(() => reset(), [key, reset]);
  return { mode, setMode, preview };
}

export function MergeChoice({
  choice,
  canPreview,
}: {
  choice: ReturnType<typeof useMergeChoice>;
  /** Why the preview cannot run yet (no file chosen, ...), or null. */
  canPreview: string | null;
}) {
  const id = useId();
  const { mode, setMode, preview } = choice;
  const p = preview.data;
  const effect = (m: ImportMergeMode) => {
    if (!p) return null;
    const e = p.modes[m];
    if (m === 'skip' || e.changed === 0) return 'changes no existing contact';
    return `changes ${plural(e.changed, 'contact', 'contacts')}${
      e.valuesReplaced ? `, ${plural(e.valuesReplaced, 'of them loses', 'of them lose')} a saved value` : ''
    }`;
  };
  return (
    <fieldset className="space-y-2" data-testid="import-merge-choice">
      <legend className="mb-1 text-sm font-medium text-slate-300">
        Contacts already in the address book
      </legend>
      {IMPORT_MERGE_MODES.map((m) => (
        <label
          key={m}
          className="flex cursor-pointer items-start gap-2 rounded-lg border border-navy-700 px-3 py-2 text-sm has-[:checked]:border-brand/60 has-[:checked]:bg-navy-800"
        >
          <input
            type="radio"
            name={`${id}-merge`}
            value={m}
            checked={mode === m}
            onChange={() => setMode(m)}
            className="mt-1 accent-brand"
            aria-describedby={`${id}-${m}-hint`}
          />
          <span>
            <span className="font-medium text-slate-100">{IMPORT_MERGE_MODE_LABELS[m]}</span>
            {m === DEFAULT_IMPORT_MERGE_MODE ? <span className="text-slate-400"> (recommended)</span> : null}
            <span id={`${id}-${m}-hint`} className="block text-xs text-slate-400">
              {DESCRIPTIONS[m]}
              {effect(m) ? (
                <span
                  className={`block font-medium ${p?.modes[m].valuesReplaced ? 'text-amber-200' : 'text-slate-200'}`}
                  data-testid={`import-merge-effect-${m}`}
                >
                  This file {effect(m)}.
                </span>
              ) : null}
            </span>
          </span>
        </label>
      ))}
      <div className="flex flex-wrap items-center gap-3 pt-1">
        <button
          type="button"
          className={secondaryButton}
          disabled={preview.isPending || canPreview !== null}
          aria-busy={preview.isPending}
          aria-describedby={canPreview ? `${id}-why` : undefined}
          onClick={() => preview.mutate()}
        >
          {preview.isPending ? (
            <Loader2 className="h-4 w-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          ) : (
            <Eye className="h-4 w-4" aria-hidden="true" />
          )}
          {preview.isPending ? 'Reading the file…' : 'Preview changes'}
        </button>
        {canPreview ? (
          // The problem itself is shown (and announced) at the file field; not said twice.
          <span id={`${id}-why`} className="text-xs text-slate-500">
            The preview needs a file the import can read.
          </span>
        ) : null}
      </div>
      <div role="status" aria-live="polite" className="text-sm" data-testid="import-preview">
        {preview.isError ? (
          <span className="text-red-300">{messageOr(preview.error, 'The preview failed.')}</span>
        ) : p ? (
          <span className="text-slate-300">
            Nothing is saved yet. {plural(p.newContacts, 'new contact', 'new contacts')} will be added;{' '}
            {plural(p.existing, 'address is', 'addresses are')} already in the book
            {p.repeated ? `; ${plural(p.repeated, 'repeated row is', 'repeated rows are')} skipped` : ''}
            {p.errorCount ? `; ${plural(p.errorCount, 'row has', 'rows have')} errors` : ''}.
          </span>
        ) : null}
      </div>
    </fieldset>
  );
}
