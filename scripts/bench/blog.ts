/**
 * Public blog reads: `GET /api/blog` direct to the blog service and through the gateway,
 * in one run (`pnpm start --distributed`, each process on its own). Target: ≥ 5,000 rps
 * through the gateway. Ten published posts are created first, through the admin API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPlatform } from '../lib/platform.ts';
import { load, table } from './_load.ts';
import { seedPublishedPosts, signInCookie } from './_seed.ts';

/** Set when a target is missed: the exit code says so (set at the very end, after the stop). */
let benchFailed = false;

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const email = 'bench-admin@parley.test';
const password = 'bench admin password';
const platform = await startPlatform({
  args: ['--distributed'],
  env: { PARLEY_ADMIN_EMAIL: email, PARLEY_ADMIN_PASSWORD: password, PARLEY_SKIP_WEB_BUILD: 'true' },
});
try {
  const base = platform.url;
  const upstreams = JSON.parse(readFileSync(join(platform.dataDir, 'upstreams.json'), 'utf8')) as Record<
    string,
    string
  >;
  const direct = upstreams.BLOG_URL;
  if (!direct) throw new Error('blog upstream not found');
  await seedPublishedPosts(base, await signInCookie(base, email, password), 10);
  const path = '/api/blog';
  const size = (await (await fetch(base + path)).text()).length;
  console.log(`GET ${path}: 10 posts, ${size} bytes per answer`);

  await load({ url: direct + path, duration: 2 });
  await load({ url: base + path, duration: 2 });
  const viaDirect = await load({ url: direct + path, duration });
  const viaGateway = await load({ url: base + path, duration });
  table([
    {
      run: 'direct (blog service)',
      rps: Math.round(viaDirect.rps),
      p50_ms: viaDirect.p50,
      p99_ms: viaDirect.p99,
      non2xx: viaDirect.non2xx,
    },
    {
      run: 'through the gateway',
      rps: Math.round(viaGateway.rps),
      p50_ms: viaGateway.p50,
      p99_ms: viaGateway.p99,
      non2xx: viaGateway.non2xx,
    },
  ]);
  const ok = viaGateway.rps >= 5000 && viaGateway.non2xx === 0 && viaDirect.non2xx === 0;
  console.log(
    `through the gateway: ${Math.round(viaGateway.rps)} rps, p99 ${viaGateway.p99} ms (target ≥ 5,000 rps) ${ok ? 'PASS' : 'FAIL'}`,
  );
  benchFailed = !ok;
} finally {
  await platform.stop();
}
process.exit(benchFailed ? 1 : 0);
