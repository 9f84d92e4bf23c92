import { ContactForm } from '../../components/contact/contact-form.tsx';
import { DialogFrame } from '../../components/dialog.tsx';
import { returnFocusTo as returnFocus } from '../../components/dialog-focus.ts';
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
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title="Request a Demo"
      description={
        useCase
          ? `Tell us about your business and we'll show you an AI voice agent for ${useCase.title.toLowerCase()}. We reply within 2 hours.`
          : "Tell us about your business and we'll show you an AI voice agent built around your calls. We reply within 2 hours."
      }
      size="ml"
      testId="request-demo-dialog"
      onCloseAutoFocus={returnFocus(returnFocusTo)}
    >
      <ContactForm
        idPrefix="use-cases-request"
        source={useCase ? `use_cases_${useCase.id}` : 'use_cases_hero'}
        submitLabel="Send Request"
        onSubmitted={() => onOpenChange(false)}
      />
    </DialogFrame>
  );
}
