import type { SettingEntry } from '@parley/contracts';
import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * Settings → Testing (issue 35): a row that is not an address is marked and nothing is saved
 * (it used to be dropped in silence), and a toast never repeats its title as its body.
 */

const row = (page: Page, n: number) => page.getByRole('textbox', { name: `Test email ${n}`, exact: true });

async function savedList(page: Page): Promise<string | null | undefined> {
  const res = await page.request.get('/api/admin/settings');
  expect(res.status()).toBe(200);
  const list = (await res.json()) as SettingEntry[];
  return list.find((s) => s.key === 'test_email_addresses')?.value;
}

async function openTesting(page: Page): Promise<void> {
  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: 'Testing' }).click();
  await expect(row(page, 1)).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('Save Emails with an invalid row: the row is marked and focused, and nothing is saved', async ({
  page,
}) => {
  const before = await savedList(page);
  await openTesting(page);
  const good = `qa+${unique()}@parley.test`;
  await row(page, 1).fill(good);
  await page.getByRole('button', { name: 'Add Email' }).click();
  await row(page, 2).fill('bob@nowhere');
  await page.getByRole('button', { name: 'Save Emails' }).click();

  await expect(row(page, 2)).toBeFocused();
  await expect(row(page, 2)).toHaveAttribute('aria-invalid', 'true');
  await expect(
    page.getByText('Enter a valid email address, or remove this row', { exact: true }),
  ).toBeVisible();
  await expect(toasts(page)).toContainText('Not saved');
  await expect(toasts(page)).toContainText('Test email 2 is not a valid email address.');
  await expect(page.getByTestId('form-problems')).toContainText(
    'Enter a valid email address, or remove this row.',
  );
  expect(await savedList(page)).toBe(before);

  // Removed, the rest is saved, and the list shows what was saved.
  await page.getByRole('button', { name: 'Remove test email 2' }).click();
  await page.getByRole('button', { name: 'Save Emails' }).click();
  await expect(toasts(page)).toContainText('Settings updated');
  expect(await savedList(page)).toBe(JSON.stringify([good]));
});

test('a toast does not repeat its title as its body (Send Test)', async ({ page }) => {
  await openTesting(page);
  const to = `qa+${unique()}@parley.test`;
  await row(page, 1).fill(to);
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/settings/test-email');
  await page.getByRole('button', { name: 'Send Test' }).click();
  expect((await answer).status()).toBe(200);
  const toast = toasts(page).locator('li').first();
  await expect(toast).toContainText('Test emails sent successfully');
  await expect(toast).toContainText(`Sent to ${to}.`);
  const text = (await toast.textContent()) ?? '';
  expect(text.split('Test emails sent successfully').length - 1, text).toBe(1);
});
