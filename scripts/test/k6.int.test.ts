/**
 * k6 scripts (scripts/k6): options as k6 itself reads them (`k6 inspect`), then the smoke
 * scenario of every script against the real platform (`pnpm start` on a free port). A crossed
 * threshold or a failing setup() makes k6 exit non-zero, which fails the test.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../services/kit/src/local/ports.ts';
import { type Platform, startPlatform } from '../lib/platform.ts';
import { BIN, run, toolsGate } from './tools.ts';

toolsGate(['k6']);
const SCRIPTS = ['public-browsing', 'booking-funnel', 'admin-browsing'];
const ADMIN = { email: 'k6-admin@parley.test', password: 'k6-admin-password-1' };
const script = (name: string) => join('scripts/k6', `${name}.ts`);

describe('k6 scripts', () => {
  let platform: Platform;
  let out: string;

  async function adminCookie(): Promise<string> {
    const res = await fetch(`${platform.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(res.status).toBe(200);
    return res.headers.get('set-cookie')?.split(';')[0] ?? '';
  }

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'parley-k6-'));
    platform = await startPlatform({
      env: { PARLEY_ADMIN_EMAIL: ADMIN.email, PARLEY_ADMIN_PASSWORD: ADMIN.password },
    });
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  it('declare named scenarios and thresholds per profile (k6 inspect)', () => {
    for (const name of SCRIPTS) {
      for (const scenario of ['smoke', 'load', 'stress', 'spike']) {
        const r = run(BIN.k6, ['inspect', '-e', `SCENARIO=${scenario}`, script(name)]);
        expect(r.code, `${name} ${scenario}: ${r.stderr}`).toBe(0);
        const options = JSON.parse(r.stdout) as {
          scenarios: Record<string, unknown>;
          thresholds: Record<string, string[]>;
        };
        expect(Object.keys(options.scenarios).length, name).toBeGreaterThan(0);
        expect(options.thresholds.http_req_failed, name).toEqual(['rate<0.01']);
        const latency = Object.entries(options.thresholds).filter(([k]) =>
          k.startsWith('http_req_duration{endpoint:'),
        );
        expect(latency.length, `${name}: p95/p99 per endpoint group`).toBeGreaterThan(0);
        for (const [, limits] of latency) expect(limits.join(' ')).toMatch(/p\(95\)<\d+ p\(99\)<\d+/);
      }
    }
    expect(run(BIN.k6, ['inspect', '-e', 'SCENARIO=nope', script('public-browsing')]).code).not.toBe(0);
  });

  it.each(SCRIPTS)(
    '%s: the smoke scenario meets its thresholds against pnpm start',
    async (name) => {
      const dir = join(out, name);
      mkdirSync(dir, { recursive: true });
      const r = run(BIN.k6, ['run', '--quiet', '--no-color', script(name)], {
        env: {
          BASE_URL: platform.url,
          SCENARIO: 'smoke',
          K6_SUMMARY_DIR: dir,
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
        },
      });
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
        metrics: Record<
          string,
          { values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }
        >;
      };
      expect(summary.metrics.http_reqs!.values.count).toBeGreaterThan(3);
      expect(summary.metrics.http_req_failed!.values.rate).toBe(0);
      const crossed = Object.entries(summary.metrics).flatMap(([m, v]) =>
        Object.entries(v.thresholds ?? {})
          .filter(([, t]) => !t.ok)
          .map(([expr]) => `${m} ${expr}`),
      );
      expect(crossed).toEqual([]);
      if (name === 'booking-funnel') {
        expect(summary.metrics.contention_created!.values.count).toBe(1);
        // Every booking it made is released (the funnel's and, at teardown, the contention
        // winner): the calendar is left as the run found it.
        const created = (summary.metrics.bookings_created?.values.count ?? 0) + 1;
        expect(summary.metrics.bookings_released?.values.count).toBe(created);
        const cookie = await adminCookie();
        const bookings = (await (
          await fetch(`${platform.url}/api/bookings`, { headers: { cookie } })
        ).json()) as Array<{ status: string; email: string }>;
        const k6 = bookings.filter((b) => b.email.startsWith('k6-'));
        expect(k6.length).toBe(created);
        expect(k6.filter((b) => b.status !== 'cancelled')).toEqual([]);
      }
      if (name === 'admin-browsing')
        expect(summary.metrics['http_req_duration{endpoint:admin}']).toBeTruthy();
    },
    120_000,
  );

  it('booking-funnel: load, stress and spike refuse to start without an admin to release what they book', () => {
    const r = run(BIN.k6, ['run', '--quiet', '--no-color', script('booking-funnel')], {
      env: { BASE_URL: platform.url, SCENARIO: 'load', K6_SUMMARY_DIR: out },
    });
    expect(r.code).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/ADMIN_EMAIL and ADMIN_PASSWORD/);
  }, 60_000);

  it('fails fast when the platform is not reachable', async () => {
    const port = await freePort();
    const r = run(BIN.k6, ['run', '--quiet', '--no-color', script('public-browsing')], {
      env: { BASE_URL: `http://127.0.0.1:${port}`, SCENARIO: 'smoke', K6_SUMMARY_DIR: out },
    });
    expect(r.code).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/not ready/);
  }, 60_000);
});
