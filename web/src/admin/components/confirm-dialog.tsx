import * as Dialog from '@radix-ui/react-dialog';
import { Loader2 } from 'lucide-react';
import { type ReactNode, useRef } from 'react';
import { DialogFrame } from '../../components/dialog.tsx';
import { dangerButton, primaryButton, secondaryButton } from './ui.tsx';

/**
 * A confirmation for a destructive action: an alert dialog whose safe choice (Cancel, or what
 * `cancelLabel` says it keeps) has the focus when it opens; Escape chooses it. `tone` 'primary'
 * for a confirmation that destroys nothing (re-subscribing a contact).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'danger',
  pending,
  confirmDisabled,
  onConfirm,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** The safe choice's label: say what it keeps when "Cancel" would be ambiguous. */
  cancelLabel?: string;
  tone?: 'danger' | 'primary';
  pending?: boolean;
  /** The confirm button waits for something (a consent ticked). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  /** More text between the description and the buttons. */
  children?: ReactNode;
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
      {children}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Dialog.Close asChild>
          <button ref={cancelRef} type="button" className={secondaryButton}>
            {cancelLabel}
          </button>
        </Dialog.Close>
        <button
          type="button"
          className={tone === 'danger' ? dangerButton : primaryButton}
          disabled={pending || confirmDisabled}
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
