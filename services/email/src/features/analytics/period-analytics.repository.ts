import {
  ANALYTICS_PERIOD_DAYS,
  type AnalyticsPeriod,
  type CampaignStatus,
  type MailingKind,
  type TrendPoint,
} from '@parley/contracts';
import { badRequest } from '@parley/kit';
import type pg from 'pg';
import { BOOK_SELECT } from '../audience/address-books.repository.ts';
import { COUNTS, type CountsRow, countsOf, KIND, liveOnly, liveSends } from './analytics-sql.ts';
import { bucketDaysOf, bucketIndex, type MailCounts, NO_MAIL } from './domain/analytics.ts';

/**
 * The analytics of a period (Advanced analytics and the campaign comparison): its window in a
 * time zone, the mails sent in it and in the previous window per campaign, what happened in
 * each bucket of it, and the address books as segments; with the audience's totals and the
 * sender address Advanced analytics shows. The shared SQL is in analytics-sql.ts.
 */

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

export class PeriodAnalyticsRepository {
  constructor(private readonly pool: pg.Pool) {}

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
}
