import type { MergeCheckResponse } from '@parley/contracts';
import { AlertTriangle, Loader2 } from 'lucide-react';
import { type RefObject, useId } from 'react';
import { FieldError } from '../../components/ui.tsx';

/**
 * The send dialogs' pre-send check of merge fields (issue 35): how many of the real recipients
 * will see a blank where a field without a fallback is ("212 of 8,000 recipients have no company
 * and no fallback: they will see nothing there"), with a box to tick before sending; in test
 * mode, what the test addresses (who have no contact data) will see.
 */

/** Whether the check holds warnings that must be acknowledged before sending. */
export const needsAcknowledgement = (check: MergeCheckResponse | undefined) =>
  Boolean(check?.warnings.length);

export function MergeCheckPanel({
  check,
  loading,
  failed,
  acknowledged,
  onAcknowledge,
  error,
  checkboxRef,
}: {
  check: MergeCheckResponse | undefined;
  loading: boolean;
  failed: boolean;
  acknowledged: boolean;
  onAcknowledge: (on: boolean) => void;
  /** Shown under the box when a send was tried without it. */
  error: string | null;
  checkboxRef: RefObject<HTMLInputElement | null>;
}) {
  const id = useId();
  if (loading)
    return (
      <p className="flex items-center gap-2 text-xs text-slate-400" role="status">
        <Loader2 className="h-3.5 w-3.5 animate-spin" aria-hidden="true" />
        Checking the merge fields against the recipients…
      </p>
    );
  if (failed)
    return (
      <p className="text-xs text-amber-200" role="status">
        The merge fields could not be checked against the recipients; check the preview with "A recipient with
        missing fields" before sending.
      </p>
    );
  if (!check || (!check.warnings.length && !check.testNote)) return null;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-lg border border-amber-400/50 bg-amber-400/10 px-3 py-2 text-sm text-amber-100"
      data-testid="merge-check"
    >
      {check.warnings.length ? (
        <>
          <h3 id={`${id}-title`} className="flex items-center gap-2 font-medium text-amber-50">
            <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden="true" />
            Empty merge fields
          </h3>
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {check.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
          <p className="mt-1 text-xs text-amber-200">
            Edit the campaign to give these fields a fallback ({'{{company|your team}}'}), or send as it is.
          </p>
          <label className="mt-2 flex items-start gap-2">
            <input
              ref={checkboxRef}
              type="checkbox"
              className="mt-0.5 h-4 w-4 accent-cyan-500"
              checked={acknowledged}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => onAcknowledge(e.target.checked)}
            />
            <span>I understand: these recipients will see nothing where those fields are.</span>
          </label>
          <FieldError id={`${id}-error`} message={error ?? undefined} />
        </>
      ) : (
        <h3 id={`${id}-title`} className="sr-only">
          Merge fields in test mode
        </h3>
      )}
      {check.testNote ? <p className="mt-1 text-xs text-amber-200">{check.testNote}</p> : null}
    </section>
  );
}
