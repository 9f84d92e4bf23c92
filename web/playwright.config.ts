import { defineConfig } from '@playwright/test';

/**
 * Browser end-to-end tests in the system Chromium (never `playwright install`).
 * `scripts/e2e.ts` starts the whole platform on a free port and sets PARLEY_E2E_URL;
 * without it, Playwright starts `pnpm start` itself on port 3999.
 */
const externalUrl = process.env.PARLEY_E2E_URL;
const baseURL = externalUrl ?? 'http://127.0.0.1:3999';

export default defineConfig({
  testDir: './e2e',
  workers: 1,
  retries: 0,
  fullyParallel: false,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: './test-results',
  projects: [
    { name: 'screens', testIgnore: /marketers-day\.spec\.ts$/ },
    // The marketer's day saves an SMTP host, which the platform keeps once saved (only the
    // transport goes back to the local mailbox): it runs after the specs that expect none.
    { name: 'marketers-day', testMatch: /marketers-day\.spec\.ts$/, dependencies: ['screens'] },
  ],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
    timezoneId: 'America/Los_Angeles',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  ...(externalUrl
    ? {}
    : {
        webServer: {
          command: 'pnpm --dir .. start',
          env: { PORT: '3999' },
          url: 'http://127.0.0.1:3999/health/live',
          reuseExistingServer: true,
          timeout: 120_000,
        },
      }),
});
