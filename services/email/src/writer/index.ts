import type { ServiceInstance } from '@parley/kit';
import type { EmailContext } from '../context.ts';
import type { MailHandle } from '../mail.ts';
import { writerRoutes } from './routes.ts';
import { type CampaignWriter, writerFrom } from './writer.ts';

/** AI writing: the campaign generator and the content optimizer (OpenAI when configured, else local). */
export async function registerWriter(
  app: ServiceInstance,
  ctx: EmailContext,
  mail: MailHandle,
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
