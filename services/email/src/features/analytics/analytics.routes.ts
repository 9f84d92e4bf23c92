import {
  type AdvancedAnalyticsResponse,
  AdvancedAnalyticsResponse as AdvancedAnalyticsSchema,
  AnalyticsPeriodQuery,
  CampaignComparisonResponse,
  CampaignIdParams,
  DELIVERABILITY_DEFAULTS,
  EmailAnalyticsResponse,
  EngagementReportResponse,
  ErrorBody,
  IncludeTestQuery,
} from '@parley/contracts';
import type { ServiceDeps, ServiceInstance } from '@parley/kit';
import { domainOf } from '../deliverability/dns.ts';
import type { AuthenticationCheck } from './authentication.service.ts';
import type { CampaignReportsRepository } from './campaign-reports.repository.ts';
import {
  addCounts,
  bucketDates,
  campaignAnalyticsOf,
  changesOf,
  emptyTrend,
  type MailCounts,
  NO_MAIL,
  parsePeriod,
  parseTimeZone,
  performanceOf,
  periodRow,
  rate,
  topCampaigns,
} from './domain/analytics.ts';
import { engagementReport } from './domain/engagement.ts';
import type { PeriodAnalyticsRepository, PeriodData, PeriodWindow } from './period-analytics.repository.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Campaigns listed side by side in a comparison (the newest). */
export const COMPARISON_LIMIT = 100;
/** Address books listed as segments (those with the most mail in the period first). */
export const SEGMENT_LIMIT = 50;

/**
 * Analytics (email marketing §2 Analytics and Advanced analytics tabs, the engagement report,
 * §7 calls). Admin only; answers are never cached by the browser or a proxy (they change with
 * every open).
 */
