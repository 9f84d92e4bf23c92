import { ENGAGEMENT_REPORT_LIMIT, type EngagementReportResponse } from '@parley/contracts';
import type { CampaignReportsRepository } from '../campaign-reports.repository.ts';
import { NO_MAIL, performanceOf } from './analytics.ts';

type Engagement = Awaited<ReturnType<CampaignReportsRepository['engagement']>>;

/** Nothing sent yet: the report of a campaign (or newsletter) before its first send. */
export const NO_ENGAGEMENT: Engagement = {
  counts: { ...NO_MAIL },
  opens: [],
  proxyOpens: [],
  clicks: [],
  truncated: { opens: false, proxyOpens: false, clicks: false },
};

/**
 * The engagement report of a campaign's mails (the campaigns' report, and a newsletter's, which
 * is its companion campaign's): who opened (people and privacy proxies apart), who clicked,
 * and the totals.
 */
export async function engagementReport(
  repo: CampaignReportsRepository,
  campaign: EngagementReportResponse['campaign'],
  campaignId: number | null = campaign.id,
  includeTest = false,
): Promise<EngagementReportResponse> {
  const r =
    campaignId === null
      ? NO_ENGAGEMENT
      : await repo.engagement(campaignId, ENGAGEMENT_REPORT_LIMIT, includeTest);
  const p = performanceOf(r.counts);
  return {
    success: true as const,
    includesTestMail: includeTest,
    campaign,
    engagementReport: {
      opens: r.opens,
      proxyOpens: r.proxyOpens,
      clicks: r.clicks,
      summary: {
        totalSent: p.totalSent,
        totalDelivered: p.totalDelivered,
        totalOpened: p.totalOpened,
        totalProxyOpened: p.totalProxyOpened,
        totalClicked: p.totalClicked,
        totalBounced: p.totalBounced,
        totalUnsubscribed: p.totalUnsubscribed,
        openRate: p.openRate,
        clickRate: p.clickRate,
      },
      limit: ENGAGEMENT_REPORT_LIMIT,
      truncated: r.truncated,
    },
  };
}
