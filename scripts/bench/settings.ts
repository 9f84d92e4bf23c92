/**
 * Settings service figures, through the gateway of a running platform (`pnpm start
 * --distributed`: every service its own process, questions over NATS request/reply):
 *  1. diagnostics: each of the six tests' round trip (browser → gateway → settings → NATS →
 *     the service that answers → back), and "Run All" with the six at once; the screen's Run
 *     All staggers the starts by 500 ms, so it ends 2.5 s + the last test's round trip after
 *     the click;
 *  2. `GET /api/admin/settings` (an admin read: session resolved by the gateway, the list from
 *     PostgreSQL) under load, through the gateway and, for comparison, straight to the
 *     settings service with a signed assertion: rps and p99.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIAGNOSTIC_TEST_IDS } from '@parley/contracts/settings';
import { signAssertion } from '@parley/kit';
import { startPlatform } from '../lib/platform.ts';
import { load, table } from './_load.ts';
import { signInCookie } from './_seed.ts';

/** Set when a target is missed: the exit code says so (set at the very end, after the stop). */
let benchFailed = false;

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const email = 'bench-admin@parley.test';
const password = 'bench admin password';
const platform = await startPlatform({
  args: ['--distributed'],
  env: { PARLEY_ADMIN_EMAIL: email, PARLEY_ADMIN_PASSWORD: password, PARLEY_SKIP_WEB_BUILD: 'true' },
});
const base = platform.url;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
const ms = (n: number) => Math.round(n * 10) / 10;

try {
  const cookie = await signInCookie(base, email, password);
  const headers = { cookie, 'content-type': 'application/json', 'x-requested-with': 'parley' };

  // A realistic store: the screen's fourteen keys (one a secret) and a few more.
  const values: Record<string, string> = {
    smtp_host: 'smtp.example.com',
    smtp_port: '587',
    smtp_username: 'sales@example.com',
    smtp_password: 'bench smtp password',
    smtp_from_name: 'Parley',
    smtp_from_email: 'sales@example.com',
    brand_name: 'Parley',
    brand_voice: 'Warm, direct and clear.',
    website_url: 'https://parley.example/',
    support_email: 'help@parley.example',
    company_address: '1 Main Street, Cambridge MA',
    company_phone: '+1 (617) 555-0142',
    test_email_addresses: JSON.stringify(['qa@parley.example']),
    test_environment_enabled: 'false',
  };
  for (let i = 0; i < 10; i++) values[`feature.flag_${i}`] = i % 2 ? 'on' : 'off';
  for (const [key, value] of Object.entries(values)) {
    const r = await fetch(`${base}/api/admin/settings`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ key, value }),
    });
    if (!r.ok) throw new Error(`saving ${key} answered ${r.status}: ${await r.text()}`);
  }

  const run = async (id: string) => {
    const t0 = performance.now();
    // As the screen sends it: no body, the CSRF marker header.
    const r = await fetch(`${base}/api/admin/diagnostics/${id}`, {
      method: 'POST',
      headers: { cookie, 'x-requested-with': 'parley' },
    });
    const body = (await r.json()) as { status: string };
    if (!r.ok) throw new Error(`${id} answered ${r.status}: ${JSON.stringify(body)}`);
    return { ms: performance.now() - t0, status: body.status };
  };
  for (const id of DIAGNOSTIC_TEST_IDS) await run(id); // warm-up (connections, first synthesis)

  const perTest = new Map<string, { times: number[]; status: string }>();
  const together: number[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const id of DIAGNOSTIC_TEST_IDS) {
      const r = await run(id);
      const entry = perTest.get(id) ?? { times: [], status: r.status };
      entry.times.push(r.ms);
      entry.status = r.status;
      perTest.set(id, entry);
    }
    const t0 = performance.now();
    await Promise.all(DIAGNOSTIC_TEST_IDS.map(run));
    together.push(performance.now() - t0);
  }
  const slowestP50 = Math.max(...[...perTest.values()].map((e) => pct(e.times, 50)));
  table([
    ...[...perTest.entries()].map(([id, e]) => ({
      run: `POST /api/admin/diagnostics/${id}`,
      status: e.status,
      p50_ms: ms(pct(e.times, 50)),
      p99_ms: ms(pct(e.times, 99)),
    })),
    { run: 'Run All, six at once', status: '', p50_ms: ms(pct(together, 50)), p99_ms: ms(pct(together, 99)) },
    {
      run: 'Run All as the screen does it (500 ms stagger)',
      status: '',
      p50_ms: ms(5 * 500 + slowestP50),
      p99_ms: '',
    },
  ]);

  const path = '/api/admin/settings';
  const check = await fetch(base + path, { headers: { cookie } });
  const size = (await check.text()).length;
  if (!check.ok) throw new Error(`GET ${path} answered ${check.status}`);
  const upstreams = JSON.parse(readFileSync(join(platform.dataDir, 'upstreams.json'), 'utf8')) as Record<
    string,
    string
  >;
  const direct = upstreams.SETTINGS_URL;
  if (!direct) throw new Error('settings upstream not found');
  const secret = readFileSync(join(platform.dataDir, 'internal-auth-secret'), 'utf8').trim();
  // One assertion for the run, as the gateway reuses one per session (valid 60 s: enough).
  const assertion = await signAssertion(secret, { adminId: 'bench', role: 'admin' }, 600);
  const directHeaders = { 'x-parley-assertion': assertion };
  await load({ url: direct + path, headers: directHeaders, duration: 2 });
  await load({ url: base + path, headers: { cookie }, duration: 2 });
  const viaDirect = await load({ url: direct + path, headers: directHeaders, duration });
  const list = await load({ url: base + path, headers: { cookie }, duration });
  const row = (run: string, r: typeof list) => ({
    run,
    rps: Math.round(r.rps),
    p50_ms: r.p50,
    p99_ms: r.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  });
  console.log(`GET ${path}: ${Object.keys(values).length} settings, ${size} bytes per answer`);
  table([row('direct (settings service)', viaDirect), row('through the gateway', list)]);
  console.log(
    `diagnostics Run All (six at once): p50 ${ms(pct(together, 50))} ms, p99 ${ms(pct(together, 99))} ms; ` +
      `GET ${path}: ${Math.round(list.rps)} rps, p99 ${list.p99} ms`,
  );
  benchFailed = !(list.non2xx + list.errors + viaDirect.non2xx + viaDirect.errors === 0);
} finally {
  await platform.stop();
}
process.exit(benchFailed ? 1 : 0);
