import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { keepOpenOnToast } from '../../components/dialog-focus.ts';

/**
 * The dialog frame of the audience and campaign screens (address books, import, contact
 * details, campaign dialogs): title, description, a close button, scrolling content; a click
 * on a toast above it never closes it.
 */
export function AudienceDialog({
  open,
  onOpenChange,
  title,
  description,
  wide,
  children,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  /** true: 2xl; 'xl': 5xl (the campaign preview's 768 px frame fits). */
  wide?: boolean | 'xl';
  children: ReactNode;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/80 backdrop-blur-sm data-[state=open]:animate-fade-in" />
        <Dialog.Content
          onInteractOutside={keepOpenOnToast}
          {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
          className={`fixed top-1/2 left-1/2 z-50 flex max-h-[94vh] w-[calc(100vw-1.5rem)] ${
            wide === 'xl' ? 'max-w-5xl' : wide ? 'max-w-2xl' : 'max-w-lg'
          } -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-navy-700 bg-navy-900 shadow-2xl shadow-black/50 focus:outline-none data-[state=open]:animate-dialog-in`}
        >
          <div className="flex items-start justify-between gap-4 border-b border-navy-700 px-5 pt-5 pb-4 sm:px-6">
            <div className="min-w-0">
              <Dialog.Title className="text-xl font-semibold text-white">{title}</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-slate-400">{description}</Dialog.Description>
            </div>
            <Dialog.Close
              aria-label="Close"
              className="rounded-lg p-1.5 text-slate-400 transition hover:bg-navy-700 hover:text-white"
            >
              <X className="h-5 w-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <div className="overflow-y-auto px-5 py-5 sm:px-6">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
