import { fileURLToPath } from 'node:url';
import { defineService } from '@parley/kit';
import { BlogEnv, settingsFrom } from './config.ts';
import { createDb } from './db.ts';
import { registerDiagnostics } from './diagnostics.ts';
import { CONSUMES, PUBLISHES } from './events.ts';
import { generatorFrom } from './providers/index.ts';
import { BlogRepository } from './repo/blog.repository.ts';
import { PublicCache } from './repo/public-cache.ts';
import { adminRoutes } from './routes/admin.ts';
import { publicRoutes } from './routes/public.ts';

/** Composition root of the blog service: posts, images, AI authoring, feeds. */
export const blogService = defineService({
  name: 'blog',
  envSchema: BlogEnv,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  events: { publishes: PUBLISHES, consumes: CONSUMES },
  async register(app, deps) {
    const settings = settingsFrom(deps.config);
    const db = createDb(deps.pool);
    deps.onShutdown(() => db.$disconnect());
    const repo = new BlogRepository(db, deps.pool);
    const cache = new PublicCache({ pool: deps.pool, logger: deps.logger });
    await cache.start();
    deps.onShutdown(() => cache.stop());
    const generator = await generatorFrom(deps.config);
    deps.logger.info({ provider: generator.provider, model: generator.model }, 'blog writer ready');
    registerDiagnostics(deps, { generator });
    const ctx = { repo, cache, generator, settings, deps, now: deps.now };
    await publicRoutes(app, ctx);
    await adminRoutes(app, ctx);
  },
});
