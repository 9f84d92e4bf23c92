import type { CreateBookingBody } from '@parley/contracts';
import { isValidUsPhone } from '@parley/contracts/phone';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { apiRequest, errorMessage, errorStatus } from '../../lib/api.ts';
import { isEmail } from '../../lib/email.ts';
import { toast } from '../toast/index.ts';
import { type DetailsValues, EMPTY_DETAILS } from './details-step.tsx';
import type { BookingStep } from './stepper.tsx';
import { AVAILABLE_SLOTS_PATH } from './time-step.tsx';

export const BOOKING_CONFIRMED_DESCRIPTION =
  "Your demo has been scheduled. You will receive a confirmation email shortly. If you don't see it within 5 minutes, please check your spam folder.";

export interface BookingFlow {
  step: BookingStep;
  date: string | null;
  slot: string | null;
  details: DetailsValues;
  setDetails: (next: DetailsValues) => void;
  goTo: (step: BookingStep) => void;
  pickDate: (date: string) => void;
  pickSlot: (slot: string) => void;
  submit: () => void;
  pending: boolean;
}

/**
 * State and rules of the three-step booking flow (spec §2 "Booking modal", §4, §5, §8):
 * Date → Time → Details, validation toasts, POST /api/bookings, and on success the
 * 'Booking Confirmed!' toast, fresh slots and a reset to the date step. It is a hook, not a
 * component, so the modal can keep it above the dialog's content (progress survives a close)
 * while the book-demo page renders the same flow inline (`BookingFlowView`).
 */
export function useBookingFlow({
  source,
  onBooked,
}: {
  /** Where the flow is shown, reported with the form_submit and booking events. */
  source: string;
  /** Called after a successful booking (the modal closes itself with it). */
  onBooked?: () => void;
}): BookingFlow {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<BookingStep>('date');
  const [date, setDate] = useState<string | null>(null);
  const [slot, setSlot] = useState<string | null>(null);
  const [details, setDetails] = useState<DetailsValues>(EMPTY_DETAILS);

  const reset = () => {
    setStep('date');
    setDate(null);
    setSlot(null);
    setDetails(EMPTY_DETAILS);
  };

  const booking = useMutation({
    mutationFn: (body: CreateBookingBody) => apiRequest('POST', '/api/bookings', body),
    onSuccess: async () => {
      trackEvent('booking', { category: 'conversion', label: source });
      toast({ title: 'Booking Confirmed!', description: BOOKING_CONFIRMED_DESCRIPTION });
      await queryClient.invalidateQueries({
        predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith(AVAILABLE_SLOTS_PATH),
      });
      reset();
      onBooked?.();
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
    if (booking.isPending) return;
    const name = details.name.trim();
    const email = details.email.trim();
    if (!name || !email || !slot) {
      toast({ title: 'Missing Information', description: 'Please fill in all required fields.' });
      return;
    }
    if (!isEmail(email)) {
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
    if (guests.some((g) => !isEmail(g.email))) {
      toast({
        title: 'Invalid Guest',
        description: 'Please enter a valid email for each guest, or remove the row.',
      });
      return;
    }
    trackEvent('form_submit', { category: 'booking', label: source });
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

  return {
    step,
    date,
    slot,
    details,
    setDetails,
    goTo: setStep,
    pickDate: (d) => {
      // Spec §4: picking a date clears any chosen time.
      setDate(d);
      setSlot(null);
      setStep('time');
    },
    pickSlot: (s) => {
      setSlot(s);
      setStep('details');
    },
    submit,
    pending: booking.isPending,
  };
}
