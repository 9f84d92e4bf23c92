import { fileURLToPath } from 'node:url';
import { defineService } from '@parley/kit';
import { ensureFirstAdmin } from './bootstrap.ts';
import { IdentityEnv, settingsFrom } from './config.ts';
import { PasswordChecker } from './crypto.ts';
import { createDb } from './db.ts';
import { THROTTLE_WINDOW_MS } from './domain/throttle.ts';
import { CONSUMES, PUBLISHES } from './events.ts';
import { IdentityRepository } from './repo/identity.repository.ts';
import { internalRoutes } from './routes/internal.ts';
import { sessionRoutes } from './routes/session.ts';
import { userRoutes } from './routes/users.ts';
import { SessionService } from './session.service.ts';

export { type ProvisionInput, provisionAdmin } from './provision.ts';

const HOUSEKEEPING_EVERY_MS = 10 * 60_000;

/** Composition root of the identity service: admins, sessions, invitations. */
export const identityService = defineService({
  name: 'identity',
  envSchema: IdentityEnv,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  events: { publishes: PUBLISHES, consumes: CONSUMES },
  async register(app, deps) {
    const settings = settingsFrom(deps.config);
    const db = createDb(deps.pool);
    deps.onShutdown(() => db.$disconnect());
    const repo = new IdentityRepository(db);
    const passwords = await PasswordChecker.create();
    await ensureFirstAdmin(repo, deps.config, deps.logger, { now: deps.now });

    const sessions = new SessionService(repo, passwords, settings, deps.now);
    const ctx = { repo, sessions, deps, settings, passwords, now: deps.now };
    await sessionRoutes(app, ctx);
    await userRoutes(app, ctx);
    await internalRoutes(app, ctx);

    // Housekeeping: expired sessions, aged-out sign-in attempts, long-dead invitations.
    deps.job({
      name: 'identity-housekeeping',
      scope: 'one',
      everyMs: HOUSEKEEPING_EVERY_MS,
      run: async () =>
        deps.logger.debug(await repo.purge(deps.now(), THROTTLE_WINDOW_MS), 'identity housekeeping'),
    });
  },
});
