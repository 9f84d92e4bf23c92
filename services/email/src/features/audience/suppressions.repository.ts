import type { Contact, SuppressionReason } from '@parley/contracts';
import { enqueueEvent, inTransaction, pgExecutor } from '@parley/kit';
import { sql } from 'kysely';
import type pg from 'pg';
import type { EmailContext } from '../../context.ts';
import { db, execute, firstRow, rows } from '../../shared/sql.ts';
import { CONTACT_COLUMNS, type ContactRow, toContact } from './contacts.repository.ts';
import { emailKey, normalizeEmail } from './domain/contacts.ts';

/**
 * The suppression list: an address that unsubscribed, bounced hard or complained is not
 * mailed again, in any book, and a re-import never brings it back; only an admin's
 * Re-subscribe does. The mail half calls `suppress` (unsubscribe links, List-Unsubscribe,
 * bounce and complaint notifications); the admin route calls `resubscribe`.
 */

export interface SuppressResult {
  /** The address was not suppressed before this call. */
  created: boolean;
  /** Contacts (any book) that were active and are now unsubscribed or bounced. */
  contactIds: number[];
}

const isDeadlock = (err: unknown) => ['40P01', '40001'].includes((err as { code?: string })?.code ?? '');

/** The contacts with an address, active or not, locked in id order (the subquery of an UPDATE ... FROM). */
function lockedContacts(key: string, which: 'active' | 'inactive') {
  return db
    .selectFrom('email_contacts')
    .select('id')
    .where('email_key', '=', key)
    .where('status', which === 'active' ? '=' : '<>', 'active')
    .orderBy('id')
    .forUpdate();
}

/** Retries a transaction a few times when PostgreSQL chose it as a deadlock victim. */
async function retrying<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isDeadlock(err) || attempt >= 4) throw err;
      await new Promise((r) => setTimeout(r, 20 * attempt));
    }
  }
}

/**
 * Suppresses `address` (any case) for `reason`, reported by `source`: records it (the first
 * reason is kept), marks every active contact with it unsubscribed (bounced for a bounce),
 * and, for an unsubscribe, publishes `email.contact.unsubscribed` through the outbox, all in
 * one transaction. Repeating it changes nothing and publishes nothing new.
 */
export async function suppressAddress(
  pool: pg.Pool,
  address: string,
  reason: SuppressionReason,
  source: string,
): Promise<SuppressResult> {
  const key = emailKey(normalizeEmail(address) ?? address.trim());
  if (!key.includes('@')) throw new Error(`not an email address: ${address}`);
  return retrying(() =>
    inTransaction(pool, async (client) => {
      const inserted = await firstRow(
        client,
        db
          .insertInto('email_suppressions')
          .values({ address: key, reason, source: source.slice(0, 100) })
          .onConflict((oc) => oc.column('address').doNothing())
          .returning('created_at'),
      );
      const status = reason === 'bounced' ? 'bounced' : 'unsubscribed';
      // Rows locked in id order: two suppressions of addresses sharing books never deadlock.
      const changed = await rows(
        client,
        db
          .updateTable('email_contacts as c')
          .from(lockedContacts(key, 'active').as('t'))
          .set({ status, unsubscribed_at: sql`now()`, updated_at: sql`now()` })
          .whereRef('c.id', '=', 't.id')
          .returning(['c.id', 'c.address_book_id']),
      );
      const created = inserted !== undefined;
      const contactIds = changed.map((r) => Number(r.id)).sort((a, b) => a - b);
      if (reason === 'unsubscribed' && (created || contactIds.length)) {
        await enqueueEvent(pgExecutor(client), 'email.contact.unsubscribed', {
          address: key,
          reason,
          source,
          contactIds,
          addressBookIds: [...new Set(changed.map((r) => r.address_book_id))].sort((a, b) => a - b),
          unsubscribedAt: (inserted?.created_at ?? new Date()).toISOString(),
        });
      }
      return { created, contactIds };
    }),
  );
}

/**
 * The mail half's entry point (src/features/delivery/suppress.ts loads it): `suppress(address,
 * reason, source)` bound to the service's context.
 */
export async function suppress(
  ctx: EmailContext,
  address: string,
  reason: SuppressionReason,
  source: string,
): Promise<SuppressResult> {
  return suppressAddress(ctx.deps.pool, address, reason, source);
}

export class ContactNotFoundError extends Error {
  override name = 'ContactNotFoundError';
}

/**
 * An admin's Re-subscribe of a contact: its address leaves the suppression list and every
 * contact with it (in any book) becomes active again, with `email.contact.resubscribed`.
 * A contact that is active already is returned as it is.
 */
export async function resubscribeContact(
  pool: pg.Pool,
  contactId: number,
  by: string | null,
): Promise<{ contact: Contact; reactivated: number }> {
  return retrying(() =>
    inTransaction(pool, async (client) => {
      const target = await firstRow(
        client,
        db.selectFrom('email_contacts').select(['email_key', 'status']).where('id', '=', String(contactId)),
      );
      if (!target) throw new ContactNotFoundError();
      const removed = await execute(
        client,
        db.deleteFrom('email_suppressions').where('address', '=', target.email_key),
      );
      const reactivated = await rows(
        client,
        db
          .updateTable('email_contacts as c')
          .from(lockedContacts(target.email_key, 'inactive').as('t'))
          .set({ status: 'active', unsubscribed_at: null, subscribed_at: sql`now()`, updated_at: sql`now()` })
          .whereRef('c.id', '=', 't.id')
          .returning('c.id'),
      );
      if (reactivated.length || removed) {
        await enqueueEvent(pgExecutor(client), 'email.contact.resubscribed', {
          address: target.email_key,
          contactIds: reactivated.map((r) => Number(r.id)).sort((a, b) => a - b),
          resubscribedAt: new Date().toISOString(),
          by,
        });
      }
      const after = await client.query<ContactRow>(
        `SELECT ${CONTACT_COLUMNS} FROM "email_contacts" c WHERE c."id" = $1`,
        [contactId],
      );
      const row = after.rows[0];
      if (!row) throw new ContactNotFoundError();
      return { contact: toContact(row), reactivated: reactivated.length };
    }),
  );
}

/** `resubscribe(contactId)` bound to the service's context (for the mail half and tests). */
export async function resubscribe(
  ctx: EmailContext,
  contactId: number,
  by: string | null = null,
): Promise<{ contact: Contact; reactivated: number }> {
  return resubscribeContact(ctx.deps.pool, contactId, by);
}

/** Whether an address is suppressed, and why. */
export async function suppressionOf(
  pool: pg.Pool,
  address: string,
): Promise<{ reason: SuppressionReason; source: string; createdAt: string } | null> {
  const r = await firstRow(
    pool,
    db
      .selectFrom('email_suppressions')
      .select(['reason', 'source', 'created_at'])
      .where('address', '=', emailKey(normalizeEmail(address) ?? address.trim())),
  );
  return r ? { reason: r.reason, source: r.source, createdAt: r.created_at.toISOString() } : null;
}
