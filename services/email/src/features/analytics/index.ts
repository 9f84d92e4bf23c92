import type { ServiceInstance } from '@parley/kit';
import { DEFAULT_FROM_EMAIL } from '../../config.ts';
import type { EmailContext } from '../../context.ts';
import type { SenderDomainChecks } from '../deliverability/domain-checks.service.ts';
import { analyticsRoutes } from './analytics.routes.ts';
import { AuthenticationCheck } from './authentication.service.ts';
import { CampaignReportsRepository } from './campaign-reports.repository.ts';
import { PeriodAnalyticsRepository } from './period-analytics.repository.ts';
import { RollupsRepository } from './rollups.repository.ts';

/** How often the rollups' delta rows are folded (a report reads them either way). */
const ROLLUP_COMPACT_MS = 5000;

/** What the rest of the service (and tests) may use of the analytics. */
export interface AnalyticsHandle {
  repo: CampaignReportsRepository;
  auth: AuthenticationCheck;
}

/**
 * Campaign analytics: the Analytics tab, Advanced analytics (trend, changes against the
 * previous period, audience, deliverability health), the campaign comparison and the
 * engagement report of a campaign.
 */
export async function registerAnalytics(
  app: ServiceInstance,
  ctx: EmailContext,
  domains: SenderDomainChecks,
): Promise<AnalyticsHandle> {
  const { deps } = ctx;
  const c = deps.config;
  const campaignReports = new CampaignReportsRepository(deps.pool);
  const periodAnalytics = new PeriodAnalyticsRepository(deps.pool);
  const auth = new AuthenticationCheck({ domains });
  const rollups = new RollupsRepository(deps.pool);
  deps.job({
    name: 'analytics-rollup-compaction',
    scope: 'one',
    everyMs: ROLLUP_COMPACT_MS,
    run: () => rollups.compact(),
  });
  await app.register(async (scope) =>
    analyticsRoutes(scope, {
      deps,
      campaignReports,
      periodAnalytics,
      auth,
      fallbackFrom: c.MAIL_FROM_EMAIL ?? DEFAULT_FROM_EMAIL,
    }),
  );
  return { repo: campaignReports, auth };
}
