import {
  type CampaignStatus,
  ENGAGEMENT_REPORT_LIMIT,
  type EngagementClick,
  type EngagementOpen,
  type MailingKind,
} from '@parley/contracts';
import { notFound } from '@parley/kit';
import { sql } from 'kysely';
import type pg from 'pg';
import { mailRollup } from '../../shared/rollups-sql.ts';
import { db, firstRow, rows } from '../../shared/sql.ts';
import { countsOf, KIND, mailCounts } from './analytics-sql.ts';
import type { MailCounts } from './domain/analytics.ts';

/**
 * The reports of campaigns (all time): every launched campaign's totals (the Analytics tab),
 * the totals of given campaigns (a newsletter's analytics), from the mail rollup; and one
 * campaign's engagement report (who opened, who clicked), its lists from the tracking rows.
 * The shared SQL is in analytics-sql.ts and shared/rollups-sql.ts.
 */

/** Live mail only, unless test mail is asked for (test_mode is the campaign index's second column). */
const liveOnly = (includeTest: boolean) => (includeTest ? '' : 'AND t."test_mode" = false');

export interface CampaignTotals {
  id: number;
  name: string;
  kind: MailingKind;
  status: CampaignStatus;
  sentAt: string | null;
  recipients: number;
  counts: MailCounts;
}

