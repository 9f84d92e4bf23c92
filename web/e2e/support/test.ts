import { test as base, type Page } from '@playwright/test';

export * from '@playwright/test';

/**
 * Waits until the app has attached to the page. A prerendered page is visible before its
 * script has hydrated it, and a click in between reaches no handler; the app marks <html>
 * with data-app-ready once it is interactive (web/src/app-root.tsx).
 */
export async function appReady(page: Page): Promise<void> {
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
}

/** Where the admin screens' feature-discovery panel keeps the time of the admin's first visit. */
export const FEATURE_DISCOVERY_MARKER = 'parley.featureDiscovery.seen';

/**
 * Playwright's `test`, whose page waits for the app after every goto and reload of an HTML page.
 * A first visit to an admin screen opens the feature-discovery panel by itself after 10 s; the
 * page starts past that first visit unless a spec asks for it (`featureDiscoveryFirstVisit`),
 * so a panel opening mid-test never covers what another spec is clicking.
 */
export const test = base.extend<{ featureDiscoveryFirstVisit: boolean }>({
  featureDiscoveryFirstVisit: [false, { option: true }],
  page: async ({ page, featureDiscoveryFirstVisit }, use) => {
    if (!featureDiscoveryFirstVisit)
      await page.addInitScript((key) => {
        if (!localStorage.getItem(key)) localStorage.setItem(key, '2026-01-01T00:00:00.000Z');
      }, FEATURE_DISCOVERY_MARKER);
    for (const method of ['goto', 'reload'] as const) {
      const original = page[method].bind(page) as (...args: unknown[]) => ReturnType<Page['goto']>;
      const wrapped = async (...args: unknown[]) => {
        const response = await original(...args);
        if (response?.headers()['content-type']?.includes('text/html')) await appReady(page);
        return response;
      };
      Object.assign(page, { [method]: wrapped });
    }
    await use(page);
  },
});
