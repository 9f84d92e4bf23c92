import { fileURLToPath } from 'node:url';
import { defineService } from '@parley/kit';
import { registerAnalytics } from './analytics/index.ts';
import { registerAudience } from './audience.ts';
import { registerBlogCopy } from './blog-copy.ts';
import { registerCampaigns } from './campaigns/index.ts';
import { EmailEnv } from './config.ts';
import { createDb } from './db.ts';
import { registerDeliverability } from './deliverability/index.ts';
import { CONSUMES, PUBLISHES } from './events.ts';
import { registerMail } from './mail.ts';
import { registerNewsletters } from './newsletters/index.ts';
import { registerWriter } from './writer/index.ts';

/** Composition root of the email service: the audience (books, contacts, imports), mail and campaigns. */
export const emailService = defineService({
  name: 'email',
  envSchema: EmailEnv,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  events: { publishes: PUBLISHES, consumes: CONSUMES },
  async register(app, deps) {
    const db = createDb(deps.pool);
    deps.onShutdown(() => db.$disconnect());
    const ctx = { deps, db };
    await registerAudience(app, ctx);
    const mail = await registerMail(app, ctx);
    const campaigns = await registerCampaigns(app, ctx, mail);
    await registerWriter(app, ctx, mail);
    const deliverability = await registerDeliverability(app, ctx, mail);
    const analytics = await registerAnalytics(app, ctx, deliverability.checks);
    const blog = await registerBlogCopy(app, ctx);
    await registerNewsletters(app, ctx, { mail, campaigns, analytics, blog });
  },
});
