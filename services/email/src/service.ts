import { fileURLToPath } from 'node:url';
import { defineService } from '@parley/kit';
import { EmailEnv } from './config.ts';
import { createDb } from './db.ts';
import { CONSUMES, PUBLISHES } from './events.ts';
import { registerAnalytics } from './features/analytics/index.ts';
import { RollupsRepository } from './features/analytics/rollups.repository.ts';
import { registerAudience } from './features/audience/index.ts';
import { registerCampaigns } from './features/campaigns/index.ts';
import { registerDeliverability } from './features/deliverability/index.ts';
import { registerDelivery, registerSentMail } from './features/delivery/index.ts';
import { registerBlogCopy } from './features/newsletters/blog-copy.ts';
import { registerNewsletters } from './features/newsletters/index.ts';
import { registerTracking } from './features/tracking/index.ts';
import { registerWriter } from './features/writer/index.ts';

/** Composition root of the email service: its features (src/features), each registered in turn. */
export const emailService = defineService({
  name: 'email',
  envSchema: EmailEnv,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  events: { publishes: PUBLISHES, consumes: CONSUMES },
  async register(app, deps) {
    const db = createDb(deps.pool);
    deps.onShutdown(() => db.$disconnect());
    const ctx = { deps, db };
    const audience = await registerAudience(app, ctx);
    const mail = await registerDelivery(app, ctx);
    await registerTracking(app, ctx, mail);
    const campaigns = await registerCampaigns(app, ctx, mail, audience.segments);
    await registerSentMail(app, ctx, mail, campaigns.mailRenderer);
    await registerWriter(app, ctx, mail);
    const deliverability = await registerDeliverability(app, ctx, mail);
    const analytics = await registerAnalytics(app, ctx, deliverability.checks);
    const blog = await registerBlogCopy(app, ctx);
    await registerNewsletters(app, ctx, { mail, campaigns, analytics, blog });
  },
  commands: {
    /** `rollups rebuild`: the analytics rollups again from the raw tracking rows (ADR 0067). */
    async rollups(pool, args, logger) {
      if (args[0] !== 'rebuild') {
        logger.error('usage: rollups rebuild');
        return 2;
      }
      const started = performance.now();
      const rows = await new RollupsRepository(pool).rebuild();
      logger.info({ ...rows, ms: Math.round(performance.now() - started) }, 'analytics rollups rebuilt');
      return 0;
    },
  },
});
