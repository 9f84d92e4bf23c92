import { expect, test } from './support/test.ts';

/**
 * Analytics without a measurement id (the test platform has none): no analytics script is
 * loaded and nothing is sent anywhere, but page views with their paths are still recorded in
 * the page's own dataLayer on the first page and on every client-side route change.
 */
test('records a page view per route change and loads no analytics script without an id', async ({ page }) => {
  const outside: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (/^https?:$/.test(url.protocol) && !['127.0.0.1', 'localhost'].includes(url.hostname))
      outside.push(r.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const pageViews = () =>
    page.evaluate(() =>
      (window.dataLayer ?? [])
        .filter((e) => (e as { event?: string }).event === 'page_view')
        .map((e) => (e as { page_path?: string }).page_path),
    );
  await expect.poll(pageViews).toEqual(['/']);

  // A client-side navigation (no reload): the nav bar's Blog link.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Blog', exact: true })
    .click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect.poll(pageViews).toEqual(['/', '/blog']);

  expect(await page.locator('script[src*="googletagmanager"]').count()).toBe(0);
  expect(await page.evaluate(() => typeof window.gtag)).toBe('undefined');
  expect(outside).toEqual([]);
});
