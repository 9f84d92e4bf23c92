import type { SuppressionReason } from '@parley/contracts';
import type { EmailContext } from '../../context.ts';
import { suppress as suppressInAudience } from '../audience/suppressions.repository.ts';

/**
 * The audience half's suppression list, as the mail half uses it: `suppress(address, reason,
 * source)` records the address, marks its contacts in every address book (unsubscribed, or
 * bounced) and, for an unsubscribe, publishes `email.contact.unsubscribed`. Repeats are no-ops.
 */
export type SuppressReason = SuppressionReason;
export type Suppress = (address: string, reason: SuppressReason, source: string) => Promise<void>;

export function audienceSuppress(ctx: EmailContext): Suppress {
  return async (address, reason, source) => {
    await suppressInAudience(ctx, address, reason, source);
  };
}
