// Shared pieces of the Parley k6 scripts: target URL, readiness gate, scenario profiles,
// thresholds, dates, and the JSON summary.
//
//   BASE_URL        target (default http://localhost:3000, the gateway of `pnpm start`)
//   SCENARIO        smoke (default) | load | stress | spike
//   K6_SUMMARY_DIR  directory that receives summary.json (default: the current directory)
import { fail } from 'k6';
import http from 'k6/http';

export const BASE_URL = (__ENV.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');

export const SCENARIOS = ['smoke', 'load', 'stress', 'spike'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

function scenarioFromEnv(): ScenarioName {
  const value = __ENV.SCENARIO ?? 'smoke';
  if (!(SCENARIOS as readonly string[]).includes(value)) {
    throw new Error(`SCENARIO must be one of ${SCENARIOS.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return value as ScenarioName;
}
export const SCENARIO: ScenarioName = scenarioFromEnv();
export const IS_SMOKE = SCENARIO === 'smoke';

/** Seconds a virtual user pauses between iterations (shorter for smoke runs). */
export const THINK_SECONDS = IS_SMOKE ? 0.2 : 1;

export interface ProfileOptions {
  /** Function exported by the script that the scenario runs. */
  exec: string;
  /** Virtual users at the "load" level; stress and spike scale from it. */
  vus: number;
  /** Iterations of the single smoke user. */
  smokeIterations: number;
}

/** The k6 scenario of `exec` under the selected profile. */
export function profile(opts: ProfileOptions): Record<string, unknown> {
  const { exec, vus, smokeIterations } = opts;
  switch (SCENARIO) {
    case 'smoke':
      return { executor: 'per-vu-iterations', exec, vus: 1, iterations: smokeIterations, maxDuration: '1m' };
    case 'load':
      return {
        executor: 'ramping-vus',
        exec,
        startVUs: 0,
        stages: [
          { duration: '30s', target: vus },
          { duration: '3m', target: vus },
          { duration: '30s', target: 0 },
        ],
        gracefulRampDown: '10s',
      };
    case 'stress':
      return {
        executor: 'ramping-vus',
        exec,
        startVUs: 0,
        stages: [
          { duration: '1m', target: vus * 2 },
          { duration: '2m', target: vus * 4 },
          { duration: '1m', target: vus * 6 },
          { duration: '30s', target: 0 },
        ],
        gracefulRampDown: '10s',
      };
    case 'spike':
      return {
        executor: 'ramping-vus',
        exec,
        startVUs: 1,
        stages: [
          { duration: '10s', target: 1 },
          { duration: '10s', target: vus * 10 },
          { duration: '1m', target: vus * 10 },
          { duration: '10s', target: 1 },
          { duration: '20s', target: 0 },
        ],
        gracefulRampDown: '10s',
      };
  }
}

/** p95 / p99 limits in milliseconds per endpoint group (requests carry the tag `endpoint`). */
export type Latencies = Record<string, [p95: number, p99: number]>;

/** Thresholds: under 1 % failed requests overall, and p95/p99 per endpoint group. */
export function thresholds(latencies: Latencies, extra: Record<string, string[]> = {}) {
  const out: Record<string, string[]> = { http_req_failed: ['rate<0.01'], checks: ['rate>0.99'] };
  // Load enforces the limits as given. Stress and spike look for the breaking point (limits
  // ×4). Smoke is a functional check of a cold platform, often on a shared CI machine: one
  // user, first requests (JIT, caches) dominate its percentiles, so its limits are ×5.
  const scale = SCENARIO === 'load' ? 1 : SCENARIO === 'smoke' ? 5 : 4;
  for (const [endpoint, [p95, p99]] of Object.entries(latencies)) {
    out[`http_req_duration{endpoint:${endpoint}}`] = [`p(95)<${p95 * scale}`, `p(99)<${p99 * scale}`];
  }
  return { ...out, ...extra };
}

/** Trend statistics kept in the summary (k6 omits p(99) by default). */
export const SUMMARY_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];

/** Request params tagging a request with its endpoint group. */
export function tagged(endpoint: string, extra: Record<string, unknown> = {}) {
  return { tags: { endpoint }, timeout: '10s', ...extra };
}

/** setup() gate: the platform must be ready, or the run stops at once. */
export function checkReady(): void {
  const res = http.get(`${BASE_URL}/health/ready`, { tags: { endpoint: 'health' }, timeout: '5s' });
  if (res.status !== 200) {
    fail(`${BASE_URL}/health/ready answered ${res.status || res.error}: the platform is not ready`);
  }
}

/**
 * setup() step of the scripts that act as an admin: signs in once with ADMIN_EMAIL and
 * ADMIN_PASSWORD and returns the session cookie every virtual user sends ('' without them).
 */
export function adminSession(): string {
  const email = __ENV.ADMIN_EMAIL ?? '';
  const password = __ENV.ADMIN_PASSWORD ?? '';
  if (!email || !password) return '';
  const res = http.post(`${BASE_URL}/api/admin/login`, JSON.stringify({ email, password }), {
    headers: { 'Content-Type': 'application/json', Origin: BASE_URL },
    tags: { endpoint: 'login' },
  });
  const cookie = (res.headers['Set-Cookie'] ?? '').split(';')[0] ?? '';
  if (res.status !== 200 || !cookie)
    fail(`admin sign-in answered ${res.status}: check ADMIN_EMAIL / ADMIN_PASSWORD`);
  return cookie;
}

/** The next `days` calendar dates (YYYY-MM-DD, UTC), starting today. */
export function nextDates(days: number, from = new Date()): string[] {
  const out: string[] = [];
  for (let i = 0; i < days; i++) {
    const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + i));
    out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/** Available slots of a date (ISO instants); [] when the answer is not a slot list. */
export function availableSlots(date: string, endpoint = 'slots'): string[] {
  const res = http.get(`${BASE_URL}/api/bookings/available?date=${date}`, tagged(endpoint));
  if (res.status !== 200) return [];
  const body = res.json() as { availableSlots?: unknown } | null;
  return Array.isArray(body?.availableSlots) ? (body.availableSlots as string[]) : [];
}

/** An email address no other iteration of any run uses. */
export function uniqueEmail(prefix: string): string {
  const rand = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${Date.now()}-${__VU}-${__ITER}-${rand}@example.com`;
}

interface MetricSummary {
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
interface SummaryData {
  metrics: Record<string, MetricSummary>;
  state?: { testRunDurationMs?: number };
}

/** Writes summary.json to K6_SUMMARY_DIR and prints a short text summary. */
export function handleSummary(data: SummaryData): Record<string, string> {
  const dir = (__ENV.K6_SUMMARY_DIR ?? '.').replace(/\/+$/, '');
  const lines: string[] = [`scenario ${SCENARIO} against ${BASE_URL}`];
  const reqs = data.metrics.http_reqs?.values.count ?? 0;
  const failed = data.metrics.http_req_failed?.values.rate ?? 0;
  lines.push(`requests ${reqs}, failed ${(failed * 100).toFixed(2)} %`);
  let broken = 0;
  for (const [name, metric] of Object.entries(data.metrics).sort(([a], [b]) => a.localeCompare(b))) {
    if (!metric.thresholds) continue;
    for (const [expr, result] of Object.entries(metric.thresholds)) {
      if (!result.ok) broken++;
      const v = metric.values;
      const shown =
        metric.type === 'trend'
          ? `p95=${(v['p(95)'] ?? 0).toFixed(1)}ms p99=${(v['p(99)'] ?? 0).toFixed(1)}ms`
          : metric.type === 'rate'
            ? `rate=${(v.rate ?? 0).toFixed(4)}`
            : `count=${v.count ?? 0}`;
      lines.push(`${result.ok ? 'ok  ' : 'FAIL'} ${name} ${expr} (${shown})`);
    }
  }
  lines.push(broken ? `${broken} threshold(s) crossed` : 'all thresholds met');
  return {
    [`${dir}/summary.json`]: JSON.stringify(data, null, 2),
    stdout: `\n${lines.join('\n')}\n`,
  };
}
