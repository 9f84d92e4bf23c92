import type { RateLimit } from './routes.ts';

/**
 * Fixed-window counters per (route, client IP) for the table's rate-limited public routes
 * (those that cost money). Per gateway replica; the owning services keep their own
 * limits too, so scaling out the gateway never lifts a service's protection.
 */
export class WindowLimiter {
  private readonly windows = new Map<string, { resetAt: number; count: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one hit; returns the seconds to wait when the budget is spent, else 0. */
  hit(key: string, limit: RateLimit): number {
    const now = this.now();
    this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { resetAt: now + limit.windowSeconds * 1000, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    return w.count > limit.max ? Math.max(1, Math.ceil((w.resetAt - now) / 1000)) : 0;
  }

  private sweep(now: number) {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
