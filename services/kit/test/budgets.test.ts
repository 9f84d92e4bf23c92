import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { buildServiceApp } from '../src/app.ts';
import { BudgetCounter, type BudgetHit, MemoryBudgetStore } from '../src/budgets/store.ts';
import { loadConfig, ServiceEnv } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { createServiceMetrics } from '../src/metrics.ts';

/** A store that records each `add` it is asked for (key and hits), over memory. */
function recordingStore(now: () => number) {
  const memory = new MemoryBudgetStore(now);
  const adds: Array<[string, number]> = [];
  return {
    adds,
    store: {
      add(key: string, hits: number, windowMs: number): Promise<BudgetHit> {
        adds.push([key, hits]);
        return memory.add(key, hits, windowMs);
      },
    },
  };
}

describe('BudgetCounter', () => {
  it('counts the hits of a key that arrive together in one add, each with its own place in the window', async () => {
    let t = 1_000_000;
    const rec = recordingStore(() => t);
    const counter = new BudgetCounter(rec.store, () => t);
    const hits = await Promise.all(Array.from({ length: 10 }, () => counter.hit('k', 60_000, 100)));
    expect(hits.map((h) => h.count)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The first hit goes alone; the nine that arrived while it was on its way go together.
    expect(rec.adds).toEqual([
      ['k', 1],
      ['k', 9],
    ]);
    t += 1;
    expect((await counter.hit('other', 60_000, 100)).count).toBe(1);
  });

  it('refuses a spent key without asking until its window ends, then asks again', async () => {
    let t = 5_000_000;
    const rec = recordingStore(() => t);
    const counter = new BudgetCounter(rec.store, () => t);
    for (let i = 1; i <= 3; i++) expect((await counter.hit('k', 60_000, 3)).count).toBe(i);
    const asked = rec.adds.length;
    t += 10_000;
    const refused = await counter.hit('k', 60_000, 3);
    expect(refused.count).toBeGreaterThan(3);
    expect(refused.resetMs).toBe(50_000);
    expect(rec.adds.length).toBe(asked);
    t += 50_000;
    expect((await counter.hit('k', 60_000, 3)).count).toBe(1);
    expect(rec.adds.length).toBe(asked + 1);
  });

  it('hands a failed count to every hit of the batch, and the next hit asks again', async () => {
    let fail = true;
    const memory = new MemoryBudgetStore();
    const counter = new BudgetCounter({
      add: (key, hits, windowMs) =>
        fail ? Promise.reject(new Error('database unavailable')) : memory.add(key, hits, windowMs),
    });
    const results = await Promise.allSettled([counter.hit('k', 1000, 5), counter.hit('k', 1000, 5)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect((await counter.hit('k', 1000, 5)).count).toBe(1);
  });
});

describe('per-route limits of the service app', () => {
  it('keep one count per route in the given store, and RATE_LIMIT_MULTIPLIER raises every route alike', async () => {
    const store = new MemoryBudgetStore();
    const app = await buildServiceApp({
      name: 'budgets',
      logger: createLogger('budgets', 'silent'),
      metrics: createServiceMetrics('budgets'),
      readiness: {},
      rateLimit: { counter: new BudgetCounter(store), multiplier: 3 },
    });
    // One options object shared by two routes (as services do): each gets max 2 × 3.
    const shared = { rateLimit: { max: 2, timeWindow: '1 minute' } };
    app.post('/a', { config: shared }, async () => ({ ok: true }));
    app.post('/b', { config: shared }, async () => ({ ok: true }));
    await app.ready();
    const codes = async (url: string) => {
      const out: number[] = [];
      for (let i = 0; i < 7; i++) out.push((await app.inject({ method: 'POST', url })).statusCode);
      return out;
    };
    expect(await codes('/a')).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect(await codes('/b')).toEqual([200, 200, 200, 200, 200, 200, 429]);
    // The counts are the store's, one key per route and client (the seventh, past a spent
    // budget, was refused without asking).
    expect((await store.add('POST /a|127.0.0.1', 0, 60_000)).count).toBe(6);
    expect(shared.rateLimit.max).toBe(2);
    await app.close();
  });

  it('RATE_LIMIT_MULTIPLIER is a setting of every process (the kit reads it)', () => {
    const env = { DATABASE_URL: 'postgres://x/y', INTERNAL_AUTH_SECRET: 'x'.repeat(32) };
    const config = loadConfig('any', Type.Object(ServiceEnv), { ...env, RATE_LIMIT_MULTIPLIER: '1000' });
    expect(config.RATE_LIMIT_MULTIPLIER).toBe(1000);
    expect(() =>
      loadConfig('any', Type.Object(ServiceEnv), { ...env, RATE_LIMIT_MULTIPLIER: '0.5' }),
    ).toThrow(/RATE_LIMIT_MULTIPLIER/);
  });
});
