import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { ContactForm } from '../../components/contact/contact-form.tsx';
import { keepOpenOnToast, returnFocusTo as returnFocus } from '../../components/dialog-focus.ts';
import type { UseCase } from './use-cases.ts';

/**
 * The Use Cases page's demo request dialog (spec §2): the contact form's fields, posted to
 * POST /api/contact, with its validation, 'Submitting...' and toasts. It closes itself after a
 * successful request. A separate chunk, loaded when the page is idle or at the first opening.
 */
export default function RequestDemoDialog({
  useCase,
  open,
  onOpenChange,
  returnFocusTo,
}: {
  /** The card it was opened from; none for the hero's button. */
  useCase?: UseCase;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened it, which gets focus back on close (there is no Dialog.Trigger). */
  returnFocusTo?: HTMLElement | null;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/80 backdrop-blur-sm data-[state=open]:animate-fade-in" />
        <Dialog.Content
          data-testid="request-demo-dialog"
          onCloseAutoFocus={returnFocus(returnFocusTo)}
          onInteractOutside={keepOpenOnToast}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[92vh] w-[calc(100vw-1.5rem)] max-w-xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-navy-700 bg-navy-900 shadow-2xl shadow-black/50 focus:outline-none data-[state=open]:animate-dialog-in"
        >
          <header className="flex items-start justify-between gap-4 border-b border-navy-700 px-5 pt-5 pb-4 sm:px-6">
            <div>
              <Dialog.Title className="text-xl font-semibold text-white">Request a Demo</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-slate-300">
                {useCase
                  ? `Tell us about your business and we'll show you an AI voice agent for ${useCase.title.toLowerCase()}. We reply within 2 hours.`
                  : "Tell us about your business and we'll show you an AI voice agent built around your calls. We reply within 2 hours."}
              </Dialog.Description>
            </div>
            <Dialog.Close
              aria-label="Close"
              className="rounded-lg p-1.5 text-slate-300 transition hover:bg-navy-700 hover:text-white"
            >
              <X className="h-5 w-5" aria-hidden="true" />
            </Dialog.Close>
          </header>
          <div className="overflow-y-auto px-5 py-5 sm:px-6">
            <ContactForm
              idPrefix="use-cases-request"
              source={useCase ? `use_cases_${useCase.id}` : 'use_cases_hero'}
              submitLabel="Send Request"
              onSubmitted={() => onOpenChange(false)}
            />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
