import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from 'typebox';
import { afterAll, expect, it } from 'vitest';
import { BACKBONE_SCHEMA_SQL } from '../src/bus/sql.ts';
import { ServiceEnv } from '../src/config.ts';
import { createPool } from '../src/db/pool.ts';
import { createLogger } from '../src/logger.ts';
import { defineService, startService } from '../src/service.ts';
import { createTestDatabase } from '../src/testing/database.ts';

/** deps.consume takes only what the service's events.ts declares in CONSUMES. */
const emptyMigrations = mkdtempSync(join(tmpdir(), 'parley-no-migrations-'));
afterAll(() => rmSync(emptyMigrations, { recursive: true, force: true }));

it('refuses a consumer of a subject the service did not declare', async () => {
  const url = await createTestDatabase('service_events');
  const setup = createPool(url, 1);
  await setup.query(BACKBONE_SCHEMA_SQL);
  await setup.end();
  const outcomes: string[] = [];
  const module = defineService({
    name: 'settings',
    envSchema: Type.Object(ServiceEnv),
    migrationsDir: emptyMigrations,
    events: { publishes: [], consumes: ['booking.booking.created'] },
    async register(_app, deps) {
      const handler = async () => {};
      await deps.consume({ durable: 'settings-declared', subjects: ['booking.booking.created'], handler });
      outcomes.push('declared: subscribed');
      await deps
        .consume({ durable: 'settings-undeclared', subjects: ['blog.post.published'], handler })
        .catch((err: Error) => outcomes.push(err.message));
    },
  });
  const service = await startService(module, {
    env: {
      DATABASE_URL: url,
      NATS_URL: process.env.NATS_URL,
      INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
    },
    logger: createLogger('settings', 'silent'),
    migrate: false,
    listen: { host: '127.0.0.1', port: 0 },
  });
  await service.stop();
  expect(outcomes).toEqual([
    'declared: subscribed',
    'settings: consumer settings-undeclared takes blog.post.published, not declared in CONSUMES (src/events.ts)',
  ]);
}, 30_000);
