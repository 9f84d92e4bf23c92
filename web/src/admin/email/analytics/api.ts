import type {
  AdvancedAnalyticsResponse,
  AnalyticsPeriod,
  CampaignComparisonResponse,
  EmailAnalyticsResponse,
  EngagementReportResponse,
} from '@parley/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiErrorOf } from '../../../lib/api.ts';
import { adminQueryRetry } from '../../lib/api.ts';
import { ANALYTICS_PATH } from '../campaigns/api.ts';
import { withTest } from './include-test-toggle.tsx';

/**
 * The analytics' calls (email marketing §7). Every key starts with ANALYTICS_PATH, so the
 * Campaigns tab's "Refresh analytics" (and every campaign change) reads them all again.
 */

export const ADVANCED_PATH = '/api/admin/email/advanced-analytics';
export const COMPARISON_PATH = '/api/admin/email/campaign-comparison';
export const engagementReportPath = (id: number) => `/api/admin/email/campaigns/${id}/engagement-report`;

/** Spec §9: analytics stay fresh 5 minutes and are read again every 5 minutes. */
export const ANALYTICS_REFRESH_MS = 5 * 60_000;

/** The admin's time zone: the trend's days are the admin's days. */
export const localTimeZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

async function getJson<T>(url: string, signal: AbortSignal): Promise<T> {
  const res = await fetch(url, { credentials: 'include', signal });
  if (!res.ok) throw await apiErrorOf(res);
  return (await res.json()) as T;
}

const periodUrl = (path: string, period: AnalyticsPeriod, includeTest: boolean) =>
  withTest(`${path}?${new URLSearchParams({ period, tz: localTimeZone() })}`, includeTest);

const refreshed = {
  staleTime: ANALYTICS_REFRESH_MS,
  refetchInterval: ANALYTICS_REFRESH_MS,
  ...adminQueryRetry,
};

/** Live mail only unless `includeTest` (test-mode sends' mail too). */
export function useAnalytics(includeTest = false) {
  return useQuery<EmailAnalyticsResponse>({
    queryKey: [withTest(ANALYTICS_PATH, includeTest)],
    placeholderData: keepPreviousData,
    ...refreshed,
  });
}

export function useAdvancedAnalytics(period: AnalyticsPeriod, includeTest = false) {
  return useQuery<AdvancedAnalyticsResponse>({
    queryKey: [ANALYTICS_PATH, 'advanced', period, includeTest],
    queryFn: ({ signal }) => getJson(periodUrl(ADVANCED_PATH, period, includeTest), signal),
    placeholderData: keepPreviousData,
    ...refreshed,
  });
}

export function useCampaignComparison(period: AnalyticsPeriod, enabled: boolean, includeTest = false) {
  return useQuery<CampaignComparisonResponse>({
    queryKey: [ANALYTICS_PATH, 'comparison', period, includeTest],
    queryFn: ({ signal }) => getJson(periodUrl(COMPARISON_PATH, period, includeTest), signal),
    placeholderData: keepPreviousData,
    enabled,
    ...refreshed,
  });
}

/**
 * Read each time the dialog opens (staleTime 0): it is opened to see the latest opens. `path`
 * names the report's call (a campaign's by default; a newsletter's has its own).
 */
export function useEngagementReport(
  campaignId: number | null,
  open: boolean,
  path: (id: number) => string = engagementReportPath,
  includeTest = false,
) {
  const url = withTest(path(campaignId ?? 0), includeTest);
  return useQuery<EngagementReportResponse>({
    queryKey: [ANALYTICS_PATH, 'engagement', url],
    queryFn: ({ signal }) => getJson(url, signal),
    enabled: open && campaignId !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
    ...adminQueryRetry,
  });
}

export const PERIOD_LABELS: Record<AnalyticsPeriod, string> = {
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  '1y': 'Last 12 months',
};

const dateFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
/** "Nov 27" for a trend bucket's first day (YYYY-MM-DD, a calendar day: read as UTC). */
export const formatDay = (isoDate: string) => dateFormat.format(new Date(`${isoDate}T00:00:00Z`));

/** The trend's lines (the chart and its table alternative). */
export const TREND_SERIES = [
  { key: 'opens', label: 'Opens', color: '#22d3ee' },
  { key: 'clicks', label: 'Clicks', color: '#34d399' },
  { key: 'bounces', label: 'Bounces', color: '#f87171' },
  { key: 'unsubscribes', label: 'Unsubscribes', color: '#c4b5fd' },
] as const;
