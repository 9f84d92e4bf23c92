import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type pg from 'pg';

/** The state of a budget after some hits: the hits of its key in the current window, and when it ends. */
export interface BudgetHit {
  count: number;
  /** Milliseconds until the window ends (the count starts afresh after). */
  resetMs: number;
}

/**
 * Fixed-window counters per key (a route and a client). A window starts with the first hit of
 * its key and lasts `windowMs`; a hit after it starts the next one. The caller compares the
 * count with its budget.
 */
export interface BudgetStore {
  /** Counts `hits` hits of `key` at once; the count returned includes them. */
  add(key: string, hits: number, windowMs: number): Promise<BudgetHit>;
  /** Forgets windows that have ended; returns how many. */
  sweep(): Promise<number>;
}

const MAX_HITS = 2_147_483_647;

/**
 * Counts hits and returns the window's count, in one statement: the row of the key is
 * inserted, incremented, or, when its window has ended, started afresh. The row lock of the
 * upsert serialises concurrent counts of a key, so N replicas together never let more through
 * than the budget.
 */
const ADD_SQL = `INSERT INTO "rate_limit_windows" AS w ("key", "hits", "reset_at") VALUES ($1, $4, $3)
ON CONFLICT ("key") DO UPDATE SET
  "hits" = CASE WHEN w."reset_at" <= $2 THEN $4 ELSE LEAST(w."hits" + $4, ${MAX_HITS}) END,
  "reset_at" = CASE WHEN w."reset_at" <= $2 THEN EXCLUDED."reset_at" ELSE w."reset_at" END
RETURNING "hits", "reset_at"`;

/**
 * The budgets of a service in its own database (`rate_limit_windows`, services/kit/src/budgets/sql.ts):
 * every replica counts in the same rows, so a budget holds whatever the replica count.
 */
export class PgBudgetStore implements BudgetStore {
  constructor(
    private readonly pool: Pick<pg.Pool, 'query'>,
    private readonly now: () => number = Date.now,
  ) {}

  async add(key: string, hits: number, windowMs: number): Promise<BudgetHit> {
    const now = this.now();
    const { rows } = await this.pool.query<{ hits: number; reset_at: Date }>({
      name: 'kit_rate_limit_add',
      text: ADD_SQL,
      values: [key, new Date(now), new Date(now + windowMs), hits],
    });
    const row = rows[0];
    if (!row) throw new Error('rate_limit_windows: the upsert returned no row');
    return { count: row.hits, resetMs: Math.max(0, row.reset_at.getTime() - now) };
  }

  async sweep(): Promise<number> {
    const res = await this.pool.query('DELETE FROM "rate_limit_windows" WHERE "reset_at" <= $1', [
      new Date(this.now()),
    ]);
    return res.rowCount ?? 0;
  }
}

/** The same counters in this process's memory (one process only: tests, stand-ins). */
export class MemoryBudgetStore implements BudgetStore {
  private readonly windows = new Map<string, { hits: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async add(key: string, hits: number, windowMs: number): Promise<BudgetHit> {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { hits: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.hits = Math.min(w.hits + hits, MAX_HITS);
    return { count: w.hits, resetMs: w.resetAt - now };
  }

  async sweep(): Promise<number> {
    const now = this.now();
    let n = 0;
    for (const [key, w] of this.windows)
      if (w.resetAt <= now) {
        this.windows.delete(key);
        n++;
      }
    return n;
  }
}

interface Waiter {
  resolve(hit: BudgetHit): void;
  reject(err: unknown): void;
}

/** Keys known to be spent, kept at most this many (a flood of addresses cannot grow it without end). */
const MAX_SPENT_KEYS = 10_000;

/**
 * A process's way into a shared store, so that one client flooding a budget costs the store
 * (a service's database, or the service the gateway asks) almost nothing:
 * - the hits of a key that arrive while its count is on the way are counted together, in one
 *   `add`: at most one count per key is in flight from this process;
 * - once a key's count is past its budget, later hits are refused here, without asking, until
 *   its window ends.
 */
export class BudgetCounter {
  private readonly queues = new Map<string, Waiter[]>();
  private readonly spent = new Map<string, number>();

  constructor(
    private readonly store: Pick<BudgetStore, 'add'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit of `key` against a budget of `max` per window. */
  hit(key: string, windowMs: number, max = Number.POSITIVE_INFINITY): Promise<BudgetHit> {
    const refused = this.spentHit(key, max);
    if (refused) return Promise.resolve(refused);
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) queue.push({ resolve, reject });
      else {
        this.queues.set(key, [{ resolve, reject }]);
        void this.drain(key, windowMs, max);
      }
    });
  }

  private spentHit(key: string, max: number): BudgetHit | undefined {
    const until = this.spent.get(key);
    if (until === undefined) return undefined;
    const now = this.now();
    if (until > now) return { count: max + 1, resetMs: until - now };
    this.spent.delete(key);
    return undefined;
  }

  private async drain(key: string, windowMs: number, max: number) {
    const queue = this.queues.get(key) as Waiter[];
    while (queue.length) {
      const batch = queue.splice(0);
      const refused = this.spentHit(key, max);
      if (refused) {
        for (const w of batch) w.resolve(refused);
        continue;
      }
      try {
        const total = await this.store.add(key, batch.length, windowMs);
        // The batch's hits are the last `batch.length` of the window's count, in arrival order.
        const first = total.count - batch.length;
        for (const [i, w] of batch.entries()) w.resolve({ count: first + i + 1, resetMs: total.resetMs });
        if (total.count >= max && total.resetMs > 0) this.markSpent(key, this.now() + total.resetMs);
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.queues.delete(key);
  }

  private markSpent(key: string, until: number) {
    if (this.spent.size >= MAX_SPENT_KEYS) {
      const now = this.now();
      for (const [k, t] of this.spent) if (t <= now) this.spent.delete(k);
      if (this.spent.size >= MAX_SPENT_KEYS) this.spent.clear();
    }
    this.spent.set(key, until);
  }
}

/**
 * A store for @fastify/rate-limit (its `store` option: a class the plugin instantiates, whose
 * `child` is called once per route). Each route's keys are prefixed with its method and path,
 * as the plugin's own stores keep a map per route.
 */
export function fastifyRateLimitStore(counter: BudgetCounter): FastifyRateLimitStoreCtor {
  type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;
  class RouteStore {
    constructor(private readonly prefix: string) {}
    incr(key: string, cb: Callback, timeWindow: number, max: number) {
      counter.hit(this.prefix + key, timeWindow, max).then(
        (r) => cb(null, { current: r.count, ttl: r.resetMs }),
        (err: Error) => cb(err),
      );
    }
    child(params: { routeInfo?: { method?: string | string[]; url?: string } }) {
      const method = [params.routeInfo?.method ?? ''].flat().join(',');
      return new RouteStore(`${method} ${params.routeInfo?.url ?? ''}|`);
    }
  }
  // The plugin calls `new Store(globalParams)`: a constructor returning the root store. (Its
  // types say `child` receives the route's options; it receives the merged limit parameters,
  // whose `routeInfo` is the route.)
  return function SharedStore() {
    return new RouteStore('|');
  } as unknown as FastifyRateLimitStoreCtor;
}
