/**
 * Events of the booking service (payload schemas live in @parley/contracts):
 * publishes booking.booking.created, booking.booking.status_changed and
 * booking.contact.submitted through the outbox; consumes nothing yet.
 */
export const PUBLISHES = [
  'booking.booking.created',
  'booking.booking.status_changed',
  'booking.contact.submitted',
] as const;
export const CONSUMES = [] as const;
