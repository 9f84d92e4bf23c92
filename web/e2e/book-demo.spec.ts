import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, type Locator, type Page, test } from './support/test.ts';

/**
 * The book-demo page against the real platform: its content, and a booking made through the
 * embedded form (the same flow as the booking modal, inline).
 */

function form(page: Page): Locator {
  return page.getByRole('region', { name: 'Schedule Your Demo' });
}

/** Picks the first offered date that has at least one slot (weekends and past hours have none). */
async function pickFirstDateWithSlots(scope: Locator): Promise<string> {
  await expect(scope.locator('button[data-date]')).toHaveCount(14);
  const dates = await scope
    .locator('button[data-date]:not([disabled])')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-date') ?? ''));
  for (const date of dates) {
    await scope.locator(`button[data-date="${date}"]`).click();
    const slots = scope.locator('button[data-slot]');
    await expect(slots.first().or(scope.getByText('No available times'))).toBeVisible();
    if ((await slots.count()) > 0) return date;
    await scope.getByRole('button', { name: 'Select Different Date' }).click();
  }
  throw new Error('none of the 14 offered dates has an available slot');
}

test('the book-demo page shows what the 30-minute demo covers, who to call and where to go next', async ({
  page,
}) => {
  await page.goto('/book-demo');
  await expect(page).toHaveTitle('Book a Demo · Parley');
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', /\/book-demo$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('30-minute personalised demo');

  const experience = page.getByRole('region', { name: "What You'll Experience" });
  for (const item of [
    'Live voice AI demo',
    'Custom use case analysis',
    'Implementation strategy',
    'ROI projections',
  ]) {
    await expect(experience.getByRole('heading', { name: item })).toBeVisible();
  }

  const expert = page.getByRole('region', { name: 'Talk to a Demo Expert' });
  await expect(expert.getByRole('link', { name: '+1 (617) 555-0142' })).toHaveAttribute(
    'href',
    'tel:+16175550142',
  );
  await expect(expert.getByRole('link', { name: 'sales@parley.ai' })).toHaveAttribute(
    'href',
    'mailto:sales@parley.ai',
  );
  await expect(expert).toContainText('Cambridge, MA');
  await expect(page.getByRole('main').locator('figure blockquote')).toBeVisible();

  const schedule = form(page);
  await expect(schedule.getByText('All times shown in Eastern Time')).toBeVisible();
  await expect(schedule.getByRole('list', { name: 'Booking progress' })).toContainText('Date');
  await expect(schedule.locator('button[data-date]')).toHaveCount(14);

  const questions = page.getByRole('region', { name: 'Questions Before Booking?' });
  await expect(questions.getByRole('link', { name: 'Send a Message' })).toHaveAttribute('href', '/#contact');
  await expect(questions.getByRole('link', { name: 'View Use Cases' })).toHaveAttribute('href', '/use-cases');
  await expectNoSeriousA11yViolations(page, '/book-demo');

  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Request Demo' }).first()).toBeVisible();
});

test('a visitor books a slot through the embedded form', async ({ page }) => {
  await page.goto('/book-demo');
  const schedule = form(page);
  // The embedded form makes no request until a date is chosen.
  await pickFirstDateWithSlots(schedule);
  await expectNoSeriousA11yViolations(page, '/book-demo (time step)');

  const first = schedule.locator('button[data-slot]').first();
  const slot = (await first.getAttribute('data-slot')) ?? '';
  const label = (await first.textContent()) ?? '';
  expect(label).toMatch(/^\d{1,2}:\d{2} (AM|PM) EST$/);
  await first.click();
  await expect(schedule.getByTestId('booking-summary')).toContainText(label);
  await expectNoSeriousA11yViolations(page, '/book-demo (details step)');

  // Required fields first, exactly as in the modal.
  await schedule.getByRole('button', { name: 'Book Demo' }).click();
  await expect(page.getByTestId('toasts').getByText('Missing Information')).toBeVisible();

  const email = `katherine+${Date.now()}@example.com`;
  await schedule.getByRole('textbox', { name: 'Name', exact: true }).fill('Katherine Johnson');
  await schedule.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  const phone = schedule.getByRole('textbox', { name: 'Phone', exact: true });
  await phone.pressSequentially('6175550123');
  await expect(phone).toHaveValue('(617) 555-0123');
  await schedule.getByRole('textbox', { name: 'Company', exact: true }).fill('Langley Research');

  const request = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/bookings',
  );
  const response = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/bookings',
  );
  await schedule.getByRole('button', { name: 'Book Demo' }).click();
  expect((await request).postDataJSON()).toMatchObject({
    name: 'Katherine Johnson',
    email,
    phone: '(617) 555-0123',
    company: 'Langley Research',
    timeSlot: slot,
    guests: [],
  });
  expect((await response).ok()).toBe(true);

  await expect(page.getByTestId('toasts').getByText('Booking Confirmed!')).toBeVisible();
  await expect(page.getByTestId('toasts').getByText(/check your spam folder/)).toBeVisible();
  // The form starts over at the date step, and stays on the page.
  await expect(schedule.locator('button[data-date]')).toHaveCount(14);
  await expect(schedule.getByRole('textbox', { name: 'Name', exact: true })).toHaveCount(0);
  const events = await page.evaluate(() =>
    (window.dataLayer ?? []).map(
      (e) => `${(e as { event?: string }).event}:${(e as { label?: string }).label}`,
    ),
  );
  expect(events).toContain('form_submit:book_demo_page');
  expect(events).toContain('booking:book_demo_page');
});

test('the book-demo page fits a 375 px screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/book-demo');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(form(page).locator('button[data-date]')).toHaveCount(14);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.getByRole('link', { name: 'Choose a Time' }).click();
  await expect(form(page).getByRole('heading', { name: 'Schedule Your Demo' })).toBeInViewport();
  await expectNoSeriousA11yViolations(page, '/book-demo at 375 px');
});
