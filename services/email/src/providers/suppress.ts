import type { ServiceDeps } from '@parley/kit';

type Logger = ServiceDeps['logger'];

/**
 * The audience half's suppression list: `suppress(address, reason, source)` marks the
 * address's contacts in every address book and publishes `email.contact.unsubscribed`
 * (src/repo/suppressions.repository.ts, owned by the audience half). Loaded at start when that
 * module is present; until then the mail half still records the unsubscribe or bounce on its
 * own tables (mail_address_states, email_tracking) and says so in the log.
 */
export type SuppressReason = 'unsubscribed' | 'bounced';
export type Suppress = (address: string, reason: SuppressReason, source: string) => Promise<void>;

export async function loadSuppress(logger: Logger, ...context: unknown[]): Promise<Suppress> {
  const url = new URL('../repo/suppressions.repository.ts', import.meta.url).href;
  const mod = (await import(url).catch(() => null)) as Record<string, unknown> | null;
  const fn = mod?.suppress;
  if (typeof fn === 'function') {
    // The audience half's function takes its context first when it declares more parameters.
    return fn.length > 3
      ? (address, reason, source) => fn(...context, address, reason, source)
      : (address, reason, source) => fn(address, reason, source);
  }
  logger.warn(
    'the audience suppression list is not available yet; unsubscribes are kept in the mail tables only',
  );
  return async (address, reason, source) => {
    logger.info(
      { reason, source, domain: address.split('@')[1] },
      'suppression recorded by the mail half only',
    );
  };
}
