import { BUDGET_HIT_PATH, BudgetHitBody, BudgetHitResponse, ErrorBody } from '@parley/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { ServiceInstance } from '../app.ts';
import type { BudgetStore } from './store.ts';

/**
 * The gateway's route budgets, counted in this service's store (the service owning the route):
 * every gateway replica asks the same rows. Internal token only; the gateway's table never
 * forwards /internal paths.
 */
export function budgetRoutes(
  app: ServiceInstance,
  store: Pick<BudgetStore, 'add'>,
  internal: onRequestAsyncHookHandler,
) {
  app.post(
    BUDGET_HIT_PATH,
    {
      onRequest: internal,
      logLevel: 'warn',
      schema: { hide: true, body: BudgetHitBody, response: { 200: BudgetHitResponse, 401: ErrorBody } },
    },
    async (request) => {
      const { key, windowSeconds, hits } = request.body;
      const hit = await store.add(`gateway|${key}`, hits ?? 1, windowSeconds * 1000);
      return { count: hit.count, resetSeconds: Math.ceil(hit.resetMs / 1000) };
    },
  );
}
