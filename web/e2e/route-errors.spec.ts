import { signInAsAdmin, toasts } from './support/admin.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * A page whose code chunk does not arrive (issue 35, item 8) shows its own error inside the
 * admin frame, with a message and a retry that loads the chunk again; and the login screens and
 * an admin screen load without the router's "No HydrateFallback element" warning or a logged 401
 * (issue 35, console noise).
 */

/** Console messages of the page from now on. */
function consoleOf(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (m) => lines.push(`${m.type()}: ${m.text()}`));
  return lines;
}

test('a failed page chunk: its message inside the admin frame, and Try again loads it', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // A network blip: every script chunk asked for from now on fails, until the network is back.
  let offline = true;
  const failed: string[] = [];
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    if (!offline) return route.continue();
    failed.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await nav.getByRole('link', { name: 'Email Marketing' }).click();

  const error = page.getByTestId('page-error');
  await expect(error).toBeVisible();
  expect(failed.length).toBeGreaterThan(0);
  await expect(error.getByRole('heading', { name: 'This page could not be loaded' })).toBeVisible();
  await expect(error).toContainText('Check your connection, then try again.');
  // Inside the frame: the navigation is still there, with the screen asked for highlighted.
  await expect(nav.getByRole('link', { name: 'Email Marketing' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(/\/admin\/email$/);
  await expectNoSeriousA11yViolations(page, 'a page that failed to load');

  // Still offline: the retry says so and stays.
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(error).toContainText('Still not loading');

  // Back online: the retry loads the chunk and the screen appears, without a page reload.
  offline = false;
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Email Marketing', level: 1 })).toBeVisible();
  await expect(page.getByTestId('page-error')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

test('a notification chunk that fails to arrive leaves the page standing, and the next toast loads it', async ({
  page,
}) => {
  await signInAsAdmin(page);
  let offline = true;
  const failed = page.waitForEvent('requestfailed', (r) => /\/assets\/toaster-[^/]+\.js$/.test(r.url()));
  await page.route(/\/assets\/toaster-[^/]+\.js$/, (route) =>
    offline ? route.abort('internetdisconnected') : route.continue(),
  );
  await page.goto('/admin/address-books');
  await failed;
  // The screen is still there, not a blank page.
  await expect(page.getByRole('heading', { name: 'Address Books', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();

  // Back online: the next notification asks for the chunk again and shows.
  offline = false;
  await page.getByRole('button', { name: 'New Address Book' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Address Book' });
  const name = `Toast check ${Date.now().toString(36)}`;
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create Address Book' }).click();
  await expect(toasts(page).getByText('Address book created successfully')).toBeVisible();
});

test('console noise: no HydrateFallback warning and no logged 401 on the login screens or an admin screen', async ({
  page,
}) => {
  const lines = consoleOf(page);
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  // Signed out: the login page, and the console's entry (which shows the login form).
  await page.goto('/admin/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await page.goto('/admin');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await signInAsAdmin(page);
  await page.goto('/admin/email');
  await expect(page.getByRole('heading', { name: 'Email Marketing', level: 1 })).toBeVisible();
  // Signed in, the login page sends the admin on to the console.
  await page.goto('/admin/login');
  await expect(page).toHaveURL(/\/admin$/);
  expect(lines.filter((l) => l.includes('HydrateFallback'))).toEqual([]);
  expect(lines.filter((l) => l.startsWith('error:'))).toEqual([]);
  expect(failed).toEqual([]);
});
