import { publicOriginOf, type ServiceInstance } from '@parley/kit';
import type { EmailContext } from '../../context.ts';
import type { AnalyticsHandle } from '../analytics/index.ts';
import type { CampaignsHandle } from '../campaigns/index.ts';
import type { DeliveryHandle } from '../delivery/index.ts';
import type { BlogCopyRepository } from './blog-copy.repository.ts';
import { NewslettersRepository } from './newsletters.repository.ts';
import { newsletterRoutes } from './newsletters.routes.ts';
import { NewslettersService } from './newsletters.service.ts';

/** What the rest of the service (and tests) may use of newsletters. */
export interface NewslettersHandle {
  repo: NewslettersRepository;
  service: NewslettersService;
}

/**
 * Newsletters: made from the blog copy or by hand, sent through the campaign pipeline (a
 * companion campaign each: the same sender workers, scheduler, hourly limit, tracking and
 * reports), audiences resolved by the server, analytics, and 'Fix HTML Issues'.
 */
export async function registerNewsletters(
  app: ServiceInstance,
  ctx: EmailContext,
  parts: {
    mail: DeliveryHandle;
    campaigns: CampaignsHandle;
    analytics: AnalyticsHandle;
    blog: BlogCopyRepository;
  },
): Promise<NewslettersHandle> {
  const { deps } = ctx;
  const repo = new NewslettersRepository(deps.pool, parts.campaigns.repo);
  const service = new NewslettersService({
    repo,
    campaigns: parts.campaigns.repo,
    blog: parts.blog,
    launches: parts.campaigns.launches,
    mailer: parts.mail.mailer,
    analytics: parts.analytics.repo,
    origin: publicOriginOf(deps.config),
  });
  await app.register(async (scope) => newsletterRoutes(scope, { deps, repo, service }));
  return { repo, service };
}
