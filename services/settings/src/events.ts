/**
 * Events of the settings service (payload schemas live in @parley/contracts):
 * publishes settings.setting.changed through the outbox with every change of a setting
 * (repo/settings.repository.ts): a per-key `version` that grows by one with each change, the
 * value in clear for ordinary settings, and for a secret `value: null` with `sealedValue`
 * (AES-256-GCM with SETTINGS_ENCRYPTION_KEY, associated data = the key). Saving a setting
 * unchanged publishes nothing.
 */
export const PUBLISHES = ['settings.setting.changed'] as const;

/**
 * Consumes the platform's activity for feature discovery (services/settings/src/services/activity-projection.ts):
 * service.ts subscribes its durable to exactly these subjects. Each event is applied once
 * (the inbox, in the transaction of its effects); the durable's name carries the projection's
 * generation, so a fresh database reads every stream from its beginning and rebuilds it.
 */
export const CONSUMES = [
  'booking.booking.created',
  'booking.booking.status_changed',
  'voice.call.completed',
  'blog.post.published',
  'blog.post.unpublished',
  'blog.post.deleted',
  'email.address_book.created',
  'email.address_book.deleted',
  'email.import.completed',
  'email.campaign.sent',
  'email.newsletter.sent',
] as const;

/** The activity projection's durable consumer: `settings-activity-<generation>`. */
export const ACTIVITY_DURABLE_PREFIX = 'settings-activity';
