import type { FeatureInsightsResponse, FeaturePage, FeatureRecommendationsResponse } from '@parley/contracts';
import { useQuery } from '@tanstack/react-query';
import { adminQueryRetry } from '../lib/api.ts';
import { INSIGHTS_REFRESH_MS, RECOMMENDATIONS_REFRESH_MS, recommendationsPath } from './rules.ts';

/** The panel's two calls (spec §7), refreshed every 5 and 10 minutes while an admin screen is open. */

export const INSIGHTS_PATH = '/api/admin/feature-insights';

export function useFeatureRecommendations(page: FeaturePage | undefined) {
  return useQuery<FeatureRecommendationsResponse>({
    queryKey: [recommendationsPath(page)],
    refetchInterval: RECOMMENDATIONS_REFRESH_MS,
    // The screen changed but the answer for the last one is still worth showing meanwhile.
    placeholderData: (previous) => previous,
    ...adminQueryRetry,
  });
}

export function useFeatureInsights() {
  return useQuery<FeatureInsightsResponse>({
    queryKey: [INSIGHTS_PATH],
    refetchInterval: INSIGHTS_REFRESH_MS,
    ...adminQueryRetry,
  });
}
