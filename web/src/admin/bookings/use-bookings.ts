import type { Booking, BookingList, BookingStatus } from '@parley/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import {
  adminQueryRetry,
  adminRequest,
  BOOKINGS_PATH,
  isPasswordChangeRequired,
  isUnauthorized,
  messageOr,
} from '../lib/api.ts';

/** The current time, refreshed every `everyMs` (Upcoming badges and the time windows move on). */
export function useNow(everyMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/** All bookings (admin); a load failure toasts 'Failed to fetch bookings' (spec §8). */
export function useBookings() {
  const query = useQuery<BookingList>({ queryKey: [BOOKINGS_PATH], ...adminQueryRetry });
  const { isError, error } = query;
  useEffect(() => {
    if (!isError || isUnauthorized(error) || isPasswordChangeRequired(error)) return;
    toast({
      variant: 'destructive',
      title: 'Failed to fetch bookings',
      description: messageOr(error, 'Please try again.'),
    });
  }, [isError, error]);
  return query;
}

/** Status change from a booking card, with the spec's toasts (§8). */
export function useUpdateBookingStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: BookingStatus }) =>
      adminRequest<Booking>('PATCH', `${BOOKINGS_PATH}/${encodeURIComponent(id)}/status`, { status }),
    onSuccess: (updated) => {
      queryClient.setQueryData<BookingList>([BOOKINGS_PATH], (list) =>
        list?.map((b) => (b.id === updated.id ? updated : b)),
      );
      toast({ title: 'Status updated', description: 'Booking status has been updated successfully.' });
    },
    onError: (err) => {
      toast({
        variant: 'destructive',
        title: 'Update failed',
        description: messageOr(err, 'Failed to update booking status'),
      });
    },
  });
}
