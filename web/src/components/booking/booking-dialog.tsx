import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { keepOpenOnToast } from '../dialog-focus.ts';
import { BookingFlowView } from './booking-flow.tsx';
import { useBookingFlow } from './use-booking-flow.ts';

/**
 * The three-step booking dialog (spec §2 "Booking modal", §4, §5, §8): Date → Time → Details.
 * Loaded and mounted by `BookingModal`; the flow's state lives here, above the dialog's
 * content, so progress survives an accidental close, and a successful booking resets it to
 * the date step and closes the dialog.
 */
export default function BookingDialog({
  open,
  setOpen,
}: {
  open: boolean;
  setOpen: (open: boolean) => void;
}) {
  const flow = useBookingFlow({ source: 'booking_modal', onBooked: () => setOpen(false) });

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/80 backdrop-blur-sm data-[state=open]:animate-fade-in" />
        <Dialog.Content
          data-testid="booking-modal"
          onInteractOutside={keepOpenOnToast}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[92vh] w-[calc(100vw-1.5rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-navy-700 bg-navy-900 shadow-2xl shadow-black/50 focus:outline-none data-[state=open]:animate-dialog-in"
        >
          <BookingFlowView
            flow={flow}
            headerClassName="border-b border-navy-700 px-5 pt-5 pb-4 sm:px-6"
            bodyClassName="overflow-y-auto px-5 py-5 focus:outline-none sm:px-6"
            header={
              <div className="flex items-start justify-between gap-4">
                <div>
                  <Dialog.Title className="text-xl font-semibold text-white">
                    Book a 15-minute demo
                  </Dialog.Title>
                  <Dialog.Description className="mt-1 text-sm text-slate-400">
                    Pick a date and time that suits you and we'll walk you through a live AI voice agent. All
                    times are shown in Eastern Time (EST).
                  </Dialog.Description>
                </div>
                <Dialog.Close
                  aria-label="Close"
                  className="rounded-lg p-1.5 text-slate-400 transition hover:bg-navy-700 hover:text-white"
                >
                  <X className="h-5 w-5" aria-hidden="true" />
                </Dialog.Close>
              </div>
            }
          />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
