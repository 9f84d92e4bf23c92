/**
 * Events of the email service (payload schemas live in @parley/contracts).
 * Audience: address book created/deleted, import completed, contact unsubscribed and
 * re-subscribed, all through the outbox.
 */
export const PUBLISHES = [
  'email.address_book.created',
  'email.address_book.deleted',
  'email.import.completed',
  'email.contact.unsubscribed',
  'email.contact.resubscribed',
] as const;
export const CONSUMES = [] as const;
