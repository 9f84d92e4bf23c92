import type pg from 'pg';
import { BOOK_SELECT } from '../audience/address-books.repository.ts';

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
 * The figures of the Deliverability tab, each in one statement:
 * - contacts from the address books' maintained counts (columns + pending deltas, exact and
 *   independent of the number of contacts: no scan of email_contacts);
 * - campaign mail from email_tracking in one pass (all-time and the window with FILTER): a
 *   parallel sequential scan, about 0.5 s per million tracked campaign mails on two cores.
 * A mail counts as sent once the transport accepted it (`sent_at`) or a bounce proves it left;
 * it belongs to the window by that time.
 */
export class DeliverabilityRepository {
  constructor(private readonly pool: pg.Pool) {}

  async counts(windowStart: Date, includeTest = false): Promise<DeliverabilityCounts> {
    const [contacts, mail] = await Promise.all([
      this.pool.query<{ total: string; unsubscribed: string; bounced: string }>({
        name: 'deliverability_contacts',
        text: `SELECT coalesce(sum(contact_count), 0) AS total, coalesce(sum(unsubscribed_count), 0) AS unsubscribed,
                      coalesce(sum(bounced_count), 0) AS bounced
               FROM (${BOOK_SELECT}) b`,
      }),
      this.pool.query<Record<string, string>>({
        name: includeTest ? 'deliverability_mail_all' : 'deliverability_mail',
        text: `SELECT
            count(*) FILTER (WHERE coalesce(t."sent_at", t."bounced_at") IS NOT NULL) AS sent,
            count(t."bounced_at") AS bounced,
            count(t."complained_at") AS complained,
            count(t."unsubscribed_at") AS unsubscribed,
            count(t."opened_at") AS opened,
            count(t."clicked_at") AS clicked,
            count(*) FILTER (WHERE t."status" = 'failed') AS failed,
            count(*) FILTER (WHERE coalesce(t."sent_at", t."bounced_at") >= $1) AS w_sent,
            count(t."bounced_at") FILTER (WHERE coalesce(t."sent_at", t."bounced_at") >= $1) AS w_bounced,
            count(t."complained_at") FILTER (WHERE coalesce(t."sent_at", t."bounced_at") >= $1) AS w_complained,
            count(t."unsubscribed_at") FILTER (WHERE coalesce(t."sent_at", t."bounced_at") >= $1) AS w_unsubscribed,
            count(t."opened_at") FILTER (WHERE coalesce(t."sent_at", t."bounced_at") >= $1) AS w_opened,
            count(t."clicked_at") FILTER (WHERE coalesce(t."sent_at", t."bounced_at") >= $1) AS w_clicked,
            count(*) FILTER (WHERE t."status" = 'failed' AND t."updated_at" >= $1) AS w_failed
          FROM "email_tracking" t
          WHERE t."campaign_id" IS NOT NULL ${includeTest ? '' : 'AND t."test_mode" = false'}`,
        values: [windowStart],
      }),
    ]);
    const c = contacts.rows[0];
    const total = n(c?.total);
    const unsubscribed = n(c?.unsubscribed);
    const bounced = n(c?.bounced);
    const m = mail.rows[0] ?? {};
    const totals = (prefix: string): MailTotals => ({
      sent: n(m[`${prefix}sent`]),
      bounced: n(m[`${prefix}bounced`]),
      complained: n(m[`${prefix}complained`]),
      unsubscribed: n(m[`${prefix}unsubscribed`]),
      opened: n(m[`${prefix}opened`]),
      clicked: n(m[`${prefix}clicked`]),
      failed: n(m[`${prefix}failed`]),
    });
    return {
      contacts: { total, unsubscribed, bounced, active: Math.max(0, total - unsubscribed - bounced) },
      overall: totals(''),
      window: totals('w_'),
    };
  }

  /** Sender domains of campaigns sent in the window or under way (at most `limit`, most used first). */
  async campaignSenderDomains(windowStart: Date, limit = 4): Promise<string[]> {
    const { rows } = await this.pool.query<{ domain: string }>({
      name: 'deliverability_sender_domains',
      text: `SELECT lower(split_part("from_email", '@', 2)) AS domain
             FROM "email_campaigns"
             WHERE "sent_at" >= $1 OR "status" IN ('scheduled', 'sending', 'paused')
             GROUP BY 1 HAVING lower(split_part("from_email", '@', 2)) <> ''
             ORDER BY count(*) DESC, 1 LIMIT $2`,
      values: [windowStart, limit],
    });
    return rows.map((r) => r.domain);
  }
}
