import { fileURLToPath } from 'node:url';
import { defineService } from '@parley/kit';
import { SettingsEnv } from './config.ts';
import { createDb } from './db.ts';

/** Composition root of the settings service: settings, brand intelligence, diagnostics. */
export const settingsService = defineService({
  name: 'settings',
  envSchema: SettingsEnv,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  async register(_app, deps) {
    const db = createDb(deps.pool);
    deps.onShutdown(() => db.$disconnect());
  },
});
