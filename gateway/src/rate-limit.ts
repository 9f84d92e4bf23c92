import { BUDGET_HIT_PATH, type BudgetHitResponse } from '@parley/contracts';
import { BudgetCounter, INTERNAL_TOKEN_HEADER, internalToken } from '@parley/kit';
import type { Upstream } from './proxy.ts';
import type { RateLimit } from './routes.ts';

/** How long the gateway waits for a budget count before it answers 503. */
const BUDGET_TIMEOUT_MS = 5000;

/**
 * Fixed-window counters per (route, client IP) for the table's rate-limited public routes
 * (those that cost money), kept by the service that owns the route, in its database
 * (services/kit/src/budgets/routes.ts): every gateway replica counts in the same rows, so a
 * budget holds whatever the number of replicas. Only these routes pay the internal call; the
 * requests of a key that arrive together are counted in one call, and once a key is spent it is
 * refused here until its window ends (kit BudgetCounter), so a flood costs the service nothing.
 * The service keeps its own per-route limits as well.
 */
export class RouteBudgets {
  private readonly token: string;
  private readonly counters = new Map<Upstream, BudgetCounter>();

  constructor(secret: string) {
    this.token = internalToken(secret, 'gateway');
  }

  /** Counts one hit; returns the seconds to wait when the budget is spent, else 0. */
  async hit(upstream: Upstream, key: string, limit: RateLimit): Promise<number> {
    let counter = this.counters.get(upstream);
    if (!counter) {
      counter = new BudgetCounter({ add: (k, hits, windowMs) => this.count(upstream, k, hits, windowMs) });
      this.counters.set(upstream, counter);
    }
    const hit = await counter.hit(key, limit.windowSeconds * 1000, limit.max);
    return hit.count > limit.max ? Math.max(1, Math.ceil(hit.resetMs / 1000)) : 0;
  }

  private async count(upstream: Upstream, key: string, hits: number, windowMs: number) {
    const { statusCode, body } = await upstream.pool.request({
      method: 'POST',
      path: upstream.basePath + BUDGET_HIT_PATH,
      headers: { 'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: this.token },
      body: JSON.stringify({ key, windowSeconds: Math.ceil(windowMs / 1000), hits }),
      headersTimeout: BUDGET_TIMEOUT_MS,
      bodyTimeout: BUDGET_TIMEOUT_MS,
    });
    if (statusCode !== 200) {
      await body.dump();
      throw new Error(`${upstream.service} answered ${statusCode} to a budget count`);
    }
    const answer = (await body.json()) as BudgetHitResponse;
    return { count: answer.count, resetMs: answer.resetSeconds * 1000 };
  }
}
