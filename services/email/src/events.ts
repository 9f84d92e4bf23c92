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
  'email.campaign.sent',
  // A newsletter's send finished (instead of email.campaign.sent for its companion campaign).
  'email.newsletter.sent',
] as const;
/**
 * Mail: the settings copy (SMTP, sender, brand, support address, test mode) and the
 * transactional mails (booking confirmation and cancellation with .ics, booking and contact
 * notifications, admin invitation); see src/features/delivery/index.ts and transactional.service.ts.
 */
export const CONSUMES = [
  'settings.setting.changed',
  'booking.booking.created',
  'booking.booking.status_changed',
  'booking.contact.submitted',
  'identity.admin.invited',
  // The copy of the blog's posts that newsletters are made from (src/features/newsletters/blog-copy.ts).
  'blog.post.published',
  'blog.post.updated',
  'blog.post.unpublished',
  'blog.post.deleted',
] as const;
