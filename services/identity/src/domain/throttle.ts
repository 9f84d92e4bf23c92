/**
 * Sign-in throttling (pure part). Every attempt leaves a row per scope (account email,
 * client IP) before the password is checked; a scope is locked while its OTHER rows in the
 * window reach the limit. Recording before checking means a burst of parallel guesses
 * cannot slip past the limit: each later attempt sees the earlier ones.
 */

export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const ACCOUNT_FAILURE_LIMIT = 10;
export const IP_FAILURE_LIMIT = 30;

export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

export type ThrottleDecision = { blocked: false } | { blocked: true; retryAfterSeconds: number };

/**
 * `others`: timestamps (any order) of the scope's other attempts inside the window.
 * Locked when there are `limit` or more; it lifts when enough of them have aged out of
 * the window to leave `limit - 1`.
 */
export function scopeDecision(others: Date[], now: Date, rule: ThrottleRule): ThrottleDecision {
  const from = now.getTime() - rule.windowMs;
  const times = others
    .map((d) => d.getTime())
    .filter((t) => t > from)
    .sort((a, b) => a - b);
  if (times.length < rule.limit) return { blocked: false };
  const unlockAt = times[times.length - rule.limit]! + rule.windowMs;
  return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((unlockAt - now.getTime()) / 1000)) };
}

/** Both scopes: blocked if either is; the wait is the longer one. */
export function throttleDecision(
  state: { account: Date[]; ip: Date[] },
  now: Date,
  rules: { account: ThrottleRule; ip: ThrottleRule } = DEFAULT_RULES,
): ThrottleDecision {
  const a = scopeDecision(state.account, now, rules.account);
  const b = scopeDecision(state.ip, now, rules.ip);
  const waits = [a, b].flatMap((d) => (d.blocked ? [d.retryAfterSeconds] : []));
  return waits.length ? { blocked: true, retryAfterSeconds: Math.max(...waits) } : { blocked: false };
}

export const DEFAULT_RULES = {
  account: { limit: ACCOUNT_FAILURE_LIMIT, windowMs: THROTTLE_WINDOW_MS },
  ip: { limit: IP_FAILURE_LIMIT, windowMs: THROTTLE_WINDOW_MS },
};

export function throttleMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
