import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_MIGRATION } from '../src/budgets/sql.ts';
import { PgBudgetStore } from '../src/budgets/store.ts';
import { createTestDatabase } from '../src/testing/database.ts';

/**
 * The shared budget store on real PostgreSQL: two replicas (two pools) counting one key at the
 * same time, windows that end and start again, and the sweep.
 */
let pools: pg.Pool[] = [];
let clock = Date.parse('2026-11-26T10:00:00.000Z');
let replicas: PgBudgetStore[] = [];

beforeAll(async () => {
  const url = await createTestDatabase('kit_budgets');
  pools = [new pg.Pool({ connectionString: url, max: 8 }), new pg.Pool({ connectionString: url, max: 8 })];
  await pools[0]!.query(RATE_LIMIT_MIGRATION);
  replicas = pools.map((p) => new PgBudgetStore(p, () => clock));
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

describe('PgBudgetStore', () => {
  it('counts every hit of two replicas once: 200 hits at once give the counts 1..200', async () => {
    const counts = await Promise.all(
      Array.from({ length: 200 }, (_, i) => replicas[i % 2]!.add('POST /api/bookings|10.0.0.1', 1, 60_000)),
    );
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    expect(new Set(counts.map((c) => c.resetMs))).toEqual(new Set([60_000]));
  });

  it('counts several hits at once, and starts a new window when the last one has ended', async () => {
    const key = 'POST /api/contact|10.0.0.2';
    expect(await replicas[0]!.add(key, 5, 60_000)).toEqual({ count: 5, resetMs: 60_000 });
    clock += 59_000;
    expect(await replicas[1]!.add(key, 1, 60_000)).toEqual({ count: 6, resetMs: 1000 });
    clock += 1000;
    expect(await replicas[0]!.add(key, 1, 60_000)).toEqual({ count: 1, resetMs: 60_000 });
  });

  it('sweeps the windows that have ended, and only those', async () => {
    await replicas[0]!.add('old|10.0.0.3', 1, 1000);
    await replicas[0]!.add('live|10.0.0.3', 1, 120_000);
    clock += 1000;
    expect(await replicas[1]!.sweep()).toBeGreaterThanOrEqual(1);
    const { rows } = await pools[0]!.query<{ key: string }>('SELECT "key" FROM "rate_limit_windows"');
    const keys = rows.map((r) => r.key);
    expect(keys).toContain('live|10.0.0.3');
    expect(keys).not.toContain('old|10.0.0.3');
  });
});
