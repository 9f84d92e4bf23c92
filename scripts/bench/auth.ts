/**
 * Admin authentication cost, through the gateway of a running platform (`pnpm start`):
 *  1. sign-ins per second and p99 (bound by Argon2id, m = 19 MiB, t = 2, p = 1);
 *  2. an authenticated admin GET (session resolved through identity, assertion signed and
 *     verified) vs a public GET of the same service. Target: admin ≥ 70 % of the public rate.
 */
import { startPlatform } from '../lib/platform.ts';
import { load, table } from './_load.ts';

/** Set when a target is missed: the exit code says so (set at the very end, after the stop). */
let benchFailed = false;

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const email = 'bench-admin@parley.test';
const password = 'bench admin password';
const platform = await startPlatform({
  env: {
    PARLEY_ADMIN_EMAIL: email,
    PARLEY_ADMIN_PASSWORD: password,
    // One client signs in thousands of times: lift the per-IP sign-in budget for the run.
    LOGIN_RATE_LIMIT: '100000000',
    PARLEY_SKIP_WEB_BUILD: 'true',
  },
});
const base = platform.url;
try {
  const body = JSON.stringify({ email, password });
  const signIn = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  if (!signIn.ok) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
  const cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';

  const logins = await load({
    url: `${base}/api/admin/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: 8,
    duration,
  });

  let day = new Date(Date.now() + 2 * 86_400_000);
  while ([0, 6].includes(day.getUTCDay())) day = new Date(day.getTime() + 86_400_000);
  const publicPath = `/api/bookings/available?date=${day.toISOString().slice(0, 10)}`;
  const adminPath = '/api/bookings';
  for (const [path, headers] of [
    [publicPath, {}],
    [adminPath, { cookie }],
  ] as const) {
    const r = await fetch(base + path, { headers });
    if (!r.ok) throw new Error(`${path} answered ${r.status}`);
  }
  await load({ url: base + publicPath, duration: 2 });
  await load({ url: base + adminPath, headers: { cookie }, duration: 2 });
  const pub = await load({ url: base + publicPath, duration });
  const adm = await load({ url: base + adminPath, headers: { cookie }, duration });

  table([
    {
      run: 'sign-in (POST /api/admin/login)',
      rps: Math.round(logins.rps),
      p50_ms: logins.p50,
      p99_ms: logins.p99,
      non2xx: logins.non2xx,
    },
    {
      run: `public GET ${publicPath}`,
      rps: Math.round(pub.rps),
      p50_ms: pub.p50,
      p99_ms: pub.p99,
      non2xx: pub.non2xx,
    },
    {
      run: `admin GET ${adminPath}`,
      rps: Math.round(adm.rps),
      p50_ms: adm.p50,
      p99_ms: adm.p99,
      non2xx: adm.non2xx,
    },
  ]);
  const ratio = adm.rps / pub.rps;
  console.log(`sign-ins: ${Math.round(logins.rps)}/s, p99 ${logins.p99} ms (Argon2id bound)`);
  console.log(
    `admin/public rate: ${(ratio * 100).toFixed(0)} % (target ≥ 70 %) ${ratio >= 0.7 ? 'PASS' : 'FAIL'}`,
  );
  const errors = logins.non2xx + pub.non2xx + adm.non2xx;
  if (errors) console.log(`non-2xx answers: ${errors} (FAIL)`);
  benchFailed = !(ratio >= 0.7 && errors === 0);
} finally {
  await platform.stop();
}
process.exit(benchFailed ? 1 : 0);
