/**
 * Events of the settings service (payload schemas live in @parley/contracts):
 * publishes settings.setting.changed through the outbox with every change of a setting.
 * Consumes nothing yet.
 */
export const PUBLISHES = ['settings.setting.changed'] as const;
export const CONSUMES = [] as const;
