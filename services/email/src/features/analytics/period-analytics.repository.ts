import {
  ANALYTICS_PERIOD_DAYS,
  type AnalyticsPeriod,
  type CampaignStatus,
  type MailingKind,
  type TrendPoint,
} from '@parley/contracts';
import { badRequest } from '@parley/kit';
import { sql } from 'kysely';
import type pg from 'pg';
import { activityRollup, mailRollup, total } from '../../shared/rollups-sql.ts';
import { db, rows } from '../../shared/sql.ts';
import { BOOK_SELECT, selectBooks } from '../audience/address-books.repository.ts';
import { countsOf, KIND, mailCounts } from './analytics-sql.ts';
import { bucketDaysOf, bucketIndex, type MailCounts, NO_MAIL } from './domain/analytics.ts';

/**
 * The analytics of a period (Advanced analytics and the campaign comparison): its window in a
 * time zone, the mails sent in it and in the previous window per campaign, what happened in
 * each bucket of it, and the address books as segments, all from the rollups (quarter-hours:
 * every time zone's midnight is one); with the audience's totals and the sender address
 * Advanced analytics shows. The shared SQL is in analytics-sql.ts and shared/rollups-sql.ts.
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
   * today up to now; the previous window ends where this one starts and is as long, rounded
   * out to the quarter-hour (the rollups' step). The database's clock is the one the rows were
   * stamped with.
   */
  async window(period: AnalyticsPeriod, timeZone: string): Promise<PeriodWindow> {
    try {
      const { rows } = await this.pool.query<{
        first_day: string;
        from_ts: Date;
        to_ts: Date;
        previous_ts: Date;
      }>(
        `SELECT first_day, from_ts, to_ts, "email_quarter"(from_ts - (to_ts - from_ts)) AS previous_ts
         FROM (SELECT to_char(d, 'YYYY-MM-DD') AS first_day, (d::timestamp AT TIME ZONE $1) AS from_ts, now() AS to_ts
               FROM (SELECT (now() AT TIME ZONE $1)::date - ($2::int - 1) AS d) x) w`,
        [timeZone, ANALYTICS_PERIOD_DAYS[period]],
      );
      const r = rows[0] as { first_day: string; from_ts: Date; to_ts: Date; previous_ts: Date };
      return {
        period,
        timeZone,
        firstDay: r.first_day,
        from: r.from_ts,
        to: r.to_ts,
        previousFrom: r.previous_ts,
      };
    } catch (err) {
      if (isUnknownTimeZone(err)) throw badRequest(`Unknown time zone '${timeZone}'`);
      throw err;
    }
  }

  /**
   * The mails sent in the current and previous windows, per campaign, and the current
   * window's mails per bucket: the mail rollup's quarters in the two windows, summed per
   * campaign and local day.
   */
  async periodData(w: PeriodWindow, includeTest = false): Promise<PeriodData> {
    const day = sql<string>`to_char((${sql.ref('r.quarter')} AT TIME ZONE ${w.timeZone})::date, 'YYYY-MM-DD')`;
    const current = sql<boolean>`${sql.ref('r.quarter')} >= ${w.from}`;
    const found = await rows(
      this.pool,
      mailRollup(includeTest)
        .select((eb) => [
          'r.campaign_id',
          day.as('day'),
          current.as('current'),
          eb.fn.min('r.first_sent_at').as('first_sent'),
          ...mailCounts(),
        ])
        .where('r.quarter', '>=', w.previousFrom)
        .where('r.quarter', '<', w.to)
        .groupBy([sql`1`, sql`2`, sql`3`]),
    );
    const ids = [...new Set(found.map((r) => r.campaign_id))];
    const names = await rows(
      this.pool,
      db
        .selectFrom('email_campaigns as c')
        .select(['c.id', 'c.name', KIND.as('kind'), sql<CampaignStatus>`c."status"::text`.as('status')])
        .where((eb) => eb('c.id', '=', eb.fn.any(eb.val(ids)))),
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
    for (const r of found) {
      const c = byId.get(r.campaign_id);
      if (!c) continue;
      const counts = countsOf(r);
      const into = r.current ? c.current : c.previous;
      for (const k of Object.keys(counts) as Array<keyof MailCounts>) into[k] += counts[k];
      if (r.current) {
        if (r.first_sent && (!c.firstSentAt || r.first_sent < c.firstSentAt)) c.firstSentAt = r.first_sent;
        const i = bucketIndex(w.firstDay, r.day, w.period);
        if (i >= 0) sentByBucket[i] = (sentByBucket[i] ?? 0) + counts.sent;
      }
    }
    return { campaigns: [...byId.values()], sentByBucket };
  }

  /**
   * What happened in each bucket of the current window, from the activity rollup: mails first
   * opened by a person, first fetched by a proxy, first clicked, bounced and unsubscribed, each
   * mail once per kind, in the bucket of the moment it did (ADR 0067).
   */
  async activity(
    w: PeriodWindow,
    includeTest = false,
  ): Promise<Map<number, Omit<TrendPoint, 'date' | 'sent'>>> {
    const bucket = sql<number>`((${sql.ref('r.quarter')} AT TIME ZONE ${w.timeZone})::date - ${w.firstDay}::date) / ${bucketDaysOf(w.period)}::int`;
    const found = await rows(
      this.pool,
      activityRollup(includeTest)
        .select([
          bucket.as('bucket'),
          total('opens').as('opens'),
          total('proxy_opens').as('proxyOpens'),
          total('clicks').as('clicks'),
          total('bounces').as('bounces'),
          total('unsubscribes').as('unsubscribes'),
        ])
        .where('r.quarter', '>=', w.from)
        .where('r.quarter', '<', w.to)
        .groupBy(sql`1`),
    );
    const out = new Map<number, Omit<TrendPoint, 'date' | 'sent'>>();
    for (const { bucket: i, ...point } of found) out.set(i, point);
    return out;
  }

  /** Address books as segments: their contacts now, and their mails sent in the current window. */
  async segments(
    w: PeriodWindow,
    limit: number,
    includeTest = false,
  ): Promise<{ rows: SegmentRow[]; truncated: boolean }> {
    const found = await rows(
      this.pool,
      db
        .with('m', () =>
          mailRollup(includeTest)
            .select([
              'r.address_book_id',
              total('sent').as('sent'),
              sql<number>`(coalesce(sum(${sql.ref('r.sent')}), 0) - coalesce(sum(${sql.ref('r.bounced')}), 0))::int`.as(
                'delivered',
              ),
              total('engaged_delivered').as('engaged'),
            ])
            .where('r.quarter', '>=', w.from)
            .where('r.quarter', '<', w.to)
            .groupBy('r.address_book_id'),
        )
        .selectFrom(selectBooks().as('b'))
        .leftJoin('m', 'm.address_book_id', 'b.id')
        .select([
          'b.id',
          'b.name',
          'b.contact_count',
          'b.unsubscribed_count',
          'b.bounced_count',
          'm.sent',
          'm.delivered',
          'm.engaged',
        ])
        .orderBy(sql`coalesce(m."sent", 0)`, 'desc')
        .orderBy(sql`b."contact_count"`, 'desc')
        .orderBy('b.id')
        .limit(limit + 1),
    );
    return {
      truncated: found.length > limit,
      rows: found.slice(0, limit).map((r) => ({
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
