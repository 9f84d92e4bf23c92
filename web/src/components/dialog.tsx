import * as Dialog from '@radix-ui/react-dialog';
import clsx from 'clsx';
import { X } from 'lucide-react';
import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { keepOpenOnToast, registerOpenDialog } from './dialog-focus.ts';

/** Widths of the centred dialogs. */
const SIZES = {
  sm: 'max-w-md',
  md: 'max-w-lg',
  ml: 'max-w-xl',
  lg: 'max-w-2xl',
  xl: 'max-w-3xl',
  /** The campaign preview's 768 px frame fits. */
  '2xl': 'max-w-5xl',
} as const;
export type DialogSize = keyof typeof SIZES;

const overlayClass = 'fixed inset-0 z-50 bg-navy-950/80 backdrop-blur-sm data-[state=open]:animate-fade-in';
const centredClass =
  'fixed top-1/2 left-1/2 z-50 w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-navy-700 bg-navy-900 shadow-2xl shadow-black/50 focus:outline-none data-[state=open]:animate-dialog-in';

/** The ✕ button of a dialog's header. */
export function DialogCloseButton() {
  return (
    <Dialog.Close
      aria-label="Close"
      className="rounded-lg p-1.5 text-slate-300 transition hover:bg-navy-700 hover:text-white"
    >
      <X className="h-5 w-5" aria-hidden="true" />
    </Dialog.Close>
  );
}

export interface DialogTitleProps {
  title: ReactNode;
  description: ReactNode;
  /** A small line above the title (the use case's industry). */
  eyebrow?: ReactNode;
  /** An icon beside the title block. */
  icon?: ReactNode;
  /** A line under the description. */
  note?: ReactNode;
}

/** A dialog's title (its accessible name), description and the ✕ button, without a frame. */
export function DialogTitleRow({ title, description, eyebrow, icon, note }: DialogTitleProps) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="flex min-w-0 items-start gap-3">
        {icon ? (
          <span className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand/15 text-brand">
            {icon}
          </span>
        ) : null}
        <div className="min-w-0">
          {eyebrow ? (
            <p className="text-xs font-semibold tracking-wider text-brand uppercase">{eyebrow}</p>
          ) : null}
          <Dialog.Title className="flex items-center gap-2 text-xl font-semibold text-white">
            {title}
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-300">{description}</Dialog.Description>
          {note}
        </div>
      </div>
      <DialogCloseButton />
    </div>
  );
}

/** A dialog's header: the title row over a rule. */
export function DialogHeader({ className, ...row }: DialogTitleProps & { className?: string }) {
  return (
    <div className={clsx('border-b border-navy-700 px-5 pt-5 pb-4', className)}>
      <DialogTitleRow {...row} />
    </div>
  );
}

export interface DialogFrameProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  children: ReactNode;
  /** sm 28rem, md 32rem (default), ml 36rem, lg 42rem, xl 48rem, 2xl 64rem. */
  size?: DialogSize;
  /**
   * 'form' (default): header with ✕, then a scrolling body. 'alert': an alertdialog for a
   * destructive choice (title, description, then `children`: the buttons), no ✕. 'custom':
   * `children` lay out the whole dialog and name it with DialogTitleRow (the booking flow,
   * whose header carries its step progress).
   */
  variant?: 'form' | 'alert' | 'custom';
  /** The header's eyebrow, icon and note (form dialogs). */
  header?: Pick<DialogTitleProps, 'eyebrow' | 'icon' | 'note'>;
  /** Gets the focus when the dialog opens (default: Radix's, the first focusable element). */
  initialFocus?: RefObject<HTMLElement | null>;
  onOpenAutoFocus?: (e: Event) => void;
  onCloseAutoFocus?: (e: Event) => void;
  /**
   * false: a click beside the dialog never closes it (a long form's work is not thrown away).
   * Either way a click on a toast above it never does.
   */
  closeOnOutsideClick?: boolean;
  /** The body keeps no bottom padding (its form's button row brings its own). */
  flushBottom?: boolean;
  testId?: string;
}

/**
 * The one dialog frame of the web, the public site's and the admin's: overlay, centred
 * content of a given size, title and description (the dialog's name and description for
 * assistive technology), a close button, a body that scrolls inside 94% of the viewport's
 * height; focus trapped while open and returned to the opener on close (Radix), a click on a
 * toast above it never closes it.
 */
export function DialogFrame({
  open,
  onOpenChange,
  title,
  description,
  children,
  size = 'md',
  variant = 'form',
  header,
  initialFocus,
  onOpenAutoFocus,
  onCloseAutoFocus,
  closeOnOutsideClick = true,
  flushBottom,
  testId,
}: DialogFrameProps) {
  const alert = variant === 'alert';
  // Known as open, so Escape reaches it even while a toast is above it (dialog-focus.ts).
  const close = useRef(onOpenChange);
  close.current = onOpenChange;
  useEffect(() => (open ? registerOpenDialog(() => close.current(false)) : undefined), [open]);
  const openFocus = initialFocus
    ? (e: Event) => {
        e.preventDefault();
        initialFocus.current?.focus();
      }
    : onOpenAutoFocus;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlayClass} />
        <Dialog.Content
          {...(alert ? { role: 'alertdialog' } : {})}
          {...(testId ? { 'data-testid': testId } : {})}
          {...(openFocus ? { onOpenAutoFocus: openFocus } : {})}
          {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
          onInteractOutside={closeOnOutsideClick ? keepOpenOnToast : (e) => e.preventDefault()}
          className={clsx(
            centredClass,
            SIZES[size],
            alert ? 'p-6' : 'flex max-h-[94vh] flex-col overflow-hidden',
          )}
        >
          {alert ? (
            <>
              <Dialog.Title className="text-lg font-semibold text-white">{title}</Dialog.Title>
              <Dialog.Description className="mt-2 text-sm text-slate-300">{description}</Dialog.Description>
              {children}
            </>
          ) : variant === 'custom' ? (
            children
          ) : (
            <>
              <DialogHeader title={title} description={description} className="sm:px-6" {...header} />
              <div className={clsx('overflow-y-auto px-5 pt-5 sm:px-6', !flushBottom && 'pb-5')}>
                {children}
              </div>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
