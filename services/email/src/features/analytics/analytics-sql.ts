import { type MailCounts, NO_MAIL } from './domain/analytics.ts';

/**
 * The SQL both analytics repositories (campaign-reports.repository.ts and
 * period-analytics.repository.ts) build on. Every figure comes from the campaign mails'
 * tracking rows (`email_tracking`, one per mail, `campaign_id` = the campaign's id as text) and
 * their events (`email_events`); each answer is a handful of set-based statements, never a
 * query per row. Only ids of real campaigns count (joined to `email_campaigns`), so other
 * senders' tracking rows (transactional mail) never leak in.
 */

/** The aggregates of a set of tracking rows, in the MailCounts order. */
export const COUNTS = `
  count(*) FILTER (WHERE t."sent_at" IS NOT NULL)::int AS sent,
  count(*) FILTER (WHERE t."sent_at" IS NOT NULL AND t."bounced_at" IS NOT NULL)::int AS bounced,
  count(*) FILTER (WHERE t."opened_at" IS NOT NULL)::int AS opened,
  count(*) FILTER (WHERE t."opened_at" IS NULL AND t."proxy_open_count" > 0)::int AS proxy_only,
  count(*) FILTER (WHERE t."clicked_at" IS NOT NULL)::int AS clicked,
  count(*) FILTER (WHERE t."opened_at" IS NOT NULL OR t."clicked_at" IS NOT NULL)::int AS engaged,
  count(*) FILTER (WHERE t."unsubscribed_at" IS NOT NULL)::int AS unsubscribed,
  count(*) FILTER (WHERE t."complained_at" IS NOT NULL)::int AS complained`;

export interface CountsRow {
  sent: number;
  bounced: number;
  opened: number;
  proxy_only: number;
  clicked: number;
  engaged: number;
  unsubscribed: number;
  complained: number;
}

export const countsOf = (r: CountsRow | undefined): MailCounts =>
  r
    ? {
        sent: r.sent,
        bounced: r.bounced,
        opened: r.opened,
        proxyOnly: r.proxy_only,
        clicked: r.clicked,
        engaged: r.engaged,
        unsubscribed: r.unsubscribed,
        complained: r.complained,
      }
    : { ...NO_MAIL };

/**
 * Live mail only, unless test mail is asked for: the tracking rows' `test_mode` is the second
 * column of their campaign index, so the filter narrows the index scan itself.
 */
export const liveOnly = (includeTest: boolean, alias = 't') =>
  includeTest ? '' : `AND ${alias}."test_mode" = false`;
/** The sends whose campaigns a period reads (a test-mode send only when test mail is asked for). */
export const liveSends = (includeTest: boolean) => (includeTest ? '' : 'AND NOT s."test_mode"');

/** Which kind of mailing an email_campaigns row is (a newsletter's sends run as a campaign). */
export const KIND = `CASE WHEN c."newsletter_id" IS NULL THEN 'campaign' ELSE 'newsletter' END`;
