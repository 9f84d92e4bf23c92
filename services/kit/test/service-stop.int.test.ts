import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Type } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKBONE_SCHEMA_SQL } from '../src/bus/sql.ts';
import { ServiceEnv } from '../src/config.ts';
import { createPool } from '../src/db/pool.ts';
import { type ServiceModule, startService } from '../src/service.ts';
import { createTestDatabase } from '../src/testing/database.ts';

/**
 * A service's stop is bounded: a request that never ends and a database client that is
 * never released are named in warnings, and the stop still completes.
 */
const emptyMigrations = mkdtempSync(join(tmpdir(), 'parley-no-migrations-'));
afterAll(() => rmSync(emptyMigrations, { recursive: true, force: true }));

describe('stopping a service', () => {
  it('goes on past a stuck request and an unreleased database client, naming each', async () => {
    const url = await createTestDatabase('service_stop');
    const setup = createPool(url, 1);
    await setup.query(BACKBONE_SCHEMA_SQL);
    await setup.end();

    const warnings: Array<{ phase?: string; msg: string; pool?: { total: number; idle: number } }> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    let requestArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      requestArrived = resolve;
    });
    const module: ServiceModule = {
      name: 'settings',
      envSchema: Type.Object(ServiceEnv),
      migrationsDir: emptyMigrations,
      events: { publishes: [], consumes: [] },
      async register(app, deps) {
        // A handler that never answers, and a client checked out and never released.
        app.get('/stuck', async () => {
          requestArrived();
          await new Promise(() => {});
        });
        await deps.pool.connect();
      },
    };
    const service = await startService(module, {
      env: {
        DATABASE_URL: url,
        NATS_URL: process.env.NATS_URL,
        INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
      },
      logger,
      migrate: false,
      listen: { host: '127.0.0.1', port: 0 },
    });
    const stuck = fetch(`${service.url}/stuck`).then(
      () => 'answered',
      () => 'connection closed',
    );
    await arrived;

    const t0 = Date.now();
    await service.stop();
    const elapsed = Date.now() - t0;

    expect(await stuck).toBe('connection closed');
    const overruns = warnings.filter((w) => w.msg.includes('overran its grace period'));
    expect(overruns.map((w) => w.phase)).toEqual(['http', 'database pool']);
    expect(overruns[1]?.pool).toMatchObject({ total: 1, idle: 0 });
    // Two grace periods of 4 s, not forever.
    expect(elapsed).toBeGreaterThanOrEqual(8000);
    expect(elapsed).toBeLessThan(15_000);
  }, 30_000);
});
