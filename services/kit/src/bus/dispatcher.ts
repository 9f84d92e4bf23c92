/**
 * Bounded, keyed concurrency for consumers on both buses: at most `limit` deliveries run at
 * once, and deliveries with the same key (an aggregate) run one after another in the order
 * they arrived, so a booking's "created" is handled before its "status_changed".
 */
export class Dispatcher {
  private active = 0;
  private readonly slotWaiters: Array<() => void> = [];
  private readonly idleWaiters: Array<() => void> = [];
  private readonly chains = new Map<string, Promise<void>>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`concurrency must be a positive integer, got ${limit}`);
  }

  get running(): number {
    return this.active;
  }

  /** Resolves once a slot is free: callers pull their next message only then (backpressure). */
  async slot(): Promise<void> {
    while (this.active >= this.limit) await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
  }

  /** Runs `task` in a slot; tasks with the same key run one after another in call order. */
  run(key: string | undefined, task: () => Promise<void>): void {
    this.active++;
    const previous = key === undefined ? undefined : this.chains.get(key);
    const done: Promise<void> = (previous ?? Promise.resolve())
      .then(task)
      .catch(() => {})
      .finally(() => {
        this.active--;
        if (key !== undefined && this.chains.get(key) === done) this.chains.delete(key);
        this.slotWaiters.shift()?.();
        if (this.active === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
    if (key !== undefined) this.chains.set(key, done);
  }

  /** Resolves when nothing runs (graceful stop). */
  async idle(): Promise<void> {
    if (this.active === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }
}
