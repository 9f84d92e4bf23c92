import AxeBuilder from '@axe-core/playwright';
import { test as plainTest } from '@playwright/test';
import { signInAsAdmin, unique } from './support/admin.ts';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, type Locator, type Page, test } from './support/test.ts';

/**
 * The email service's mail half in the browser, against the real platform (local mailbox,
 * the default of `pnpm start`): a booking made on the site arrives in Sent mail with its
 * calendar invitation, and the unsubscribe page a marketing mail links to.
 */

async function pickFirstDateWithSlots(scope: Locator): Promise<void> {
  await expect(scope.locator('button[data-date]')).toHaveCount(14);
  const dates = await scope
    .locator('button[data-date]:not([disabled])')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-date') ?? ''));
  for (const date of dates) {
    await scope.locator(`button[data-date="${date}"]`).click();
    const slots = scope.locator('button[data-slot]');
    await expect(slots.first().or(scope.getByText('No available times'))).toBeVisible();
    if ((await slots.count()) > 0) return;
    await scope.getByRole('button', { name: 'Select Different Date' }).click();
  }
  throw new Error('none of the 14 offered dates has an available slot');
}

async function openSentMail(page: Page, search: string): Promise<void> {
  await page.goto('/admin/email/sent');
  await expect(page.getByRole('heading', { name: 'Sent mail', level: 1 })).toBeVisible();
  await expect(page.getByTestId('mail-transport')).toContainText('Local mailbox');
  await page.getByRole('searchbox', { name: 'Search sent mail' }).fill(search);
}

test('a booking made on the site shows its confirmation, with the .ics invitation, in Sent mail', async ({
  page,
}) => {
  const email = `ada.${unique()}@example.com`;
  await page.goto('/book-demo');
  const schedule = page.getByRole('region', { name: 'Schedule Your Demo' });
  await pickFirstDateWithSlots(schedule);
  await schedule.locator('button[data-slot]').first().click();
  await schedule.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada Lovelace');
  await schedule.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await schedule.getByRole('textbox', { name: 'Company', exact: true }).fill('Analytical Engines');
  await schedule.getByRole('button', { name: 'Book Demo' }).click();
  await expect(page.getByTestId('toasts').getByText('Booking Confirmed!')).toBeVisible();

  await signInAsAdmin(page);
  await openSentMail(page, email);
  // The confirmation is sent from the booking event: refresh until it is there.
  const row = page.getByTestId('sent-mail-row').filter({ hasText: `To ${email}` });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(row).toContainText('Booking confirmation');
  await expect(row).toContainText('sent');
  await row.click();

  const detail = page.getByTestId('sent-mail-detail');
  await expect(detail.getByRole('heading', { name: /^Your Parley demo is confirmed: / })).toBeVisible();
  await expect(detail).toContainText(email);
  await expect(detail.getByRole('button', { name: 'invite.ics' })).toBeVisible();

  // The HTML part in a sandboxed frame: no scripts, no same-origin access.
  const frame = detail.locator('iframe');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(frame.contentFrame().getByText('Hi Ada, your demo is booked')).toBeVisible();

  await detail.getByRole('tab', { name: 'Text' }).click();
  await expect(detail.getByRole('region', { name: 'Text part' })).toContainText('Analytical Engines');
  await detail.getByRole('tab', { name: 'Headers' }).click();
  await expect(detail.getByRole('rowheader', { name: 'Message-ID', exact: true })).toBeVisible();
  await detail.getByRole('tab', { name: 'Calendar' }).click();
  const calendar = detail.getByRole('region', { name: 'Calendar (invite.ics)' });
  await expect(calendar).toContainText('METHOD:REQUEST');
  await expect(calendar).toContainText('TZID=America/New_York');
  await expect(calendar).toContainText(`mailto:${email}`);

  const download = page.waitForEvent('download');
  await detail.getByRole('button', { name: 'invite.ics' }).click();
  expect((await download).suggestedFilename()).toBe('invite.ics');
  // The view itself (the admin shell around it is checked by its own specs).
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="sent-mail-page"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);

  // The team's notification went out too.
  await page.getByRole('searchbox', { name: 'Search sent mail' }).fill('Ada Lovelace');
  await expect(page.getByTestId('sent-mail-row').filter({ hasText: 'Booking notification' })).not.toHaveCount(
    0,
  );
});

// The unsubscribe page is the email service's own HTML, not the app: plain Playwright.
plainTest('the unsubscribe page asks first, then unsubscribes with one click', async ({ page, request }) => {
  // A marketing mail (the tracking test) carries the signed link in List-Unsubscribe.
  const login = await request.post('/api/admin/login', {
    data: {
      email: process.env.PARLEY_ADMIN_EMAIL ?? 'admin@parley.test',
      password: process.env.PARLEY_ADMIN_PASSWORD ?? 'e2e-admin-password-1',
    },
  });
  expect(login.ok()).toBe(true);
  const address = `reader.${unique()}@example.com`;
  const sent = await request.post('/api/admin/email/test-tracking', { data: { email: address } });
  expect(sent.ok(), await sent.text()).toBe(true);
  const { id } = (await sent.json()) as { id: string };
  const detail = (await (await request.get(`/api/admin/email/outbox/${id}`)).json()) as {
    headers: Array<{ name: string; value: string }>;
  };
  const header = detail.headers.find((h) => h.name === 'List-Unsubscribe')?.value ?? '';
  const link = /<(https?:[^>]+)>/.exec(header)?.[1];
  expect(link).toBeTruthy();

  await page.goto(new URL(link!).pathname);
  await expect(page.getByRole('heading', { name: 'Unsubscribe', level: 1 })).toBeVisible();
  await expect(page.getByText(/^Stop marketing mail from Parley to r\*+@example\.com\?$/)).toBeVisible();
  // Visiting the page changed nothing: the same page again still asks.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'unsubscribe page');

  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);
});
