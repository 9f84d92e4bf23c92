import { type Static, Type } from 'typebox';
import { BOOKING_STATUSES, COMPANY_SIZES } from './enums.ts';
import { PageOffset, UuidId } from './http.ts';
import { literalUnion } from './schema.ts';

/** API contracts of the booking service (public booking + contact, admin management). */

export const MAX_GUESTS = 10;

const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
const IsoDateTime = Type.String({ format: 'date-time' });

export const BookingStatusSchema = literalUnion(BOOKING_STATUSES);

export const Guest = Type.Object(
  {
    name: Type.String({ maxLength: 200 }),
    email: Email,
  },
  { additionalProperties: false },
);
export type Guest = Static<typeof Guest>;

export const AvailableSlotsQuery = Type.Object({
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Local date YYYY-MM-DD' }),
});
export type AvailableSlotsQuery = Static<typeof AvailableSlotsQuery>;

export const AvailableSlotsResponse = Type.Object({ availableSlots: Type.Array(IsoDateTime) });
export type AvailableSlotsResponse = Static<typeof AvailableSlotsResponse>;

/**
 * GET /api/bookings/dates (chosen): the picker's dates (the window of the service's schedule,
 * from today, or tomorrow after the cut-off) with how many slots each still offers: 0 for a
 * day the schedule never works (a weekend by default), a day fully booked, or today's past.
 */
export const AvailableDatesResponse = Type.Object({
  dates: Type.Array(
    Type.Object({
      date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Local date YYYY-MM-DD' }),
      available: Type.Integer({ minimum: 0 }),
    }),
  ),
});
export type AvailableDatesResponse = Static<typeof AvailableDatesResponse>;

export const CreateBookingBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Email,
    phone: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
    company: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    timeSlot: IsoDateTime,
    notes: Type.Optional(Type.Union([Type.String({ maxLength: 5000 }), Type.Null()])),
    guests: Type.Optional(Type.Array(Guest, { maxItems: MAX_GUESTS })),
  },
  { additionalProperties: false },
);
export type CreateBookingBody = Static<typeof CreateBookingBody>;

export const Booking = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    phone: Type.Union([Type.String(), Type.Null()]),
    company: Type.Union([Type.String(), Type.Null()]),
    timeSlot: IsoDateTime,
    timeZone: Type.String(),
    status: BookingStatusSchema,
    notes: Type.Union([Type.String(), Type.Null()]),
    guests: Type.Array(Guest),
    createdAt: IsoDateTime,
  },
  { $id: 'Booking' },
);
export type Booking = Static<typeof Booking>;

export const BookingList = Type.Array(Booking);
export type BookingList = Static<typeof BookingList>;

export const BookingIdParams = Type.Object({ id: UuidId() });

export const UpdateBookingStatusBody = Type.Object(
  { status: BookingStatusSchema },
  { additionalProperties: false },
);
export type UpdateBookingStatusBody = Static<typeof UpdateBookingStatusBody>;

export const ContactBody = Type.Object(
  {
    firstName: Type.String({ minLength: 1, maxLength: 100 }),
    lastName: Type.String({ minLength: 1, maxLength: 100 }),
    email: Email,
    company: Type.String({ minLength: 1, maxLength: 200 }),
    companySize: Type.Optional(Type.Union([literalUnion(COMPANY_SIZES), Type.Literal(''), Type.Null()])),
    message: Type.Optional(Type.Union([Type.String({ maxLength: 5000 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type ContactBody = Static<typeof ContactBody>;

export const ContactRequest = Type.Object({
  id: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  company: Type.String(),
  companySize: Type.Union([Type.String(), Type.Null()]),
  message: Type.Union([Type.String(), Type.Null()]),
  createdAt: IsoDateTime,
});
export type ContactRequest = Static<typeof ContactRequest>;

export const ContactRequestsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  offset: PageOffset(),
});

export const ContactRequestPage = Type.Object({
  items: Type.Array(ContactRequest),
  total: Type.Integer(),
});
export type ContactRequestPage = Static<typeof ContactRequestPage>;

export const ContactAccepted = Type.Object({ success: Type.Literal(true), id: Type.String() });