export async function analyticsRoutes(
  app: ServiceInstance,
  ctx: {
    deps: ServiceDeps;
    campaignReports: CampaignReportsRepository;
    periodAnalytics: PeriodAnalyticsRepository;
    auth: AuthenticationCheck;
    /** The from address when the settings name none (MAIL_FROM_EMAIL, else the default). */
    fallbackFrom: string;
  },
) {
  const { deps, campaignReports, periodAnalytics, auth } = ctx;
  const admin = deps.auth.admin;

  app.get(
    '/api/admin/email/analytics',
    {
      onRequest: admin,
      schema: { querystring: IncludeTestQuery, response: { 200: EmailAnalyticsResponse, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const includeTest = request.query.includeTest === true;
      const campaigns = await campaignReports.campaignTotals(includeTest);
      const all = campaigns.reduce<MailCounts>((sum, c) => addCounts(sum, c.counts), { ...NO_MAIL });
      const p = performanceOf(all);
      return {
        includesTestMail: includeTest,
        totalSent: p.totalSent,
        totalDelivered: p.totalDelivered,
        totalOpened: p.totalOpened,
        totalProxyOpened: p.totalProxyOpened,
        totalClicked: p.totalClicked,
        totalBounced: p.totalBounced,
        totalUnsubscribed: p.totalUnsubscribed,
        openRate: p.openRate,
        clickRate: p.clickRate,
        bounceRate: p.bounceRate,
        engagementRate: p.engagementRate,
        campaigns: campaigns.map((c) => campaignAnalyticsOf(c, c.counts)),
        generatedAt: new Date().toISOString(),
      };
    },
  );

  const windowOf = async (query: { period?: string; tz?: string }): Promise<PeriodWindow> =>
    periodAnalytics.window(parsePeriod(query.period), parseTimeZone(query.tz));

  const windowFields = (w: PeriodWindow) => ({
    period: w.period,
    timeZone: w.timeZone,
    from: w.from.toISOString(),
    to: w.to.toISOString(),
    previousFrom: w.previousFrom.toISOString(),
    previousTo: w.from.toISOString(),
  });

  /** The campaigns that sent mail in the current window, newest first, with the window's totals. */
  const comparison = (data: PeriodData) => {
    const rows = data.campaigns
      .filter((c) => c.firstSentAt !== null && c.current.sent > 0)
      .sort((a, b) => (b.firstSentAt as Date).getTime() - (a.firstSentAt as Date).getTime() || b.id - a.id)
      .map((c) =>
        periodRow(
          {
            id: c.id,
            name: c.name,
            kind: c.kind,
            status: c.status,
            sentAt: (c.firstSentAt as Date).toISOString(),
          },
          c.current,
        ),
      );
    const current = data.campaigns.reduce<MailCounts>((s, c) => addCounts(s, c.current), { ...NO_MAIL });
    const previous = data.campaigns.reduce<MailCounts>((s, c) => addCounts(s, c.previous), { ...NO_MAIL });
    return { rows, current, previous };
  };

  app.get(
    '/api/admin/email/advanced-analytics',
    {
      onRequest: admin,
      schema: { querystring: AnalyticsPeriodQuery, response: { 200: AdvancedAnalyticsSchema, ...errors } },
    },
    async (request, reply): Promise<AdvancedAnalyticsResponse> => {
      reply.header('cache-control', 'no-store');
      const w = await windowOf(request.query);
      const includeTest = request.query.includeTest === true;
      const fromEmail = (await periodAnalytics.settingsFromEmail()) ?? ctx.fallbackFrom;
      const [data, activity, segments, audience, authentication] = await Promise.all([
        periodAnalytics.periodData(w, includeTest),
        periodAnalytics.activity(w, includeTest),
        periodAnalytics.segments(w, SEGMENT_LIMIT, includeTest),
        periodAnalytics.audienceTotals(),
        auth.status(domainOf(fromEmail)),
      ]);
      const { rows, current, previous } = comparison(data);
      const trend = emptyTrend(bucketDates(w.firstDay, w.period)).map((point, i) => ({
        ...point,
        ...activity.get(i),
        sent: data.sentByBucket[i] ?? 0,
      }));
      const performance = performanceOf(current);
      return {
        ...windowFields(w),
        includesTestMail: includeTest,
        bucket: w.period === '1y' ? 'week' : 'day',
        campaignPerformance: performance,
        previousPerformance: performanceOf(previous),
        changes: changesOf(current, previous),
        engagementRate: performance.engagementRate,
        trend,
        topPerformingCampaigns: topCampaigns(rows),
        revenueTracked: false,
        audienceInsights: {
          totalContacts: audience.total,
          activeSubscribers: audience.active,
          segmentBy: 'addressBook',
          segmentPerformance: segments.rows.map((s) => ({
            segment: s.name,
            addressBookId: s.addressBookId,
            size: s.size,
            activeContacts: s.active,
            sent: s.sent,
            engagement: s.delivered > 0 ? rate(s.engaged, s.delivered) : null,
          })),
          segmentsTruncated: segments.truncated,
        },
        deliverabilityHealth: {
          authenticationStatus: authentication,
          ...DELIVERABILITY_DEFAULTS,
          defaults: {
            measured: false,
            source: 'default',
            fields: ['reputation', 'spamScore', 'blacklistStatus'],
            note: 'Reputation, spam score and blacklist status are the product defaults (85, 2.3, Clean), not measurements: no reputation, spam-filter or blocklist service is connected yet.',
          },
          bounceRate: performance.bounceRate,
          complaintRate: rate(current.complained, current.sent),
          unsubscribeRate: performance.unsubscribeRate,
        },
        generatedAt: new Date().toISOString(),
      };
    },
  );

  app.get(
    '/api/admin/email/campaign-comparison',
    {
      onRequest: admin,
      schema: { querystring: AnalyticsPeriodQuery, response: { 200: CampaignComparisonResponse, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const w = await windowOf(request.query);
      const includeTest = request.query.includeTest === true;
      const { rows, current } = comparison(await periodAnalytics.periodData(w, includeTest));
      return {
        ...windowFields(w),
        includesTestMail: includeTest,
        campaigns: rows.slice(0, COMPARISON_LIMIT),
        truncated: rows.length > COMPARISON_LIMIT,
        totals: performanceOf(current),
        generatedAt: new Date().toISOString(),
      };
    },
  );

  app.get(
    '/api/admin/email/campaigns/:id/engagement-report',
    {
      onRequest: admin,
      schema: {
        params: CampaignIdParams,
        querystring: IncludeTestQuery,
        response: { 200: EngagementReportResponse, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const campaign = await campaignReports.campaign(request.params.id);
      return engagementReport(campaignReports, campaign, campaign.id, request.query.includeTest === true);
    },
  );
}
