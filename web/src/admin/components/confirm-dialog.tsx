import * as Dialog from '@radix-ui/react-dialog';
import { Loader2 } from 'lucide-react';
import { type ReactNode, useRef } from 'react';
import { keepOpenOnToast } from '../../components/dialog-focus.ts';
import { dangerButton, secondaryButton } from './ui.tsx';

/**
 * A confirmation for a destructive action: an alert dialog whose safe choice (Cancel)
 * has the focus when it opens; Escape cancels.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pending,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/80 backdrop-blur-sm data-[state=open]:animate-fade-in" />
        <Dialog.Content
          role="alertdialog"
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            cancelRef.current?.focus();
          }}
          onInteractOutside={keepOpenOnToast}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-navy-700 bg-navy-900 p-6 shadow-2xl shadow-black/50 focus:outline-none data-[state=open]:animate-dialog-in"
        >
          <Dialog.Title className="text-lg font-semibold text-white">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-300">{description}</Dialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <button ref={cancelRef} type="button" className={secondaryButton}>
                Cancel
              </button>
            </Dialog.Close>
            <button
              type="button"
              className={dangerButton}
              disabled={pending}
              aria-busy={pending}
              onClick={onConfirm}
            >
              {pending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : null}
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
