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

/** Playwright's `test`, whose page waits for the app after every goto and reload of an HTML page. */
export const test = base.extend({
  page: async ({ page }, use) => {
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
