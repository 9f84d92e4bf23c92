import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The first admin of the platform under test (a super_admin): scripts/e2e.ts creates it from
 * these variables and passes the same ones to the tests.
 */
export const ADMIN_EMAIL = process.env.PARLEY_ADMIN_EMAIL ?? 'admin@parley.test';
export const ADMIN_PASSWORD = process.env.PARLEY_ADMIN_PASSWORD ?? 'e2e-admin-password-1';

/** A short unique suffix, so a spec's data never collides with another run's. */
export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

/** The visible toast list, not Radix's screen-reader announcer (which repeats the text). */
export function toasts(page: Page): Locator {
  return page.getByTestId('toasts');
}

/** Signs in through the login screen and waits for the console. */
export async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto('/admin/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}
