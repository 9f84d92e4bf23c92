/**
 * Events of the voice service (payload schemas live in @parley/contracts), through the outbox
 * with the conversation's change (repo/calls.repository.ts): a call placed (started) and a
 * call that ended (completed, with its outcome); settings counts them for feature discovery.
 * Consumes nothing.
 */
export const PUBLISHES = ['voice.call.started', 'voice.call.completed'] as const;
export const CONSUMES = [] as const;
