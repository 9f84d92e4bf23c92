import { type Static, Type } from 'typebox';

/**
 * Internal (gateway → the service owning a route, internal token header): counts one request
 * against a route budget of the gateway's table in that service's database, so the budget holds
 * across every gateway replica (services/kit/src/budgets/routes.ts).
 */
export const BUDGET_HIT_PATH = '/internal/budgets/hit';

export const BudgetHitBody = Type.Object(
  {
    /** The budget's key: the route and the client (the service prefixes it with `gateway|`). */
    key: Type.String({ minLength: 1, maxLength: 512 }),
    windowSeconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
    /** Requests counted at once (a gateway counts the requests of a key that arrive together in one call). */
    hits: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);
export type BudgetHitBody = Static<typeof BudgetHitBody>;

export const BudgetHitResponse = Type.Object({
  /** Requests of the key in the current window, these included. */
  count: Type.Integer({ minimum: 1 }),
  /** Seconds until the window ends. */
  resetSeconds: Type.Integer({ minimum: 0 }),
});
export type BudgetHitResponse = Static<typeof BudgetHitResponse>;
