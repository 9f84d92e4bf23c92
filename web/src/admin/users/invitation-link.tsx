import type { CreateAdminUserResponse } from '@parley/contracts';
import { Check, Copy, Link2, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { formatShortDateTime } from '../../lib/time.ts';
import { inputClass, primaryButton } from '../components/ui.tsx';

/** The invitation link as an absolute address (the server may answer a path). */
export function absoluteLink(url: string): string {
  try {
    return new URL(url, window.location.origin).href;
  } catch {
    return url;
  }
}

/**
 * The one-time invitation link of a new admin, with a copy button. It lives only in the
 * screen's memory: once dismissed (or the screen left) it cannot be shown again.
 */
export function InvitationLink({
  created,
  onDismiss,
}: {
  created: CreateAdminUserResponse;
  onDismiss: () => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState(false);
  const link = absoluteLink(created.invitationUrl);

  useEffect(() => {
    panelRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(t);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // No clipboard access (http, permissions): select the text for a manual copy.
      inputRef.current?.select();
    }
  };

  return (
    <section
      ref={panelRef}
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      data-testid="invitation-link"
      className="mb-6 rounded-2xl border border-brand/40 bg-brand/10 p-4 focus:outline-none sm:p-5"
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 id={`${id}-title`} className="flex items-center gap-2 font-semibold text-white">
            <Link2 className="h-4 w-4 text-brand" aria-hidden="true" />
            Invitation link for {created.user.firstName} {created.user.lastName}
          </h2>
          <p className="mt-1 text-sm text-cyan-100/80">
            An invitation was emailed to {created.user.email}. This link is shown only once; it expires{' '}
            {formatShortDateTime(created.invitationExpiresAt)}.
          </p>
        </div>
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss invitation link"
          className="rounded-lg p-1.5 text-slate-300 transition hover:bg-navy-700 hover:text-white"
        >
          <X className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <label htmlFor={`${id}-link`} className="sr-only">
          Invitation link
        </label>
        <input
          ref={inputRef}
          id={`${id}-link`}
          readOnly
          value={link}
          onFocus={(e) => e.currentTarget.select()}
          className={`${inputClass} font-mono text-xs`}
        />
        <button type="button" onClick={() => void copy()} className={`${primaryButton} shrink-0`}>
          {copied ? (
            <Check className="h-4 w-4" aria-hidden="true" />
          ) : (
            <Copy className="h-4 w-4" aria-hidden="true" />
          )}
          {copied ? 'Copied' : 'Copy Link'}
        </button>
      </div>
      <p className="sr-only" aria-live="polite">
        {copied ? 'Invitation link copied to the clipboard' : ''}
      </p>
    </section>
  );
}
