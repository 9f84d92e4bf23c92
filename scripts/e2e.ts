/**
 * Browser tier: starts the whole platform (`pnpm start`) on a free port with a fresh data
 * directory, runs the Playwright suite of web/e2e in real Chromium against it, then stops
 * the platform with Ctrl-C semantics and checks it exited cleanly.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { freePort } from '@parley/kit/local';
import { checkJsBudget } from '../web/budget.ts';
import { repoRoot } from './lib/paths.ts';
import { startPlatform } from './lib/platform.ts';

// `tsx scripts/e2e.ts [results.json] [-- playwright args]`: e.g. `-- e2e/email-campaigns.spec.ts`.
const dashes = process.argv.indexOf('--');
const jsonOut = dashes === 2 ? undefined : process.argv[2];
// Chosen specs run alone: without --no-deps Playwright would first run every spec the
// marketer's day waits for (web/playwright.config.ts).
const playwrightArgs = dashes < 0 ? [] : ['--no-deps', ...process.argv.slice(dashes + 1)];
// The first admin of the fresh platform; the admin browser tests sign in with it.
const admin = {
  PARLEY_ADMIN_EMAIL: process.env.PARLEY_ADMIN_EMAIL ?? 'admin@parley.test',
  PARLEY_ADMIN_PASSWORD: process.env.PARLEY_ADMIN_PASSWORD ?? 'e2e-admin-password-1',
  // The brand-crawl test serves a fixture site on this loopback port; only it is allowed
  // past the SSRF guard (a test-only setting, never set in production).
  SETTINGS_CRAWL_ALLOW_PRIVATE: `127.0.0.1:${await freePort()}`,
  // The platform's mail-link signing key, shared with the tests: campaign mails through the
  // local transport are not stored, so the analytics test signs its open and click links.
  EMAIL_SIGNING_SECRET: randomBytes(32).toString('hex'),
  // One admin may launch 2 live sends an hour (spec §9; the integration tests hold that
  // limit). The browser suite is many admins' days in a few minutes: the analytics, the
  // progress card and the marketer's day each launch one.
  CAMPAIGN_LIVE_SENDS_PER_HOUR: '10',
};
const platform = await startPlatform({ env: admin });
console.log(`platform ready at ${platform.url} in ${platform.readyMs} ms`);
// The performance budget of the public site (issue #6): checked on the bundle under test (the
// build fails over it too, but a bundle can be older than that check).
const budget = checkJsBudget();
const overBudget = !budget.ok;
console.log(budget.message);
let code = 1;
try {
  code = await new Promise<number>((resolve) => {
    const child = spawn(
      'pnpm',
      ['exec', 'playwright', 'test', ...(jsonOut ? ['--reporter=list,json'] : []), ...playwrightArgs],
      {
        cwd: join(repoRoot, 'web'),
        stdio: 'inherit',
        env: {
          ...process.env,
          PARLEY_E2E_URL: platform.url,
          ...admin,
          ...(jsonOut ? { PLAYWRIGHT_JSON_OUTPUT_NAME: jsonOut } : {}),
        },
      },
    );
    child.once('exit', (c) => resolve(c ?? 1));
  });
} finally {
  const exit = await platform.stop();
  if (exit !== 0) {
    console.error(`pnpm start exited with ${exit} on SIGINT (expected 0)`);
    code = code || 1;
  }
}
process.exit(overBudget ? code || 1 : code);
