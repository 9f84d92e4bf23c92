/**
 * Events of the email service (payload schemas live in @parley/contracts).
 * Publishes nothing yet; consumes nothing yet.
 */
export const PUBLISHES = [] as const;
export const CONSUMES = [] as const;
