import {
  ANALYTICS_PERIOD_DAYS,
  type AnalyticsPeriod,
  type CampaignStatus,
  ENGAGEMENT_REPORT_LIMIT,
  type EngagementClick,
  type EngagementOpen,
  type MailingKind,
  type TrendPoint,
} from '@parley/contracts';
import { badRequest, notFound } from '@parley/kit';
import type pg from 'pg';
import { BOOK_SELECT } from '../audience/address-books.repository.ts';
import { bucketDaysOf, bucketIndex, type MailCounts, NO_MAIL } from './domain/analytics.ts';

/**
 * The SQL of the analytics. Every figure comes from the campaign mails' tracking rows
 * (`email_tracking`, one per mail, `campaign_id` = the campaign's id as text) and their events
 * (`email_events`); each answer is a handful of set-based statements, never a query per row.
 * Only ids of real campaigns count (joined to `email_campaigns`), so other senders' tracking
 * rows (transactional mail) never leak in.
 */

/** The aggregates of a set of tracking rows, in the MailCounts order. */
const COUNTS = `
  count(*) FILTER (WHERE t."sent_at" IS NOT NULL)::int AS sent,
  count(*) FILTER (WHERE t."sent_at" IS NOT NULL AND t."bounced_at" IS NOT NULL)::int AS bounced,
  count(*) FILTER (WHERE t."opened_at" IS NOT NULL)::int AS opened,
  count(*) FILTER (WHERE t."opened_at" IS NULL AND t."proxy_open_count" > 0)::int AS proxy_only,
  count(*) FILTER (WHERE t."clicked_at" IS NOT NULL)::int AS clicked,
  count(*) FILTER (WHERE t."opened_at" IS NOT NULL OR t."clicked_at" IS NOT NULL)::int AS engaged,
  count(*) FILTER (WHERE t."unsubscribed_at" IS NOT NULL)::int AS unsubscribed,
  count(*) FILTER (WHERE t."complained_at" IS NOT NULL)::int AS complained`;

interface CountsRow {
  sent: number;
  bounced: number;
  opened: number;
  proxy_only: number;
  clicked: number;
  engaged: number;
  unsubscribed: number;
  complained: number;
}

const countsOf = (r: CountsRow | undefined): MailCounts =>
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
const liveOnly = (includeTest: boolean, alias = 't') =>
  includeTest ? '' : `AND ${alias}."test_mode" = false`;
/** The sends whose campaigns a period reads (a test-mode send only when test mail is asked for). */
const liveSends = (includeTest: boolean) => (includeTest ? '' : 'AND NOT s."test_mode"');

/** Which kind of mailing an email_campaigns row is (a newsletter's sends run as a campaign). */
const KIND = `CASE WHEN c."newsletter_id" IS NULL THEN 'campaign' ELSE 'newsletter' END`;

export interface CampaignTotals {
  id: number;
  name: string;
  kind: MailingKind;
  status: CampaignStatus;
  sentAt: string | null;
  recipients: number;
  counts: MailCounts;
}

export interface PeriodWindow {
  period: AnalyticsPeriod;
  timeZone: string;
  /** The period's first local day (YYYY-MM-DD). */
  firstDay: string;
  from: Date;
  to: Date;
  previousFrom: Date;
}

export interface PeriodCampaign {
  id: number;
  name: string;
  kind: MailingKind;
  status: CampaignStatus;
  /** First mail of the campaign sent in the current window (null when it sent only before). */
  firstSentAt: Date | null;
  current: MailCounts;
  previous: MailCounts;
}

export interface PeriodData {
  campaigns: PeriodCampaign[];
  /** Mails sent per bucket of the current window. */
  sentByBucket: number[];
}

export interface SegmentRow {
  addressBookId: number;
  name: string;
  size: number;
  active: number;
  sent: number;
  delivered: number;
  engaged: number;
}

/** PostgreSQL's answer to a time zone it does not know. */
const isUnknownTimeZone = (err: unknown) =>
  (err as { code?: string }).code === '22023' && /time zone/i.test((err as Error).message);

