import {
  ANALYTICS_PERIOD_DAYS,
  ANALYTICS_PERIODS,
  type AnalyticsPeriod,
  type CampaignAnalytics,
  type CampaignPeriodRow,
  type MetricChange,
  type MetricChanges,
  type PeriodPerformance,
  type TopCampaign,
  type TrendPoint,
} from '@parley/contracts';
import { badRequest } from '@parley/kit';

/** Pure rules of the analytics: periods, rates, changes, buckets, rankings (no I/O). */

/** What the tracking rows of a set of campaign mails add up to. */
export interface MailCounts {
  sent: number;
  bounced: number;
  /** Opened by a person. */
  opened: number;
  /** Only a privacy proxy fetched the pixel. */
  proxyOnly: number;
  clicked: number;
  /** Opened by a person or clicked. */
  engaged: number;
  unsubscribed: number;
  complained: number;
}

export const NO_MAIL: MailCounts = {
  sent: 0,
  bounced: 0,
  opened: 0,
  proxyOnly: 0,
  clicked: 0,
  engaged: 0,
  unsubscribed: 0,
  complained: 0,
};

export function addCounts(a: MailCounts, b: MailCounts): MailCounts {
  return {
    sent: a.sent + b.sent,
    bounced: a.bounced + b.bounced,
    opened: a.opened + b.opened,
    proxyOnly: a.proxyOnly + b.proxyOnly,
    clicked: a.clicked + b.clicked,
    engaged: a.engaged + b.engaged,
    unsubscribed: a.unsubscribed + b.unsubscribed,
    complained: a.complained + b.complained,
  };
}

export const delivered = (c: MailCounts) => Math.max(0, c.sent - c.bounced);

/** Percent of `whole`, one decimal (0 when there is no whole), as the campaign card shows rates. */
export const rate = (part: number, whole: number): number =>
  whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;

const round1 = (n: number) => Math.round(n * 10) / 10;

export function performanceOf(c: MailCounts): PeriodPerformance {
  const d = delivered(c);
  return {
    totalSent: c.sent,
    totalDelivered: d,
    totalOpened: c.opened,
    totalProxyOpened: c.proxyOnly,
    totalClicked: c.clicked,
    totalBounced: c.bounced,
    totalUnsubscribed: c.unsubscribed,
    totalComplained: c.complained,
    totalEngaged: c.engaged,
    openRate: rate(c.opened, c.sent),
    clickRate: rate(c.clicked, c.sent),
    bounceRate: rate(c.bounced, c.sent),
    unsubscribeRate: rate(c.unsubscribed, c.sent),
    engagementRate: rate(c.engaged, d),
  };
}

/** Percent change from `previous` to `current`, one decimal; null when previous is 0 (no base). */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return round1(((current - previous) / previous) * 100);
}

/**
 * The change figures: counts compare as percent change; rates also as percentage points
 * (null when the previous period sent nothing, so its rates are no measurement). Rates are
 * compared unrounded, from the counts, so rounding never invents a change.
 */
export function changesOf(cur: MailCounts, prev: MailCounts): MetricChanges {
  const count = (c: number, p: number): MetricChange => ({
    current: c,
    previous: p,
    change: percentChange(c, p),
  });
  const exact = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);
  const ratio = (partOf: (x: MailCounts) => number, wholeOf: (x: MailCounts) => number): MetricChange => {
    const c = exact(partOf(cur), wholeOf(cur));
    const p = exact(partOf(prev), wholeOf(prev));
    const measured = prev.sent > 0 && cur.sent > 0;
    return {
      current: round1(c),
      previous: round1(p),
      change: measured ? percentChange(c, p) : null,
      pointChange: measured ? round1(c - p) : null,
    };
  };
  return {
    sent: count(cur.sent, prev.sent),
    delivered: count(delivered(cur), delivered(prev)),
    opened: count(cur.opened, prev.opened),
    clicked: count(cur.clicked, prev.clicked),
    bounced: count(cur.bounced, prev.bounced),
    unsubscribed: count(cur.unsubscribed, prev.unsubscribed),
    openRate: ratio(
      (x) => x.opened,
      (x) => x.sent,
    ),
    clickRate: ratio(
      (x) => x.clicked,
      (x) => x.sent,
    ),
    bounceRate: ratio(
      (x) => x.bounced,
      (x) => x.sent,
    ),
    unsubscribeRate: ratio(
      (x) => x.unsubscribed,
      (x) => x.sent,
    ),
    engagementRate: ratio((x) => x.engaged, delivered),
  };
}

