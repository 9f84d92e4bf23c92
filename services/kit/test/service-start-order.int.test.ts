import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Type } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceEnv } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { startNatsServer } from '../src/local/nats.ts';
import { freePort } from '../src/local/ports.ts';
import { startEmbeddedPostgres } from '../src/local/postgres.ts';
import { type RunningService, type ServiceModule, startService } from '../src/service.ts';

/**
 * Kubernetes starts a service, its PostgreSQL and NATS together, in no order. A service that
 * starts first waits for both (and for its database to be created) instead of exiting, then
 * migrates and serves: nothing restarts.
 */
const migrations = mkdtempSync(join(tmpdir(), 'parley-start-order-'));
afterAll(() => rmSync(migrations, { recursive: true, force: true }));

describe('a service started before its database and NATS', () => {
  it('waits for them, then migrates and answers ready', async () => {
    const [pgPort, natsPort] = [await freePort(), await freePort()];
    const lines: Array<{ msg: string; reason?: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const module: ServiceModule = {
      name: 'booking',
      envSchema: Type.Object(ServiceEnv),
      migrationsDir: migrations,
      events: { publishes: [], consumes: [] },
      async register() {},
    };
    let service: RunningService | undefined;
    const starting = startService(module, {
      env: {
        DATABASE_URL: `postgresql://postgres:postgres@127.0.0.1:${pgPort}/parley_booking`,
        NATS_URL: `nats://127.0.0.1:${natsPort}`,
        INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
      },
      logger,
      listen: { host: '127.0.0.1', port: 0 },
    }).then((s) => {
      service = s;
    });
    const saw = async (reason: string) => {
      const deadline = Date.now() + 20_000;
      while (!lines.some((l) => l.msg === 'waiting for the database' && l.reason === reason)) {
        if (Date.now() > deadline) throw new Error(`never waited on ${reason}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    // Nothing answers yet: the service waits (it has not failed, and has not started).
    await saw('ECONNREFUSED');
    expect(service).toBeUndefined();
    const pg = await startEmbeddedPostgres({ port: pgPort });
    // The server is up but the database does not exist yet (a Helm hook would create it).
    await saw('3D000');
    expect(service).toBeUndefined();
    const admin = new (await import('pg')).default.Client({ connectionString: pg.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE parley_booking');
    await admin.end();
    const nats = await startNatsServer({ port: natsPort });
    try {
      await starting;
      const ready = await fetch(`${service?.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(lines.some((l) => l.msg.startsWith('the database answers after'))).toBe(true);
    } finally {
      await service?.stop();
      await nats.dispose();
      await pg.stop();
    }
  }, 60_000);

  it('without MIGRATE_ON_START, waits for the migrations a Job applies beside it (kustomize)', async () => {
    // One migration that creates the table register() reads at start (as email's default book).
    const dir = mkdtempSync(join(tmpdir(), 'parley-migrate-job-'));
    mkdirSync(join(dir, '20260101000000_things'));
    writeFileSync(join(dir, '20260101000000_things/migration.sql'), 'CREATE TABLE "things" ("id" int);');
    const pg = await startEmbeddedPostgres();
    const lines: Array<{ msg: string; missing?: number }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const module: ServiceModule = {
      name: 'booking',
      envSchema: Type.Object(ServiceEnv),
      migrationsDir: dir,
      events: { publishes: [], consumes: [] },
      async register(_app, deps) {
        await deps.pool.query('SELECT count(*) FROM "things"');
      },
    };
    let service: RunningService | undefined;
    let failed: unknown;
    const starting = startService(module, {
      env: {
        DATABASE_URL: pg.adminUrl,
        NATS_URL: process.env.NATS_URL,
        INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
      },
      logger,
      migrate: false,
      listen: { host: '127.0.0.1', port: 0 },
    }).then(
      (s) => {
        service = s;
      },
      (err) => {
        failed = err;
      },
    );
    try {
      const deadline = Date.now() + 20_000;
      while (!lines.some((l) => l.msg === 'waiting for the migrations' && l.missing === 1) && !failed) {
        if (Date.now() > deadline) throw new Error('never waited for the migrations');
        await new Promise((r) => setTimeout(r, 50));
      }
      // Neither failed on the missing table nor started without it.
      expect(failed).toBeUndefined();
      expect(service).toBeUndefined();
      await migrate(pg.adminUrl, dir);
      await starting;
      expect(failed).toBeUndefined();
      expect((await fetch(`${service?.url}/health/ready`)).status).toBe(200);
      expect(lines.some((l) => l.msg.startsWith('migrations applied after'))).toBe(true);
    } finally {
      // A wait that never ended ends when the server goes (its connection is refused).
      const started = service !== undefined;
      if (!started) await pg.stop();
      await starting;
      await service?.stop();
      if (started) await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('exits at once on a wrong password: no wait would fix it', async () => {
    const pg = await startEmbeddedPostgres();
    const url = new URL(pg.adminUrl);
    url.password = 'wrong';
    const module: ServiceModule = {
      name: 'booking',
      envSchema: Type.Object(ServiceEnv),
      migrationsDir: migrations,
      events: { publishes: [], consumes: [] },
      async register() {},
    };
    try {
      await expect(
        startService(module, {
          env: {
            DATABASE_URL: url.href,
            NATS_URL: process.env.NATS_URL,
            INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
          },
          logger: pino({ level: 'silent' }),
          listen: { host: '127.0.0.1', port: 0 },
        }),
      ).rejects.toThrow(/password/);
    } finally {
      await pg.stop();
    }
  }, 30_000);
});
