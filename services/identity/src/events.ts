/**
 * Events of the identity service (payload schemas live in @parley/contracts), all through
 * the outbox in the same transaction as the change:
 * - identity.admin.invited: an admin was created; email sends the invitation link.
 * - identity.admin.deleted: an admin was deleted.
 * - identity.session.revoked: an admin's sessions ended (logout, password change,
 *   deactivation, deletion) or changed meaning (role change); session caches drop them.
 * Consumes nothing.
 */
export const PUBLISHES = [
  'identity.admin.invited',
  'identity.admin.deleted',
  'identity.session.revoked',
] as const;
export const CONSUMES = [] as const;
