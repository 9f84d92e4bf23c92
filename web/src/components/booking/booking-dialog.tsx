import { DialogFrame, DialogTitleRow } from '../dialog.tsx';
import { BookingFlowView } from './booking-flow.tsx';
import { useBookingFlow } from './use-booking-flow.ts';

const TITLE = 'Book a 15-minute demo';
const DESCRIPTION =
  "Pick a date and time that suits you and we'll walk you through a live AI voice agent. All times are shown in Eastern Time (EST).";

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
    <DialogFrame
      open={open}
      onOpenChange={setOpen}
      title={TITLE}
      description={DESCRIPTION}
      size="lg"
      variant="custom"
      testId="booking-modal"
    >
      <BookingFlowView
        flow={flow}
        headerClassName="border-b border-navy-700 px-5 pt-5 pb-4 sm:px-6"
        bodyClassName="overflow-y-auto px-5 py-5 focus:outline-none sm:px-6"
        header={<DialogTitleRow title={TITLE} description={DESCRIPTION} />}
      />
    </DialogFrame>
  );
}
