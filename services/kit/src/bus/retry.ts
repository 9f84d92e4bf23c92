/**
 * Retry schedules of the backbone. A consumer's failed delivery is retried with exponential
 * backoff and jitter for as long as a real outage lasts (hours by default); only then does
 * the event go to the dead letters. The schedule is a function of the delivery count alone,
 * so it needs no clock shared between deliveries and behaves the same on both buses.
 */

export interface RetryPolicy {
  /** Delay after the first failure. */
  initialDelayMs: number;
  /** Cap of one delay. */
  maxDelayMs: number;
  multiplier: number;
  /** ± share of each delay drawn at random, so retries of many events do not stampede. */
  jitter: number;
  /** Retry for at least this long (sum of the delays) before dead-lettering. */
  retryForMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  initialDelayMs: 1000,
  maxDelayMs: 10 * 60_000,
  multiplier: 2,
  jitter: 0.2,
  retryForMs: 24 * 3600_000,
};

/** Nominal delay (no jitter) after the `failures`-th failure (1-based). */
export function nominalDelayMs(policy: RetryPolicy, failures: number): number {
  const exp = policy.initialDelayMs * policy.multiplier ** Math.max(0, failures - 1);
  return Math.min(policy.maxDelayMs, exp);
}

/** Delay before the next delivery after the `failures`-th failure, with jitter. */
export function retryDelayMs(policy: RetryPolicy, failures: number, random = Math.random): number {
  const nominal = nominalDelayMs(policy, failures);
  const spread = nominal * policy.jitter;
  return Math.max(0, Math.round(nominal - spread + random() * 2 * spread));
}

/**
 * Deliveries an event gets before it is dead-lettered: the smallest n whose nominal delays
 * add up to `retryForMs` (at least 1).
 */
export function maxDeliveries(policy: RetryPolicy): number {
  let total = 0;
  let n = 0;
  while (total < policy.retryForMs && n < 100_000) {
    n++;
    total += nominalDelayMs(policy, n);
  }
  return n + 1;
}

/** The policy from the service's environment (hours and seconds, as operators think). */
export function retryPolicyFrom(env: { EVENT_RETRY_HOURS?: number; EVENT_RETRY_MAX_DELAY_SECONDS?: number }) {
  return {
    ...DEFAULT_RETRY_POLICY,
    ...(env.EVENT_RETRY_HOURS !== undefined ? { retryForMs: env.EVENT_RETRY_HOURS * 3600_000 } : {}),
    ...(env.EVENT_RETRY_MAX_DELAY_SECONDS !== undefined
      ? { maxDelayMs: env.EVENT_RETRY_MAX_DELAY_SECONDS * 1000 }
      : {}),
  } satisfies RetryPolicy;
}
