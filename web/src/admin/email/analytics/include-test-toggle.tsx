import { useId } from 'react';

/**
 * The reports' "Include test mail" box (issue 35): every report counts live mail only; mail of
 * test-mode sends (to the saved test addresses) is counted only when this is ticked.
 */
export function IncludeTestToggle({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="text-sm">
      <label className="flex items-center gap-2 text-slate-200">
        <input
          type="checkbox"
          className="h-4 w-4 accent-cyan-500"
          checked={checked}
          aria-describedby={`${id}-hint`}
          onChange={(e) => onChange(e.target.checked)}
        />
        Include test mail
      </label>
      <p id={`${id}-hint`} className="sr-only">
        Test-mode sends go to the saved test addresses only; they are left out of the figures unless this is
        ticked.
      </p>
    </div>
  );
}

/** A report's URL, asking for test mail too when `includeTest`. */
export const withTest = (url: string, includeTest: boolean) =>
  includeTest ? `${url}${url.includes('?') ? '&' : '?'}includeTest=true` : url;

/** What a report counted, for its subtitle. */
export const mailCounted = (includesTestMail: boolean) =>
  includesTestMail ? 'live and test mail' : 'live mail only (test mail left out)';
