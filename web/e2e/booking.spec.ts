import { expect, type Locator, type Page, test } from './support/test.ts';

/**
 * Booking slice end to end, against the real platform (gateway + booking service).
 * The picker offers only the dates the service has times for (weekends never do); tests walk
 * the offered dates until one still has a slot.
 */

const DIALOG_TITLE = 'Book a 15-minute demo';

function toasts(page: Page): Locator {
  // The visible toast list, not Radix's screen-reader announcer (which repeats the text).
  // Not by role: while the modal dialog is open, everything outside it is aria-hidden.
  return page.getByTestId('toasts');
}

async function openFromHero(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Request Demo' }).click();
  const dialog = page.getByRole('dialog', { name: DIALOG_TITLE });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Waits until the time step shows either slots or the empty panel; returns the slot buttons. */
async function loadedSlots(dialog: Locator): Promise<Locator> {
  const slots = dialog.locator('button[data-slot]');
  await expect(slots.first().or(dialog.getByText('No available times'))).toBeVisible();
  return slots;
}

/** Picks the first offered date that has at least one slot; returns that date. */
async function pickFirstDateWithSlots(dialog: Locator): Promise<string> {
  await expect(dialog.locator('button[data-date]')).toHaveCount(14);
  // Only the dates the booking service has times for are offered.
  const dates = await dialog
    .locator('button[data-date]:not([disabled])')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-date') ?? ''));
  for (const date of dates) {
    await dialog.locator(`button[data-date="${date}"]`).click();
    const slots = await loadedSlots(dialog);
    if ((await slots.count()) > 0) return date;
    await expect(
      dialog.getByText(
        'All time slots for this date are either booked or in the past. Please select a different date.',
      ),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Select Different Date' }).click();
  }
  throw new Error('none of the 14 offered dates has an available slot');
}

test('an unknown route shows the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});

test('a visitor books a demo and the booked time is no longer offered', async ({ page }) => {
  await page.goto('/');
  let dialog = await openFromHero(page);
  await expect(dialog.getByRole('list', { name: 'Booking progress' })).toContainText('Date');

  const date = await pickFirstDateWithSlots(dialog);
  const firstSlot = dialog.locator('button[data-slot]').first();
  const slot = (await firstSlot.getAttribute('data-slot')) ?? '';
  const label = (await firstSlot.textContent()) ?? '';
  expect(slot).not.toBe('');
  expect(label).toMatch(/^\d{1,2}:\d{2} (AM|PM) EST$/);
  await firstSlot.click();

  await expect(dialog.getByTestId('booking-summary')).toContainText(label);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada Lovelace');
  await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(`ada+${Date.now()}@example.com`);
  const phone = dialog.getByRole('textbox', { name: 'Phone', exact: true });
  await phone.pressSequentially('555');
  await expect(phone).toHaveValue('(555');
  await phone.pressSequentially('1234567');
  await expect(phone).toHaveValue('(555) 123-4567');
  await phone.pressSequentially('89');
  await expect(phone).toHaveValue('(555) 123-4567');
  await dialog.getByRole('textbox', { name: 'Company', exact: true }).fill('Analytical Engines Ltd');
  await dialog
    .getByRole('textbox', { name: 'Notes', exact: true })
    .fill('Interested in after-hours call handling.');

  await dialog.getByRole('button', { name: 'Add Guest' }).click();
  await expect(dialog.getByTestId('guest-row')).toHaveCount(1);
  await dialog.getByLabel('Guest 1 name').fill('Charles Babbage');
  await dialog.getByLabel('Guest 1 email').fill(`charles+${Date.now()}@example.com`);

  await dialog.getByRole('button', { name: 'Book Demo' }).click();
  await expect(toasts(page).getByText('Booking Confirmed!')).toBeVisible();
  await expect(toasts(page).getByText(/check your spam folder/)).toBeVisible();
  await expect(dialog).toBeHidden();

  // Reopening starts again at the date step and the booked time is gone.
  dialog = await openFromHero(page);
  await dialog.locator(`button[data-date="${date}"]`).click();
  const slots = await loadedSlots(dialog);
  await expect(dialog.locator(`button[data-slot="${slot}"]`)).toHaveCount(0);
  expect(await slots.evaluateAll((els) => els.map((el) => el.getAttribute('data-slot')))).not.toContain(slot);
});

test('submitting without name and email shows Missing Information and sends nothing', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/bookings') posts.push(req.url());
  });
  await page.goto('/');
  const dialog = await openFromHero(page);
  await pickFirstDateWithSlots(dialog);
  await dialog.locator('button[data-slot]').first().click();

  await dialog.getByRole('button', { name: 'Book Demo' }).click();
  await expect(toasts(page).getByText('Missing Information')).toBeVisible();
  await expect(toasts(page).getByText('Please fill in all required fields.')).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Book Demo' })).toBeVisible();

  // 'Change Time' and 'Change Date' go back to their steps.
  await dialog.getByRole('button', { name: 'Change Time' }).click();
  await expect(dialog.locator('button[data-slot]').first()).toBeVisible();
  await dialog.getByRole('button', { name: /^Date/ }).click();
  await expect(dialog.locator('button[data-date]')).toHaveCount(14);
  expect(posts).toEqual([]);
});

test("the 'openCalendar' window event opens the booking modal; Escape closes it", async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.evaluate(() => window.dispatchEvent(new Event('openCalendar')));
  const dialog = page.getByRole('dialog', { name: DIALOG_TITLE });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('button[data-date]')).toHaveCount(14);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('the date picker offers only dates the booking service has times for: never a weekend', async ({
  page,
}) => {
  await page.goto('/');
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/bookings/dates');
  let dialog = await openFromHero(page);
  const served = (await (await answer).json()) as { dates: Array<{ date: string; available: number }> };
  await expect(dialog.locator('button[data-date]')).toHaveCount(14);
  for (const { date, available } of served.dates) {
    const button = dialog.locator(`button[data-date="${date}"]`);
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) expect(available, date).toBe(0);
    if (available > 0) await expect(button, date).toBeEnabled();
    else {
      await expect(button, date).toBeDisabled();
      await expect(button.locator('.sr-only')).toContainText('no times available');
    }
  }
  const weekend = served.dates.find(({ date }) => [0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay()));
  if (weekend) await expect(dialog.locator(`button[data-date="${weekend.date}"]`)).toBeDisabled();
  await page.keyboard.press('Escape');

  // Derived from the answer, not from a calendar of its own: a working day the service says is
  // full is not offered either.
  const open = served.dates.find((d) => d.available > 0);
  expect(open, 'a date with times in the window').toBeTruthy();
  await page.route('**/api/bookings/dates', (route) =>
    route.fulfill({
      json: { dates: served.dates.map((d) => (d.date === open?.date ? { ...d, available: 0 } : d)) },
    }),
  );
  dialog = await openFromHero(page);
  await expect(dialog.locator(`button[data-date="${open?.date}"]`)).toBeDisabled();
});
