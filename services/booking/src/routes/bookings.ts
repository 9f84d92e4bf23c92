import {
  AvailableDatesResponse,
  AvailableSlotsQuery,
  AvailableSlotsResponse,
  availableSlots,
  Booking,
  BookingIdParams,
  BookingList,
  bookableDates,
  CreateBookingBody,
  ErrorBody,
  parseDate,
  type ScheduleConfig,
  slotsOfDate,
  UpdateBookingStatusBody,
} from '@parley/contracts';
import { badRequest, conflict, notFound, type ServiceDeps, type ServiceInstance } from '@parley/kit';
import { parseNewBooking } from '../domain/booking-rules.ts';
import { type BookingRepository, SlotTakenError } from '../repo/bookings.repository.ts';

export interface BookingRoutesOptions {
  repo: BookingRepository;
  schedule: ScheduleConfig;
  deps: ServiceDeps;
  publicWriteLimit: number;
  now: () => Date;
}

const SLOT_TAKEN = 'This time slot has just been booked by someone else. Please select a different time.';

export async function bookingRoutes(app: ServiceInstance, opts: BookingRoutesOptions) {
  const { repo, schedule, deps, now } = opts;

  app.get(
    '/api/bookings/available',
    {
      schema: {
        querystring: AvailableSlotsQuery,
        response: { 200: AvailableSlotsResponse, 400: ErrorBody },
      },
    },
    async (request, reply) => {
      const { date } = request.query;
      if (!parseDate(date)) throw badRequest('date must be a calendar date in the form YYYY-MM-DD');
      const current = now();
      reply.header('cache-control', 'no-store');
      if (!bookableDates(current, schedule).includes(date)) return { availableSlots: [] };
      const all = slotsOfDate(date, schedule);
      const first = all[0];
      const last = all[all.length - 1];
      if (!first || !last) return { availableSlots: [] };
      const taken = await repo.takenSlots(first, new Date(last.getTime() + 1));
      return { availableSlots: availableSlots(date, current, taken, schedule).map((d) => d.toISOString()) };
    },
  );

  // The picker's dates with their free slots, so it never offers a day that has none.
  app.get(
    '/api/bookings/dates',
    { schema: { response: { 200: AvailableDatesResponse } } },
    async (_request, reply) => {
      const current = now();
      reply.header('cache-control', 'no-store');
      const dates = bookableDates(current, schedule);
      const all = dates.flatMap((d) => slotsOfDate(d, schedule));
      const first = all[0];
      const last = all[all.length - 1];
      const taken =
        first && last ? await repo.takenSlots(first, new Date(last.getTime() + 1)) : new Set<number>();
      return {
        dates: dates.map((date) => ({
          date,
          available: availableSlots(date, current, taken, schedule).length,
        })),
      };
    },
  );

  app.post(
    '/api/bookings',
    {
      schema: { body: CreateBookingBody, response: { 201: Booking, 400: ErrorBody, 409: ErrorBody } },
      config: { rateLimit: { max: opts.publicWriteLimit, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const input = parseNewBooking(request.body, now(), schedule);
      try {
        const booking = await repo.create(input);
        request.log.info({ bookingId: booking.id }, 'booking created');
        return reply.status(201).send(booking);
      } catch (err) {
        if (err instanceof SlotTakenError) throw conflict(SLOT_TAKEN);
        throw err;
      }
    },
  );

  app.get(
    '/api/bookings',
    { onRequest: deps.auth.admin, schema: { response: { 200: BookingList } } },
    async () => repo.list(),
  );

  app.patch(
    '/api/bookings/:id/status',
    {
      onRequest: deps.auth.admin,
      schema: {
        params: BookingIdParams,
        body: UpdateBookingStatusBody,
        response: { 200: Booking, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      try {
        const booking = await repo.updateStatus(request.params.id, request.body.status);
        if (!booking) throw notFound('Booking not found');
        return booking;
      } catch (err) {
        if (err instanceof SlotTakenError) throw conflict('Another booking now holds this time slot.');
        throw err;
      }
    },
  );
}
