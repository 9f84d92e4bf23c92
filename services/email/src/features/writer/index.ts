import type { ServiceInstance } from '@parley/kit';
import type { EmailContext } from '../../context.ts';
import type { DeliveryHandle } from '../delivery/index.ts';
import { writerRoutes } from './writer.routes.ts';
import { type CampaignWriter, writerFrom } from './writer.service.ts';

/** AI writing: the campaign generator and the content optimizer (OpenAI when configured, else local). */
export async function registerWriter(
  app: ServiceInstance,
  ctx: EmailContext,
  mail: DeliveryHandle,
): Promise<{ writer: CampaignWriter }> {
  const { deps } = ctx;
  const writer = await writerFrom(deps.config);
  deps.logger.info({ provider: writer.provider, model: writer.model }, 'campaign writer ready');
  await app.register(async (scope) =>
    writerRoutes(scope, {
      deps,
      writer,
      mailer: mail.mailer,
      ratePerMinute: deps.config.EMAIL_AI_RATE_LIMIT ?? 10,
    }),
  );
  return { writer };
}
