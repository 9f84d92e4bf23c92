import { fileURLToPath } from 'node:url';
import { createLogger, createPool, migrate, type RunningService, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, ensureFirstAdmin } from '../src/bootstrap.ts';
import { createDb } from '../src/db.ts';
import { IdentityRepository } from '../src/repo/identity.repository.ts';
import { identityService } from '../src/service.ts';

const secret = 'x'.repeat(40);
const started: RunningService[] = [];
const silent = createLogger('identity-bootstrap-test', 'silent');
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

async function rows(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query('SELECT email, role, must_change_password FROM admin_users');
  await client.end();
  return rows;
}

describe('first admin bootstrap', () => {
  it('creates exactly one super_admin when two services start at once on one database', async () => {
    const url = await createTestDatabase('identity_boot');
    const env = {
      DATABASE_URL: url,
      NATS_URL: process.env.NATS_URL,
      INTERNAL_AUTH_SECRET: secret,
      PARLEY_ADMIN_EMAIL: 'Boss@Parley.test',
      PARLEY_ADMIN_PASSWORD: 'boss-password',
    };
    const services = await Promise.all(
      [1, 2].map(() =>
        startService(identityService, { env, logger: silent, listen: { host: '127.0.0.1', port: 0 } }),
      ),
    );
    started.push(...services);
    expect(await rows(url)).toEqual([
      { email: 'boss@parley.test', role: 'super_admin', must_change_password: false },
    ]);
    const login = await fetch(`${services[1]!.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'boss@parley.test', password: 'boss-password' }),
    });
    expect(login.status).toBe(200);
  });

  it('without configured credentials prints a generated password once and requires a change', async () => {
    const url = await createTestDatabase('identity_boot_gen');
    await migrate(url, fileURLToPath(new URL('../prisma/migrations', import.meta.url)));
    const pool = createPool(url, 4);
    const repo = new IdentityRepository(createDb(pool));
    const printed: Array<[string, string]> = [];
    const print = (email: string, password: string) => printed.push([email, password]);
    const results = await Promise.all([1, 2, 3].map(() => ensureFirstAdmin(repo, {}, silent, { print })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(printed).toHaveLength(1);
    expect(printed[0]![0]).toBe(DEFAULT_ADMIN_EMAIL);
    expect(printed[0]![1].length).toBeGreaterThanOrEqual(16);
    expect(await rows(url)).toEqual([
      { email: DEFAULT_ADMIN_EMAIL, role: 'super_admin', must_change_password: true },
    ]);
    // Idempotent: nothing happens once an admin exists.
    expect(
      await ensureFirstAdmin(repo, { PARLEY_ADMIN_EMAIL: 'other@parley.test' }, silent, { print }),
    ).toEqual({ created: false });
    await repo.db.$disconnect();
    await pool.end();

    // The generated credentials work and the admin is told to change the password.
    const svc = await startService(identityService, {
      env: { DATABASE_URL: url, NATS_URL: process.env.NATS_URL, INTERNAL_AUTH_SECRET: secret },
      logger: silent,
      listen: { host: '127.0.0.1', port: 0 },
    });
    started.push(svc);
    const login = await fetch(`${svc.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEFAULT_ADMIN_EMAIL, password: printed[0]![1] }),
    });
    expect(login.status).toBe(200);
    expect(
      ((await login.json()) as { admin: { mustChangePassword: boolean } }).admin.mustChangePassword,
    ).toBe(true);
  });
});
