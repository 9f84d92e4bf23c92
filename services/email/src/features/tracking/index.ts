import type { ServiceInstance } from '@parley/kit';
import type { EmailContext } from '../../context.ts';
import type { DeliveryHandle } from '../delivery/index.ts';
import { sesRoutes } from './ses.routes.ts';
import { TrackingBuffer } from './tracking.repository.ts';
import { trackingRoutes } from './tracking.routes.ts';
import { unsubscribeRoutes } from './unsubscribe.routes.ts';

/** Opens and clicks, one-click unsubscribe, and SES bounces and complaints (through SNS). */
export async function registerTracking(app: ServiceInstance, ctx: EmailContext, mail: DeliveryHandle) {
  const { deps } = ctx;
  const config = deps.config;
  const logger = deps.logger.child({ component: 'tracking' });
  const { signer, suppress, mailer } = mail;
  const tracking = new TrackingBuffer(deps.pool, logger, {
    batchSize: config.TRACKING_BATCH_SIZE ?? 500,
    flushMs: config.TRACKING_FLUSH_MS ?? 250,
  });
  // Shutdown runs after the server stopped accepting: every hit answered is written.
  deps.onShutdown(() => tracking.close());
  // Each group of routes in its own scope: the unsubscribe and SNS routes read bodies their own way.
  await app.register(async (scope) => trackingRoutes(scope, { signer, buffer: tracking }));
  await app.register(async (scope) =>
    unsubscribeRoutes(scope, { signer, pool: deps.pool, suppress, mailer }),
  );
  const topicArns = list(config.SNS_TOPIC_ARNS);
  if (config.SES_REGION && !topicArns.length)
    logger.warn(
      'SNS_TOPIC_ARNS is empty: SES bounce and complaint notifications are refused until it names their topics',
    );
  await app.register(async (scope) =>
    sesRoutes(scope, {
      pool: deps.pool,
      mail: mail.mail,
      suppress,
      logger,
      testOrigins: list(config.SNS_TEST_CERT_ORIGINS),
      topicArns,
    }),
  );
}

const list = (s: string | undefined) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