export class CampaignReportsRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Every launched campaign with its mails' totals (all time), newest first. */
  async campaignTotals(includeTest = false): Promise<CampaignTotals[]> {
    const found = await rows(
      this.pool,
      db
        .with('a', () =>
          mailRollup(includeTest)
            .select(['r.campaign_id', ...mailCounts()])
            .groupBy('r.campaign_id'),
        )
        .selectFrom('email_campaigns as c')
        .leftJoin('a', 'a.campaign_id', 'c.id')
        .select((eb) => [
          'c.id',
          'c.name',
          KIND.as('kind'),
          sql<CampaignStatus>`c."status"::text`.as('status'),
          'c.sent_at',
          'c.total_recipients',
          ...(
            [
              'sent',
              'bounced',
              'opened',
              'proxyOnly',
              'clicked',
              'engaged',
              'unsubscribed',
              'complained',
            ] as const
          ).map((k) => eb.fn.coalesce(`a.${k}`, eb.lit(0)).as(k)),
        ])
        .where((eb) =>
          eb.or([eb('c.status', '<>', sql.lit('draft')), eb(eb.fn.coalesce('a.sent', eb.lit(0)), '>', 0)]),
        )
        .orderBy(sql`coalesce(c."sent_at", c."updated_at")`, 'desc')
        .orderBy('c.id', 'desc'),
      includeTest ? 'analytics_campaign_totals_all' : 'analytics_campaign_totals',
    );
    return found.map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      status: r.status,
      sentAt: r.sent_at?.toISOString() ?? null,
      recipients: r.total_recipients,
      counts: countsOf(r),
    }));
  }

  /** The mails' totals of the given campaigns (all time; a campaign without mail: none). */
  async countsByCampaign(ids: number[], includeTest = false): Promise<Map<number, MailCounts>> {
    const out = new Map<number, MailCounts>();
    if (!ids.length) return out;
    const found = await rows(
      this.pool,
      mailRollup(includeTest)
        .select(['r.campaign_id', ...mailCounts()])
        .where((eb) => eb('r.campaign_id', '=', eb.fn.any(eb.val(ids))))
        .groupBy('r.campaign_id'),
    );
    for (const r of found) out.set(r.campaign_id, countsOf(r));
    return out;
  }

  async campaign(
    id: number,
  ): Promise<{ id: number; name: string; status: CampaignStatus; sentAt: string | null }> {
    const { rows } = await this.pool.query<{
      id: number;
      name: string;
      status: CampaignStatus;
      sent_at: Date | null;
    }>(`SELECT "id", "name", "status"::text AS status, "sent_at" FROM "email_campaigns" WHERE "id" = $1`, [
      id,
    ]);
    const r = rows[0];
    if (!r) throw notFound('Campaign not found');
    return { id: r.id, name: r.name, status: r.status, sentAt: r.sent_at?.toISOString() ?? null };
  }

  /** One campaign's totals and its newest opens, proxy-only opens and clicks (at most `limit` each). */
  async engagement(
    campaignId: number,
    limit = ENGAGEMENT_REPORT_LIMIT,
    includeTest = false,
  ): Promise<{
    counts: MailCounts;
    opens: EngagementOpen[];
    proxyOpens: EngagementOpen[];
    clicks: EngagementClick[];
    truncated: { opens: boolean; proxyOpens: boolean; clicks: boolean };
  }> {
    const id = String(campaignId);
    // Names as they were at send time (the recipient row), so a later edit or deletion of the
    // contact does not rewrite who received the mail.
    const person = `t."email", t."contact_id", r."first_name", r."last_name", r."company"`;
    const from = `FROM "email_tracking" t LEFT JOIN "email_campaign_recipients" r ON r."tracking_id" = t."tracking_id"`;
    const live = liveOnly(includeTest);
    const [summary, opens, proxy, clicks] = await Promise.all([
      firstRow(
        this.pool,
        mailRollup(includeTest).select(mailCounts()).where('r.campaign_id', '=', campaignId),
      ),
      this.pool.query<
        PersonRow & {
          opened_at: Date;
          last_opened_at: Date | null;
          open_count: number;
          device_type: string | null;
        }
      >(
        `SELECT ${person}, t."opened_at", t."last_opened_at", t."open_count", t."device_type"
         ${from} WHERE t."campaign_id" = $1 ${live} AND t."opened_at" IS NOT NULL
         ORDER BY t."opened_at" DESC, t."id" LIMIT $2`,
        [id, limit + 1],
      ),
      this.pool.query<
        PersonRow & { first_at: Date; last_at: Date | null; proxy_open_count: number; proxy: string | null }
      >(
        // The newest first fetches by proxy_opened_at (on the row), then each one's events.
        `SELECT ${person}, t."proxy_opened_at" AS first_at, p.last_at, t."proxy_open_count", p.proxy
         FROM (SELECT * FROM "email_tracking" t
               WHERE t."campaign_id" = $1 ${live} AND t."opened_at" IS NULL AND t."proxy_open_count" > 0
                 AND t."proxy_opened_at" IS NOT NULL
               ORDER BY t."proxy_opened_at" DESC, t."id" LIMIT $2) t
         LEFT JOIN "email_campaign_recipients" r ON r."tracking_id" = t."tracking_id"
         CROSS JOIN LATERAL (
           SELECT max(e."timestamp") AS last_at, min(e."proxy") AS proxy
           FROM "email_events" e
           WHERE e."tracking_id" = t."tracking_id" AND e."event_type" = 'open' AND e."proxy" IS NOT NULL
         ) p
         ORDER BY t."proxy_opened_at" DESC, t."id"`,
        [id, limit + 1],
      ),
      this.pool.query<
        PersonRow & {
          clicked_at: Date;
          last_clicked_at: Date | null;
          click_count: number;
          last_click_url: string | null;
        }
      >(
        `SELECT ${person}, t."clicked_at", t."last_clicked_at", t."click_count", t."last_click_url"
         ${from} WHERE t."campaign_id" = $1 ${live} AND t."clicked_at" IS NOT NULL
         ORDER BY t."clicked_at" DESC, t."id" LIMIT $2`,
        [id, limit + 1],
      ),
    ]);
    return {
      counts: countsOf(summary),
      opens: opens.rows.slice(0, limit).map((r) => ({
        ...personOf(r),
        openedAt: r.opened_at.toISOString(),
        lastOpenedAt: r.last_opened_at?.toISOString() ?? null,
        openCount: r.open_count,
        proxy: false,
        proxyName: null,
        deviceType: r.device_type,
      })),
      proxyOpens: proxy.rows.slice(0, limit).map((r) => ({
        ...personOf(r),
        openedAt: r.first_at.toISOString(),
        lastOpenedAt: (r.last_at ?? r.first_at).toISOString(),
        openCount: r.proxy_open_count,
        proxy: true,
        proxyName: r.proxy,
        deviceType: null,
      })),
      clicks: clicks.rows.slice(0, limit).map((r) => ({
        ...personOf(r),
        clickedAt: r.clicked_at.toISOString(),
        lastClickedAt: r.last_clicked_at?.toISOString() ?? null,
        clickCount: r.click_count,
        lastClickUrl: r.last_click_url,
      })),
      truncated: {
        opens: opens.rows.length > limit,
        proxyOpens: proxy.rows.length > limit,
        clicks: clicks.rows.length > limit,
      },
    };
  }
}

interface PersonRow {
  email: string;
  contact_id: string | null;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
}

const personOf = (r: PersonRow) => ({
  firstName: r.first_name,
  lastName: r.last_name,
  contactEmail: r.email,
  company: r.company,
  contactId: r.contact_id !== null && /^\d{1,15}$/.test(r.contact_id) ? Number(r.contact_id) : null,
});
