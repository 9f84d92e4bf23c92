import { sql } from 'kysely';
import type pg from 'pg';
import { mailRollup } from '../../shared/rollups-sql.ts';
import { db, firstRow, rows } from '../../shared/sql.ts';
import { selectBooks } from '../audience/address-books.repository.ts';

/**
 * Campaign mail: every tracking row of a campaign send (test mails of a draft have no campaign
 * id); the mail of test-mode sends only when asked for.
 */
export interface MailTotals {
  sent: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
  opened: number;
  clicked: number;
  failed: number;
}

export interface DeliverabilityCounts {
  contacts: { total: number; active: number; unsubscribed: number; bounced: number };
  /** All campaign mail ever sent. */
  overall: MailTotals;
  /** Campaign mail sent since the window's start (by the time it was sent). */
  window: MailTotals;
}

const n = (v: string | number | null | undefined) => Number(v ?? 0);

/**
 * Campaign mail from the mail rollup (ADR 0067) in one pass: all-time counts, and the window's
 * (prefix `w_`) by the quarter-hour a mail left (accepted by the transport, or proved sent by a
 * bounce) or, if it failed, failed. The window starts at its quarter-hour.
 */
function mailTotals(windowStart: Date, includeTest: boolean) {
  const counters = {
    sent: sql`${sql.ref('r.sent')} + ${sql.ref('r.unsent_bounced')}`,
    bounced: sql`${sql.ref('r.bounced')} + ${sql.ref('r.unsent_bounced')}`,
    complained: sql.ref('r.complained'),
    unsubscribed: sql.ref('r.unsubscribed'),
    opened: sql.ref('r.opened'),
    clicked: sql.ref('r.clicked'),
    failed: sql.ref('r.failed'),
  };
  const inWindow = sql`${sql.ref('r.quarter')} >= "email_quarter"(${windowStart}::timestamptz)`;
  return mailRollup(includeTest).select(
    Object.entries(counters).flatMap(([name, value]) => [
      sql<string>`coalesce(sum(${value}), 0)`.as(name as keyof MailTotals),
      sql<string>`coalesce(sum(${value}) FILTER (WHERE ${inWindow}), 0)`.as(
        `w_${name as keyof MailTotals}` as const,
      ),
    ]),
  );
}

/**
 * The figures of the Deliverability tab, each in one statement:
 * - contacts from the address books' maintained counts (columns + pending deltas, exact and
 *   independent of the number of contacts: no scan of email_contacts);
 * - campaign mail from the mail rollup in one pass (all-time and the window with FILTER): a
 *   few rows per campaign and quarter-hour, however many mails.
 * A mail counts as sent once the transport accepted it (`sent_at`) or a bounce proves it left;
 * it belongs to the window by that time.
 */
export class DeliverabilityRepository {
  constructor(private readonly pool: pg.Pool) {}

  async counts(windowStart: Date, includeTest = false): Promise<DeliverabilityCounts> {
    const [c, m] = await Promise.all([
      firstRow(
        this.pool,
        db
          .selectFrom(selectBooks().as('b'))
          .select((eb) => [
            sql<string>`coalesce(sum(${eb.ref('b.contact_count')}), 0)`.as('total'),
            sql<string>`coalesce(sum(${eb.ref('b.unsubscribed_count')}), 0)`.as('unsubscribed'),
            sql<string>`coalesce(sum(${eb.ref('b.bounced_count')}), 0)`.as('bounced'),
          ]),
        'deliverability_contacts',
      ),
      firstRow(
        this.pool,
        mailTotals(windowStart, includeTest),
        includeTest ? 'deliverability_mail_all' : 'deliverability_mail',
      ),
    ]);
    const total = n(c?.total);
    const unsubscribed = n(c?.unsubscribed);
    const bounced = n(c?.bounced);
    const totals = (prefix: '' | 'w_'): MailTotals => ({
      sent: n(m?.[`${prefix}sent`]),
      bounced: n(m?.[`${prefix}bounced`]),
      complained: n(m?.[`${prefix}complained`]),
      unsubscribed: n(m?.[`${prefix}unsubscribed`]),
      opened: n(m?.[`${prefix}opened`]),
      clicked: n(m?.[`${prefix}clicked`]),
      failed: n(m?.[`${prefix}failed`]),
    });
    return {
      contacts: { total, unsubscribed, bounced, active: Math.max(0, total - unsubscribed - bounced) },
      overall: totals(''),
      window: totals('w_'),
    };
  }

  /** Sender domains of campaigns sent in the window or under way (at most `limit`, most used first). */
  async campaignSenderDomains(windowStart: Date, limit = 4): Promise<string[]> {
    const domain = sql<string>`lower(split_part(${sql.ref('from_email')}, '@', 2))`;
    const found = await rows(
      this.pool,
      db
        .selectFrom('email_campaigns')
        .select(domain.as('domain'))
        .where((eb) =>
          eb.or([eb('sent_at', '>=', windowStart), eb('status', 'in', ['scheduled', 'sending', 'paused'])]),
        )
        .groupBy(sql`1`)
        .having(domain, '<>', '')
        .orderBy(sql`count(*)`, 'desc')
        .orderBy(sql`1`)
        .limit(limit),
      'deliverability_sender_domains',
    );
    return found.map((r) => r.domain);
  }
}