export function parsePeriod(value: string | undefined): AnalyticsPeriod {
  const v = (value ?? '30d').trim();
  if ((ANALYTICS_PERIODS as readonly string[]).includes(v)) return v as AnalyticsPeriod;
  throw badRequest(`Invalid period '${v.slice(0, 20)}': choose one of ${ANALYTICS_PERIODS.join(', ')}`);
}

/** An IANA time zone the runtime knows (the database is asked again; it may know fewer). */
export function parseTimeZone(value: string | undefined): string {
  const tz = (value ?? 'UTC').trim() || 'UTC';
  try {
    if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(tz)) throw new RangeError(tz);
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw badRequest(`Invalid time zone '${tz.slice(0, 64)}': use an IANA name such as Europe/Paris or UTC`);
  }
}

/** 'day' buckets, or weeks for a year (52 points instead of 364). */
export const bucketDaysOf = (period: AnalyticsPeriod): number => (period === '1y' ? 7 : 1);

/** The first calendar day of each bucket: `ANALYTICS_PERIOD_DAYS / step` dates from `firstDay`. */
export function bucketDates(firstDay: string, period: AnalyticsPeriod): string[] {
  const step = bucketDaysOf(period);
  const n = ANALYTICS_PERIOD_DAYS[period] / step;
  const start = Date.parse(`${firstDay}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) =>
    new Date(start + i * step * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Index of the bucket holding calendar day `day` (YYYY-MM-DD), or -1 outside the period. */
export function bucketIndex(firstDay: string, day: string, period: AnalyticsPeriod): number {
  const days = Math.round(
    (Date.parse(`${day}T00:00:00Z`) - Date.parse(`${firstDay}T00:00:00Z`)) / 86_400_000,
  );
  if (days < 0 || days >= ANALYTICS_PERIOD_DAYS[period]) return -1;
  return Math.floor(days / bucketDaysOf(period));
}

/** A zero for every bucket: days with nothing are present. */
export const emptyTrend = (dates: string[]): TrendPoint[] =>
  dates.map((date) => ({ date, sent: 0, opens: 0, proxyOpens: 0, clicks: 0, bounces: 0, unsubscribes: 0 }));

export function periodRow(
  c: Pick<CampaignPeriodRow, 'id' | 'name' | 'kind' | 'status' | 'sentAt'>,
  counts: MailCounts,
): CampaignPeriodRow {
  const p = performanceOf(counts);
  return {
    ...c,
    sent: p.totalSent,
    delivered: p.totalDelivered,
    opens: p.totalOpened,
    proxyOpens: p.totalProxyOpened,
    clicks: p.totalClicked,
    bounces: p.totalBounced,
    unsubscribes: p.totalUnsubscribed,
    openRate: p.openRate,
    clickRate: p.clickRate,
    bounceRate: p.bounceRate,
    unsubscribeRate: p.unsubscribeRate,
    engagementRate: p.engagementRate,
  };
}

/** How many campaigns "top performing" lists. */
export const TOP_CAMPAIGNS = 5;

/**
 * Top campaigns of a window: those with a delivered mail, by click rate, then open rate, then
 * mails sent (a tie goes to the larger audience). Revenue is 0: none is tracked.
 */
export function topCampaigns(rows: CampaignPeriodRow[], n = TOP_CAMPAIGNS): TopCampaign[] {
  return rows
    .filter((r) => r.delivered > 0)
    .sort((a, b) => b.clickRate - a.clickRate || b.openRate - a.openRate || b.sent - a.sent || a.id - b.id)
    .slice(0, n)
    .map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      sent: r.sent,
      openRate: r.openRate,
      clickRate: r.clickRate,
      engagementRate: r.engagementRate,
      revenue: 0,
    }));
}

/** A campaign's row of the Analytics tab from its mails' counts (all time). */
export function campaignAnalyticsOf(
  c: Pick<CampaignAnalytics, 'id' | 'name' | 'kind' | 'status' | 'sentAt' | 'recipients'>,
  counts: MailCounts,
): CampaignAnalytics {
  const p = performanceOf(counts);
  return {
    id: c.id,
    name: c.name,
    kind: c.kind,
    status: c.status,
    sentAt: c.sentAt,
    recipients: c.recipients,
    sent: p.totalSent,
    delivered: p.totalDelivered,
    opens: p.totalOpened,
    proxyOpens: p.totalProxyOpened,
    clicks: p.totalClicked,
    bounces: p.totalBounced,
    unsubscribes: p.totalUnsubscribed,
    openRate: p.openRate,
    clickRate: p.clickRate,
    bounceRate: p.bounceRate,
  };
}
