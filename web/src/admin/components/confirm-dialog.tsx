import * as Dialog from '@radix-ui/react-dialog';
import { Loader2 } from 'lucide-react';
import { type ReactNode, useRef } from 'react';
import { DialogFrame } from '../../components/dialog.tsx';
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
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      size="sm"
      variant="alert"
      initialFocus={cancelRef}
    >
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
    </DialogFrame>
  );
}