export class AnalyticsRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Every launched campaign with its mails' totals (all time), newest first. */
  async campaignTotals(includeTest = false): Promise<CampaignTotals[]> {
    const { rows } = await this.pool.query<
      CountsRow & {
        id: number;
        name: string;
        kind: MailingKind;
        status: CampaignStatus;
        sent_at: Date | null;
        total_recipients: number;
      }
    >(
      `WITH agg AS (
         SELECT t."campaign_id", ${COUNTS}
         FROM "email_tracking" t
         WHERE t."campaign_id" IN (SELECT "id"::text FROM "email_campaigns" WHERE "status" <> 'draft' OR "current_send_id" IS NOT NULL
                                   ${includeTest ? `OR "id" IN (SELECT "campaign_id" FROM "email_campaign_sends" WHERE "test_mode")` : ''})
           ${liveOnly(includeTest)}
         GROUP BY t."campaign_id"
       )
       SELECT c."id", c."name", ${KIND} AS kind, c."status"::text AS status, c."sent_at", c."total_recipients",
              coalesce(a.sent, 0) AS sent, coalesce(a.bounced, 0) AS bounced, coalesce(a.opened, 0) AS opened,
              coalesce(a.proxy_only, 0) AS proxy_only, coalesce(a.clicked, 0) AS clicked,
              coalesce(a.engaged, 0) AS engaged, coalesce(a.unsubscribed, 0) AS unsubscribed,
              coalesce(a.complained, 0) AS complained
       FROM "email_campaigns" c
       LEFT JOIN agg a ON a."campaign_id" = c."id"::text
       WHERE c."status" <> 'draft' OR coalesce(a.sent, 0) > 0
       ORDER BY coalesce(c."sent_at", c."updated_at") DESC, c."id" DESC`,
    );
    return rows.map((r) => ({
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
    const { rows } = await this.pool.query<CountsRow & { campaign_id: string }>(
      `SELECT t."campaign_id", ${COUNTS} FROM "email_tracking" t
       WHERE t."campaign_id" = ANY($1::text[]) ${liveOnly(includeTest)} GROUP BY t."campaign_id"`,
      [ids.map(String)],
    );
    for (const r of rows) out.set(Number(r.campaign_id), countsOf(r));
    return out;
  }

  /**
   * The window of a period in a time zone: from the local midnight `days − 1` days before
   * today up to now; the previous window is as long and ends where this one starts. The
   * database's clock is the one the rows were stamped with.
   */
  async window(period: AnalyticsPeriod, timeZone: string): Promise<PeriodWindow> {
    try {
      const { rows } = await this.pool.query<{ first_day: string; from_ts: Date; to_ts: Date }>(
        `SELECT to_char(d, 'YYYY-MM-DD') AS first_day, (d::timestamp AT TIME ZONE $1) AS from_ts, now() AS to_ts
         FROM (SELECT (now() AT TIME ZONE $1)::date - ($2::int - 1) AS d) x`,
        [timeZone, ANALYTICS_PERIOD_DAYS[period]],
      );
      const r = rows[0] as { first_day: string; from_ts: Date; to_ts: Date };
      const span = r.to_ts.getTime() - r.from_ts.getTime();
      return {
        period,
        timeZone,
        firstDay: r.first_day,
        from: r.from_ts,
        to: r.to_ts,
        previousFrom: new Date(r.from_ts.getTime() - span),
      };
    } catch (err) {
      if (isUnknownTimeZone(err)) throw badRequest(`Unknown time zone '${timeZone}'`);
      throw err;
    }
  }

  /**
   * The mails sent in the current and previous windows, per campaign, and the current
   * window's mails per bucket. The campaigns are found through their sends (a mail is sent
   * while its send runs), so only their tracking rows are read, through the campaign index.
   */
  async periodData(w: PeriodWindow, includeTest = false): Promise<PeriodData> {
    const { rows } = await this.pool.query<
      CountsRow & {
        campaign_id: string;
        day: string;
        current: boolean;
        first_sent: Date;
      }
    >(
      `WITH relevant AS (
         SELECT DISTINCT s."campaign_id"::text AS id FROM "email_campaign_sends" s
         WHERE s."started_at" < $2 AND coalesce(s."finished_at", 'infinity') >= $1 ${liveSends(includeTest)}
       )
       SELECT t."campaign_id", to_char((t."sent_at" AT TIME ZONE $4)::date, 'YYYY-MM-DD') AS day,
              t."sent_at" >= $3 AS current, min(t."sent_at") AS first_sent, ${COUNTS}
       FROM "email_tracking" t
       WHERE t."campaign_id" IN (SELECT id FROM relevant) AND t."sent_at" >= $1 AND t."sent_at" < $2
         ${liveOnly(includeTest)}
       GROUP BY 1, 2, 3`,
      [w.previousFrom, w.to, w.from, w.timeZone],
    );
    const ids = [...new Set(rows.map((r) => Number(r.campaign_id)))].filter(Number.isInteger);
    const { rows: names } = await this.pool.query<{
      id: number;
      name: string;
      kind: MailingKind;
      status: CampaignStatus;
    }>(
      `SELECT c."id", c."name", ${KIND} AS kind, c."status"::text AS status FROM "email_campaigns" c WHERE c."id" = ANY($1::int[])`,
      [ids],
    );
    const byId = new Map<number, PeriodCampaign>();
    for (const n of names)
      byId.set(n.id, {
        id: n.id,
        name: n.name,
        kind: n.kind,
        status: n.status,
        firstSentAt: null,
        current: { ...NO_MAIL },
        previous: { ...NO_MAIL },
      });
    const sentByBucket = new Array<number>(ANALYTICS_PERIOD_DAYS[w.period] / bucketDaysOf(w.period)).fill(0);
    for (const r of rows) {
      const c = byId.get(Number(r.campaign_id));
      if (!c) continue;
      const counts = countsOf(r);
      const into = r.current ? c.current : c.previous;
      for (const k of Object.keys(counts) as Array<keyof MailCounts>) into[k] += counts[k];
      if (r.current) {
        if (!c.firstSentAt || r.first_sent < c.firstSentAt) c.firstSentAt = r.first_sent;
        const i = bucketIndex(w.firstDay, r.day, w.period);
        if (i >= 0) sentByBucket[i] = (sentByBucket[i] ?? 0) + counts.sent;
      }
    }
    return { campaigns: [...byId.values()], sentByBucket };
  }

  /**
   * What happened in each bucket of the current window, from the events: mails opened by a
   * person, fetched by a proxy, clicked (distinct mails per bucket); mails that bounced or
   * unsubscribed, each once, in the bucket of the moment they did (their tracking row's time,
   * found through the event written with it).
   */
  async activity(
    w: PeriodWindow,
    includeTest = false,
  ): Promise<Map<number, Omit<TrendPoint, 'date' | 'sent'>>> {
    // One pass over the window's events: each event gives one fact (what, when, which mail);
    // DISTINCT keeps one per mail and bucket (hashed, no sort), then they are counted.
    const { rows } = await this.pool.query<{ bucket: number; kind: string; n: number }>(
      `SELECT bucket, kind, count(*)::int AS n FROM (
         SELECT DISTINCT ((f.at AT TIME ZONE $3)::date - $4::date) / $5::int AS bucket, f.kind, e."tracking_id"
         FROM "email_events" e
         JOIN "email_tracking" t ON t."tracking_id" = e."tracking_id" ${liveOnly(includeTest)}
         JOIN "email_campaigns" c ON c."id"::text = t."campaign_id"
         CROSS JOIN LATERAL (
           SELECT CASE e."event_type"
                    WHEN 'click' THEN 'clicks'
                    WHEN 'open' THEN CASE WHEN e."proxy" IS NULL THEN 'opens' ELSE 'proxyOpens' END
                    WHEN 'unsubscribe' THEN 'unsubscribes'
                    ELSE 'bounces' END AS kind,
                  CASE e."event_type"
                    WHEN 'unsubscribe' THEN t."unsubscribed_at"
                    WHEN 'bounce' THEN t."bounced_at"
                    WHEN 'soft_bounce' THEN t."bounced_at"
                    ELSE e."timestamp" END AS at
         ) f
         WHERE e."timestamp" >= $1 AND e."timestamp" < $2
           AND e."event_type" IN ('open', 'click', 'bounce', 'soft_bounce', 'unsubscribe')
           AND f.at >= $1 AND f.at < $2
       ) x GROUP BY 1, 2`,
      [w.from, w.to, w.timeZone, w.firstDay, bucketDaysOf(w.period)],
    );
    const out = new Map<number, Omit<TrendPoint, 'date' | 'sent'>>();
    for (const r of rows) {
      let p = out.get(r.bucket);
      if (!p) {
        p = { opens: 0, proxyOpens: 0, clicks: 0, bounces: 0, unsubscribes: 0 };
        out.set(r.bucket, p);
      }
      p[r.kind as keyof typeof p] = r.n;
    }
    return out;
  }

  /** Address books as segments: their contacts now, and their mails sent in the current window. */
  async segments(
    w: PeriodWindow,
    limit: number,
    includeTest = false,
  ): Promise<{ rows: SegmentRow[]; truncated: boolean }> {
    const { rows } = await this.pool.query<{
      id: number;
      name: string;
      contact_count: string;
      unsubscribed_count: string;
      bounced_count: string;
      sent: number | null;
      delivered: number | null;
      engaged: number | null;
    }>(
      `WITH relevant AS (
         SELECT DISTINCT s."campaign_id"::text AS id FROM "email_campaign_sends" s
         WHERE s."started_at" < $2 AND coalesce(s."finished_at", 'infinity') >= $1 ${liveSends(includeTest)}
       ), mails AS (
         SELECT ct."address_book_id",
                count(*)::int AS sent,
                count(*) FILTER (WHERE t."bounced_at" IS NULL)::int AS delivered,
                count(*) FILTER (WHERE t."bounced_at" IS NULL AND (t."opened_at" IS NOT NULL OR t."clicked_at" IS NOT NULL))::int AS engaged
         FROM "email_tracking" t
         -- A campaign mail's contact_id is its recipient's contact id (a bigint) as text, or null.
         JOIN "email_contacts" ct ON ct."id" = t."contact_id"::bigint
         WHERE t."campaign_id" IN (SELECT id FROM relevant) AND t."sent_at" >= $1 AND t."sent_at" < $2
           ${liveOnly(includeTest)}
         GROUP BY 1
       )
       SELECT b.*, m.sent, m.delivered, m.engaged
       FROM (${BOOK_SELECT}) b LEFT JOIN mails m ON m."address_book_id" = b."id"
       ORDER BY coalesce(m.sent, 0) DESC, b."contact_count" DESC, b."id"
       LIMIT $3`,
      [w.from, w.to, limit + 1],
    );
    return {
      truncated: rows.length > limit,
      rows: rows.slice(0, limit).map((r) => ({
        addressBookId: r.id,
        name: r.name,
        size: Number(r.contact_count),
        active: Math.max(0, Number(r.contact_count) - Number(r.unsubscribed_count) - Number(r.bounced_count)),
        sent: r.sent ?? 0,
        delivered: r.delivered ?? 0,
        engaged: r.engaged ?? 0,
      })),
    };
  }

  /** Contacts in every book and the active ones (book counters: a contact in two books counts twice). */
  async audienceTotals(): Promise<{ total: number; active: number }> {
    const { rows } = await this.pool.query<{ total: string | null; inactive: string | null }>(
      `SELECT sum(b.contact_count) AS total, sum(b.unsubscribed_count + b.bounced_count) AS inactive FROM (${BOOK_SELECT}) b`,
    );
    const total = Number(rows[0]?.total ?? 0);
    return { total, active: Math.max(0, total - Number(rows[0]?.inactive ?? 0)) };
  }

  /** The sender address in the settings copy (`smtp_from_email`), if one is set. */
  async settingsFromEmail(): Promise<string | null> {
    const { rows } = await this.pool.query<{ value: string | null }>(
      `SELECT "value" FROM "mail_settings" WHERE "key" = 'smtp_from_email' AND NOT "deleted" AND NOT "secret"`,
    );
    return rows[0]?.value?.trim() || null;
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
      this.pool.query<CountsRow>(
        `SELECT ${COUNTS} FROM "email_tracking" t WHERE t."campaign_id" = $1 ${live}`,
        [id],
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
        PersonRow & { first_at: Date; last_at: Date; proxy_open_count: number; proxy: string | null }
      >(
        `SELECT ${person}, p.first_at, p.last_at, t."proxy_open_count", p.proxy
         ${from}
         CROSS JOIN LATERAL (
           SELECT min(e."timestamp") AS first_at, max(e."timestamp") AS last_at, min(e."proxy") AS proxy
           FROM "email_events" e
           WHERE e."tracking_id" = t."tracking_id" AND e."event_type" = 'open' AND e."proxy" IS NOT NULL
         ) p
         WHERE t."campaign_id" = $1 ${live} AND t."opened_at" IS NULL AND t."proxy_open_count" > 0 AND p.first_at IS NOT NULL
         ORDER BY p.first_at DESC, t."id" LIMIT $2`,
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
      counts: countsOf(summary.rows[0]),
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
        lastOpenedAt: r.last_at.toISOString(),
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
