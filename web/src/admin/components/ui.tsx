import clsx from 'clsx';
import { AlertCircle, Loader2, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** Shared look of the admin screens: the public site's navy surfaces and cyan accent. */

export const inputClass =
  'w-full rounded-lg border border-navy-600 bg-navy-800 px-3 py-2 text-sm text-white placeholder:text-slate-500 transition focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40 aria-invalid:border-red-400 disabled:opacity-60';
export const selectClass = `${inputClass} appearance-auto pr-8`;
export const labelClass = 'mb-1 block text-sm font-medium text-slate-300';
export const primaryButton =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-brand px-4 py-2 text-sm font-semibold text-navy-950 shadow-sm shadow-cyan-500/20 transition hover:bg-brand-strong disabled:cursor-not-allowed disabled:opacity-60';
export const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-navy-600 px-3 py-2 text-sm text-slate-200 transition hover:border-brand/70 hover:text-white disabled:cursor-not-allowed disabled:opacity-50';
export const dangerButton =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white transition hover:bg-red-500 disabled:cursor-not-allowed disabled:opacity-60';
export const cardClass = 'rounded-2xl border border-navy-700 bg-navy-900';

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-white sm:text-3xl">{title}</h1>
        {description ? <p className="mt-1 text-sm text-slate-400">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

export function StatCard({
  label,
  value,
  icon: Icon,
  hint,
}: {
  label: string;
  value: ReactNode;
  icon: LucideIcon;
  hint?: ReactNode;
}) {
  return (
    <div className={clsx(cardClass, 'p-4 sm:p-5')} data-testid="stat-card">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-medium text-slate-400">{label}</p>
        <Icon className="h-5 w-5 text-brand" aria-hidden="true" />
      </div>
      <p className="mt-2 text-3xl font-bold text-white tabular-nums">{value}</p>
      {/* slate-400: 4.5:1 on the card (slate-500 failed axe's contrast check). */}
      {hint ? <p className="mt-1 text-xs text-slate-400">{hint}</p> : null}
    </div>
  );
}

export function Badge({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span
      className={clsx(
        'inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        className ?? 'border-navy-600 bg-navy-800 text-slate-300',
      )}
    >
      {children}
    </span>
  );
}

export function LoadingState({ label }: { label: string }) {
  return (
    <p role="status" className="flex items-center justify-center gap-2 py-12 text-sm text-slate-400">
      <Loader2 className="h-4 w-4 animate-spin text-brand" aria-hidden="true" />
      {label}
    </p>
  );
}

export function ErrorState({
  title,
  message,
  onRetry,
}: {
  title: string;
  message?: string;
  onRetry?: () => void;
}) {
  return (
    <div role="alert" className="rounded-2xl border border-red-500/40 bg-red-500/10 p-6 text-center">
      <p className="flex items-center justify-center gap-2 text-sm font-medium text-red-200">
        <AlertCircle className="h-4 w-4" aria-hidden="true" />
        {title}
      </p>
      {message ? <p className="mt-1 text-sm text-red-200/80">{message}</p> : null}
      {onRetry ? (
        <button
          type="button"
          onClick={onRetry}
          className="mt-3 rounded-lg border border-red-400/50 px-3 py-1.5 text-sm text-red-100 hover:bg-red-500/20"
        >
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function EmptyState({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className={clsx(cardClass, 'flex flex-col items-center px-6 py-12 text-center')}>
      <Icon className="h-10 w-10 text-slate-500" aria-hidden="true" />
      <p className="mt-3 text-lg font-semibold text-white">{title}</p>
      {children ? <p className="mt-1 max-w-md text-sm text-slate-400">{children}</p> : null}
    </div>
  );
}

/** A red alert for a form's failure (login, password change): announced at once. */
export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div
      role="alert"
      data-form-error=""
      className="flex items-start gap-2 rounded-lg border border-red-500/50 bg-red-500/10 px-3 py-2 text-sm text-red-200 focus:outline-none"
    >
      <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <span>{message}</span>
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message?: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-xs text-red-300">
      {message}
    </p>
  );
}

/** The buttons at the foot of a dialog: stacked on a phone (the main action on top), in a row on the right otherwise. */
export function DialogActions({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={clsx('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)}>
      {children}
    </div>
  );
}

/** A dialog's Cancel: closes it, changing nothing. */
export function CancelButton({ onCancel }: { onCancel: () => void }) {
  return (
    <button type="button" className={secondaryButton} onClick={onCancel}>
      Cancel
    </button>
  );
}

/** A button whose action is running: a spinner instead of its icon, and no second click. */
export function BusyButton({
  busy,
  icon: Icon,
  children,
  className = primaryButton,
  type = 'submit',
  onClick,
}: {
  busy: boolean;
  icon?: LucideIcon;
  children: ReactNode;
  className?: string;
  type?: 'submit' | 'button';
  onClick?: () => void;
}) {
  return (
    <button type={type} className={className} disabled={busy} aria-busy={busy} onClick={onClick}>
      {busy ? (
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
      ) : Icon ? (
        <Icon className="h-4 w-4" aria-hidden="true" />
      ) : null}
      {children}
    </button>
  );
}

/**
 * A progress bar (0–100) with its accessible name; `percent` null is an indeterminate start
 * (a sliver shows that work has begun).
 */
export function ProgressBar({
  label,
  percent,
  className,
}: {
  label: string;
  percent: number | null;
  className?: string;
}) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      className={clsx('h-2 overflow-hidden rounded-full bg-navy-800', className)}
    >
      <div
        className="h-full rounded-full bg-brand transition-[width] duration-300"
        style={{ width: `${percent ?? 5}%` }}
      />
    </div>
  );
}
