import { fileURLToPath } from 'node:url';
import { defineService, parseSecretKey } from '@parley/kit';
import { SettingsEnv } from './config.ts';
import { BrandService } from './crawl/brand.service.ts';
import { createDb } from './db.ts';
import { PlatformProbe } from './diagnostics/probe.ts';
import { parseAllowList } from './domain/address-policy.ts';
import { CONSUMES, PUBLISHES } from './events.ts';
import { ActivityRepository } from './repo/activity.repository.ts';
import { SettingsRepository } from './repo/settings.repository.ts';
import { brandRoutes } from './routes/brand.ts';
import { diagnosticsRoutes } from './routes/diagnostics.ts';
import { featureDiscoveryRoutes } from './routes/feature-discovery.ts';
import { settingsRoutes } from './routes/settings.ts';
import { startActivityProjection } from './services/activity-projection.ts';
import { CopySync } from './services/copy-sync.ts';
import { FeatureDiscoveryService } from './services/feature-discovery.service.ts';

/**
 * Composition root of the settings service: settings, brand intelligence, diagnostics, and
 * feature discovery (the activity projection fed by events, its rules and insights).
 */
export const settingsService = defineService({
  name: 'settings',
  envSchema: SettingsEnv,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  events: { publishes: PUBLISHES, consumes: CONSUMES },
  async register(app, deps) {
    const sealKey = parseSecretKey(deps.config.SETTINGS_ENCRYPTION_KEY, 'SETTINGS_ENCRYPTION_KEY');
    const db = createDb(deps.pool);
    deps.onShutdown(() => db.$disconnect());
    const repo = new SettingsRepository(db, deps.pool, sealKey);
    const allowPrivate = parseAllowList(deps.config.SETTINGS_CRAWL_ALLOW_PRIVATE);
    if (allowPrivate.size > 0)
      deps.logger.warn(
        { endpoints: [...allowPrivate] },
        'SETTINGS_CRAWL_ALLOW_PRIVATE is set: the brand crawl may reach these private endpoints (tests only)',
      );
    // The OpenAI adapters (and the SDK) load only when configured: module loading is start time.
    const refiner = deps.config.OPENAI_API_KEY
      ? (await import('./providers/brand-ai.ts')).openAiBrandRefiner({
          apiKey: deps.config.OPENAI_API_KEY,
          model: deps.config.SETTINGS_AI_MODEL ?? 'gpt-4o-mini',
        })
      : null;
    deps.logger.info(
      { brandAnalysis: refiner ? `openai ${refiner.model}` : 'local' },
      'brand analysis ready',
    );
    const brand = new BrandService({ repo, logger: deps.logger, refiner, allowPrivate, now: deps.now });
    const probe = new PlatformProbe(deps.bus, deps.config.DIAGNOSTICS_TIMEOUT_MS ?? 3000);
    const copies = new CopySync(
      new PlatformProbe(deps.bus, deps.config.SETTINGS_APPLY_TIMEOUT_MS ?? 3000),
      deps.logger,
    );
    const activity = new ActivityRepository(deps.pool);
    await startActivityProjection(deps, activity);
    const writer = deps.config.OPENAI_API_KEY
      ? (await import('./providers/insights-ai.ts')).openAiInsightsWriter({
          apiKey: deps.config.OPENAI_API_KEY,
          model: deps.config.SETTINGS_AI_MODEL ?? 'gpt-4o-mini',
        })
      : null;
    const features = new FeatureDiscoveryService({
      repo: activity,
      writer,
      logger: deps.logger,
      now: deps.now,
    });
    const ctx = { deps, config: deps.config, repo, probe, copies, brand, features };
    await settingsRoutes(app, ctx);
    await brandRoutes(app, ctx);
    await diagnosticsRoutes(app, ctx);
    await featureDiscoveryRoutes(app, ctx);
  },
});
