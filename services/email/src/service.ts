import { fileURLToPath } from 'node:url';
import { defineService } from '@parley/kit';
import { EmailEnv } from './config.ts';
import { createDb } from './db.ts';

/** Composition root of the email service: address books, contacts, mail, tracking, campaigns. */
export const emailService = defineService({
  name: 'email',
  envSchema: EmailEnv,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  async register(_app, deps) {
    const db = createDb(deps.pool);
    deps.onShutdown(() => db.$disconnect());
  },
});
