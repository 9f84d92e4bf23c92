import type { CreateBookingBody } from '@parley/contracts';
import { isValidUsPhone } from '@parley/contracts/phone';
import { bookableDates } from '@parley/contracts/schedule';
import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { apiRequest, errorMessage, errorStatus } from '../../lib/api.ts';
import { toast } from '../toast/index.ts';
import { DateStep } from './date-step.tsx';
import { DetailsStep, type DetailsValues, EMPTY_DETAILS } from './details-step.tsx';
import { type BookingStep, Stepper } from './stepper.tsx';
import { AVAILABLE_SLOTS_PATH, TimeStep } from './time-step.tsx';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const BOOKING_CONFIRMED_DESCRIPTION =
  "Your demo has been scheduled. You will receive a confirmation email shortly. If you don't see it within 5 minutes, please check your spam folder.";

/**
 * The three-step booking dialog (spec §2 "Booking modal", §4, §5, §8): Date → Time → Details.
 * Loaded and mounted by `BookingModal`; progress survives an accidental close, and a
 * successful booking resets it to the date step and closes the dialog.
 */
export default function BookingDialog({
  open,
  setOpen,
}: {
  open: boolean;
  setOpen: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<BookingStep>('date');
  const [date, setDate] = useState<string | null>(null);
  const [slot, setSlot] = useState<string | null>(null);
  const [details, setDetails] = useState<DetailsValues>(EMPTY_DETAILS);
  const stepRef = useRef<HTMLDivElement>(null);
  const moved = useRef(false);

  // Recomputed at every opening so the 8 PM Eastern cut-over is honoured on a long-lived page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `open` is the intended trigger.
  const dates = useMemo(() => bookableDates(new Date()), [open]);

  // Keyboard and screen-reader users land on the new step's content after a step change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on step changes only.
  useEffect(() => {
    if (moved.current) stepRef.current?.focus();
    moved.current = false;
  }, [step]);

  const goTo = (next: BookingStep) => {
    moved.current = true;
    setStep(next);
  };

  const pickDate = (d: string) => {
    setDate(d);
    setSlot(null);
    goTo('time');
  };

  const reset = () => {
    setStep('date');
    setDate(null);
    setSlot(null);
    setDetails(EMPTY_DETAILS);
  };

  const booking = useMutation({
    mutationFn: (body: CreateBookingBody) => apiRequest('POST', '/api/bookings', body),
    onSuccess: async () => {
      toast({ title: 'Booking Confirmed!', description: BOOKING_CONFIRMED_DESCRIPTION });
      await queryClient.invalidateQueries({
        predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith(AVAILABLE_SLOTS_PATH),
      });
      reset();
      setOpen(false);
    },
    onError: (err) => {
      toast({
        variant: 'destructive',
        title: 'Booking Failed',
        description:
          (errorStatus(err) !== undefined ? errorMessage(err) : undefined) ??
          'Please try again or select a different time.',
      });
    },
  });

  const submit = () => {
    const name = details.name.trim();
    const email = details.email.trim();
    if (!name || !email || !slot) {
      toast({ title: 'Missing Information', description: 'Please fill in all required fields.' });
      return;
    }
    if (!EMAIL_RE.test(email)) {
      toast({ title: 'Invalid Email', description: 'Please enter a valid email address.' });
      return;
    }
    if (details.phone && !isValidUsPhone(details.phone)) {
      toast({ title: 'Invalid Phone Number', description: 'Please enter a 10-digit US phone number.' });
      return;
    }
    const guests = details.guests
      .map((g) => ({ name: g.name.trim(), email: g.email.trim() }))
      .filter((g) => g.name || g.email);
    if (guests.some((g) => !EMAIL_RE.test(g.email))) {
      toast({
        title: 'Invalid Guest',
        description: 'Please enter a valid email for each guest, or remove the row.',
      });
      return;
    }
    booking.mutate({
      name,
      email,
      phone: details.phone || null,
      company: details.company.trim() || null,
      timeSlot: slot,
      notes: details.notes.trim() || null,
      guests,
    });
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/80 backdrop-blur-sm data-[state=open]:animate-fade-in" />
        <Dialog.Content
          data-testid="booking-modal"
          onInteractOutside={(e) => {
            // Dismissing or swiping a toast must not close the dialog behind it.
            if (e.target instanceof Element && e.target.closest('[data-testid="toasts"]')) e.preventDefault();
          }}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[92vh] w-[calc(100vw-1.5rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-navy-700 bg-navy-900 shadow-2xl shadow-black/50 focus:outline-none data-[state=open]:animate-dialog-in"
        >
          <div className="border-b border-navy-700 px-5 pt-5 pb-4 sm:px-6">
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
            <div className="mt-4">
              <Stepper
                step={step}
                canVisit={(s) => s === 'date' || (s === 'time' && date !== null)}
                onVisit={goTo}
              />
            </div>
          </div>

          <div ref={stepRef} tabIndex={-1} className="overflow-y-auto px-5 py-5 focus:outline-none sm:px-6">
            {step === 'time' && date ? (
              <TimeStep
                date={date}
                selected={slot}
                onSelect={(s) => {
                  setSlot(s);
                  goTo('details');
                }}
                onChangeDate={() => goTo('date')}
              />
            ) : step === 'details' && date && slot ? (
              <DetailsStep
                date={date}
                slot={slot}
                values={details}
                onChange={setDetails}
                onChangeDate={() => goTo('date')}
                onChangeTime={() => goTo('time')}
                onSubmit={submit}
                pending={booking.isPending}
              />
            ) : (
              <DateStep dates={dates} selected={date} onSelect={pickDate} />
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
