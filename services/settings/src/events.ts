/**
 * Events of the settings service (payload schemas live in @parley/contracts):
 * publishes settings.setting.changed through the outbox with every change of a setting
 * (repo/settings.repository.ts): a per-key `version` that grows by one with each change, the
 * value in clear for ordinary settings, and for a secret `value: null` with `sealedValue`
 * (AES-256-GCM with SETTINGS_ENCRYPTION_KEY, associated data = the key). Saving a setting
 * unchanged publishes nothing. Consumes nothing yet.
 */
export const PUBLISHES = ['settings.setting.changed'] as const;
export const CONSUMES = [] as const;
