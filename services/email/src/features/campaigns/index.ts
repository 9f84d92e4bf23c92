import { MAX_CAMPAIGNS_PER_HOUR } from '@parley/contracts';
import type { ServiceInstance } from '@parley/kit';
import type { EmailContext } from '../../context.ts';
import type { SegmentsRepository } from '../audience/segments.repository.ts';
import type { DeliveryHandle } from '../delivery/index.ts';
import type { CampaignMailRenderer } from '../delivery/sent-mail.routes.ts';
import { CampaignsRepository } from './campaigns.repository.ts';
import { campaignRoutes } from './campaigns.routes.ts';
import { DeliveryRepository } from './delivery.repository.ts';
import { DeliveryLog } from './delivery-log.repository.ts';
import { deliveryLogRoutes } from './delivery-log.routes.ts';
import { LaunchService } from './launch.service.ts';
import { campaignMailRenderer } from './mail-renderer.service.ts';
import { CampaignScheduler, SendWorker } from './worker.ts';

/** What the rest of the service (and tests) may use of campaigns. */
export interface CampaignsHandle {
  repo: CampaignsRepository;
  launches: LaunchService;
  /** Campaign mail rendered again, for Sent mail. */
  mailRenderer: CampaignMailRenderer;
}

/** Campaigns: CRUD, test sends, launches, the shared sender workers, the scheduler and the reaper. */
export async function registerCampaigns(
  app: ServiceInstance,
  ctx: EmailContext,
  mail: DeliveryHandle,
  segments: SegmentsRepository,
): Promise<CampaignsHandle> {
  const { deps, db } = ctx;
  const c = deps.config;
  const logger = deps.logger.child({ component: 'campaigns' });
  const repo = new CampaignsRepository(deps.pool);
  const delivery = new DeliveryRepository(deps.pool, logger);
  const worker = new SendWorker({
    pool: deps.pool,
    logger,
    transports: mail.transports,
    signer: mail.signer,
    origin: mail.mailer.origin,
    recordBounce: (trackingId, address, reason, source) =>
      mail.mailer.recordBounce(trackingId, address, reason, source),
    options: {
      worker: c.CAMPAIGN_WORKER ?? true,
      ratePerSecond: c.CAMPAIGN_RATE_PER_SECOND ?? 0,
      batchSize: c.CAMPAIGN_BATCH_SIZE ?? 200,
      concurrency: c.CAMPAIGN_CONCURRENCY ?? 20,
      leaseMs: (c.CAMPAIGN_LEASE_SECONDS ?? 300) * 1000,
      retryBaseMs: (c.CAMPAIGN_RETRY_BASE_SECONDS ?? 60) * 1000,
      maxAttempts: c.CAMPAIGN_MAX_ATTEMPTS ?? 4,
      pollMs: c.CAMPAIGN_POLL_MS ?? 500,
      connectionFailures: c.CAMPAIGN_CONNECTION_FAILURES ?? 3,
      window: c.CAMPAIGN_WINDOW_MESSAGES
        ? { messages: c.CAMPAIGN_WINDOW_MESSAGES, seconds: c.CAMPAIGN_WINDOW_SECONDS ?? 3600 }
        : null,
    },
    delivery,
  });
  const launches = new LaunchService({
    pool: deps.pool,
    logger,
    settings: mail.settings,
    liveSendsPerHour: c.CAMPAIGN_LIVE_SENDS_PER_HOUR ?? MAX_CAMPAIGNS_PER_HOUR,
    workerId: worker.workerId,
    kick: () => worker.kick(),
    completeFinished: () => worker.completeFinished(),
  });
  const scheduler = new CampaignScheduler({ worker, delivery, launches });
  await app.register(async (scope) => campaignRoutes(scope, { deps, db, repo, launches, mail, segments }));
  await app.register(async (scope) => deliveryLogRoutes(scope, { deps, log: new DeliveryLog(deps.pool) }));
  app.addHook('onReady', async () => worker.start());
  const tickMs = c.CAMPAIGN_TICK_MS ?? 2000;
  deps.job({
    name: 'campaign-scheduler',
    scope: 'each',
    everyMs: tickMs,
    firstAfterMs: Math.min(tickMs, 200),
    run: () => scheduler.tick(),
  });
  // With the HTTP server (the first phase of a stop): the worker finishes its batch before
  // the shutdown tasks close the transports.
  app.addHook('onClose', async () => worker.stop());
  const mailRenderer = campaignMailRenderer(deps.pool, { origin: mail.mailer.origin, signer: mail.signer });
  return { repo, launches, mailRenderer };
}
