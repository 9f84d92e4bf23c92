import AxeBuilder from '@axe-core/playwright';
import { plural } from '@parley/contracts/plural';
import type { APIRequestContext } from '@playwright/test';
import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expect, type Locator, type Page, test } from './support/test.ts';

/**
 * Campaigns end to end against the real platform (local mailbox, the default of `pnpm start`):
 * create with the spec's validation, preview at three widths with personalisation, a Preview
 * Test that lands in Sent mail, a live send followed on its card to completion, duplicate,
 * delete, and the tab at 375 px.
 */

interface Book {
  id: number;
  name: string;
}

async function createBook(request: APIRequestContext, name: string): Promise<Book> {
  const res = await request.post('/api/admin/address-books', { data: { name } });
  expect(res.status()).toBe(201);
  return (await res.json()) as Book;
}

/** Contacts as the manual import takes them: email, first name, last name, company. */
async function importContacts(request: APIRequestContext, bookId: number, lines: string[]) {
  const res = await request.post('/api/admin/email/import-manual', {
    data: { contacts: lines.join('\n'), addressBookId: bookId },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

interface CampaignFields {
  name: string;
  subject: string;
  htmlContent: string;
  textContent?: string;
  targetAddressBooks?: number[];
}

async function createCampaign(request: APIRequestContext, fields: CampaignFields): Promise<{ id: number }> {
  const res = await request.post('/api/admin/email/campaigns', {
    data: { fromName: 'Parley Team', fromEmail: 'team@parley.test', ...fields },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number };
}

async function openCampaigns(page: Page) {
  await page.goto('/admin/email');
  await page.getByRole('tab', { name: /^Campaigns/ }).click();
  await expect(page.getByRole('button', { name: 'Manual Create' })).toBeVisible();
}

const card = (page: Page, name: string) =>
  page.getByTestId('campaign-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

/** The frame's width in CSS pixels once the dialog's opening animation has ended. */
async function frameWidth(frame: Locator): Promise<number> {
  return frame.evaluate(async (el) => {
    await Promise.all(document.getAnimations().map((a) => a.finished));
    return Math.round(el.getBoundingClientRect().width);
  });
}

/** axe-core (WCAG 2.x A/AA and best practice) on one part of the page: no serious or critical violation. */
async function expectNoSeriousViolationsIn(page: Page, selector: string) {
  const axe = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('create with validation, preview at three widths with personalisation, duplicate, delete', async ({
  page,
}) => {
  const tag = unique();
  const book = await createBook(page.request, `Preview ${tag}`);
  await importContacts(page.request, book.id, [`grace.${tag}@example.com, Grace, Hopper, Navy Labs`]);
  const name = `Spring launch ${tag}`;
  await openCampaigns(page);

  await page.getByRole('button', { name: 'Manual Create' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Campaign' });
  await dialog.getByLabel('From name').fill('');
  await dialog.getByLabel('From email').fill('');
  await dialog.getByRole('button', { name: 'Create Campaign' }).click();
  for (const message of [
    'Name is required',
    'Subject is required',
    'From name is required',
    'From email is required',
  ])
    await expect(dialog.getByText(message, { exact: true })).toBeVisible();
  await dialog.getByLabel('From email').fill('team-at-parley');
  await dialog.getByRole('button', { name: 'Create Campaign' }).click();
  await expect(dialog.getByText('Please enter a valid from email address')).toBeVisible();

  await dialog.getByLabel('Campaign name').fill(name);
  await dialog
    .getByLabel('Subject')
    .fill('A very long subject line that goes on past the fifty character tip');
  await expect(dialog.getByTestId('subject-tip')).toContainText('(66/50)');
  await dialog.getByLabel('Subject').fill('Hello {{firstName}}');
  await expect(dialog.getByTestId('subject-tip')).toContainText('(19/50)');
  await dialog.getByLabel('From name').fill('Parley Team');
  await dialog.getByLabel('From email').fill('team@parley.test');
  await dialog
    .getByLabel('HTML content')
    .fill(
      '<h1>Hi {{firstName}} {{lastName}}</h1><p>News for {{company}}.</p><script>document.title="x"</script><img src="x" onerror="alert(1)" alt="logo">',
    );
  await dialog.getByLabel('Text content').fill('Hi {{firstName}}, news for {{company}}.');
  await dialog.getByRole('checkbox', { name: new RegExp(book.name) }).check();
  await dialog.getByRole('button', { name: 'Create Campaign' }).click();
  await expect(toasts(page).getByText('Campaign created')).toBeVisible();
  await expect(dialog).toBeHidden();

  const c = card(page, name);
  await expect(c.getByTestId('campaign-status')).toHaveText('Draft');
  await expect(c.getByTestId('campaign-subject')).toHaveText('Hello {{firstName}}');
  await expect(c).toContainText('From Parley Team <team@parley.test>');

  // The preview: the sample contact first, sanitised, in a sandboxed frame at three widths.
  await c.getByRole('button', { name: `Preview ${name}`, exact: true }).click();
  const preview = page.getByRole('dialog', { name: `Preview: ${name}` });
  await expect(preview).toContainText('Subject: Hello John');
  const frame = preview.getByTestId('preview-frame');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(frame.contentFrame().getByRole('heading', { name: 'Hi John Doe' })).toBeVisible();
  await expect(frame.contentFrame().getByText('News for Acme Corp.')).toBeVisible();
  const srcdoc = (await frame.getAttribute('srcdoc')) ?? '';
  expect(srcdoc).not.toContain('<script');
  expect(srcdoc).not.toContain('onerror');
  await expect(preview.getByTestId('preview-stats')).toContainText(/HTML size:\s*\d+ B/);
  await expect(preview.getByTestId('preview-words')).toHaveText('5');

  expect(await frameWidth(frame)).toBeGreaterThan(768);
  await preview.getByRole('button', { name: 'Tablet (768px)' }).click();
  await expect.poll(() => frameWidth(frame)).toBe(768);
  await preview.getByRole('button', { name: 'Mobile (375px)' }).click();
  await expect.poll(() => frameWidth(frame)).toBe(375);

  // A chosen contact fills the merge fields.
  await preview.getByLabel('Find a preview contact').fill(`grace.${tag}`);
  await preview
    .getByLabel('Preview contact', { exact: true })
    .selectOption({ label: `Grace Hopper <grace.${tag}@example.com> · ${book.name}` });
  await expect(frame.contentFrame().getByRole('heading', { name: 'Hi Grace Hopper' })).toBeVisible();
  await expect(frame.contentFrame().getByText('News for Navy Labs.')).toBeVisible();
  await preview.getByRole('tab', { name: 'Text' }).click();
  await expect(preview.getByTestId('preview-text')).toHaveText('Hi Grace, news for Navy Labs.');
  // The dialog itself (the page behind it is dimmed by the overlay and checked later).
  await expectNoSeriousViolationsIn(page, '[role="dialog"]');
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();

  // Duplicate: a new draft with the copy suffix, opened for editing.
  await c.getByRole('button', { name: `Duplicate ${name}` }).click();
  await expect(toasts(page).getByText('Campaign duplicated')).toBeVisible();
  const edit = page.getByRole('dialog', { name: 'Edit Campaign' });
  await expect(edit.getByLabel('Campaign name')).toHaveValue(`${name} (Copy)`);
  await edit.getByLabel('Subject').fill('Second wave for {{company}}');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toasts(page).getByText('Campaign updated')).toBeVisible();
  const copy = card(page, `${name} (Copy)`);
  await expect(copy.getByTestId('campaign-subject')).toHaveText('Second wave for {{company}}');
  await expect(copy.getByTestId('campaign-status')).toHaveText('Draft');

  // Delete (drafts only).
  await copy.getByRole('button', { name: `Delete ${name} (Copy)` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Delete the draft "${name} (Copy)"?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toasts(page).getByText('Campaign deleted')).toBeVisible();
  await expect(copy).toHaveCount(0);
  await expect(c).toHaveCount(1);
  await expectNoSeriousViolationsIn(page, 'main');
});

test('merge fields: the menu inserts a fallback, the preview shows a recipient with missing fields, the send warns until acknowledged; a test-mode send leaves a draft and the reports as they were', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = unique();
  const testAddress = `qa.${tag}@example.com`;
  const saved = await page.request.post('/api/admin/settings', {
    data: { key: 'test_email_addresses', value: JSON.stringify([testAddress]) },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const book = await createBook(page.request, `Practices ${tag}`);
  // One contact with a company, one without.
  await importContacts(page.request, book.id, [
    `ann.${tag}@example.com, Ann, Arbor, Smile Dental`,
    `ben.${tag}@example.com, Ben, Burns`,
  ]);
  const name = `Receptionist ${tag}`;
  await openCampaigns(page);
  await page.getByRole('button', { name: 'Manual Create' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Campaign' });
  await dialog.getByLabel('Campaign name').fill(name);
  await dialog.getByLabel('Subject').fill('An AI receptionist for ');
  await expect(dialog.getByText(/quotes around the fallback are optional/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Insert merge field into Subject' }).click();
  const menu = dialog.getByTestId('merge-field-menu');
  await menu.getByLabel('Field').selectOption('company');
  await expect(menu.getByLabel('Fallback')).toHaveValue('your team');
  await menu.getByLabel('Fallback').fill('your practice');
  await expect(menu).toContainText('Inserts {{company|your practice}}');
  await menu.getByRole('button', { name: 'Insert' }).click();
  await expect(dialog.getByLabel('Subject')).toHaveValue('An AI receptionist for {{company|your practice}}');
  await expect(menu).toHaveCount(0);
  await dialog.getByLabel('From name').fill('Parley Team');
  await dialog.getByLabel('From email').fill('team@parley.test');
  await dialog.getByLabel('HTML content').fill('<p>Hello {{firstName}}, a receptionist for {{company}}.</p>');
  await dialog.getByRole('checkbox', { name: new RegExp(book.name) }).check();
  await dialog.getByRole('button', { name: 'Create Campaign' }).click();
  await expect(dialog).toBeHidden();
  const c = card(page, name);

  // The preview as a recipient without a name or company would see it.
  await c.getByRole('button', { name: `Preview ${name}`, exact: true }).click();
  const preview = page.getByRole('dialog', { name: `Preview: ${name}` });
  await expect(preview).toContainText('Subject: An AI receptionist for Acme Corp');
  await preview
    .getByLabel('Preview contact', { exact: true })
    .selectOption({ label: 'A recipient with missing fields (no name, no company)' });
  await expect(preview).toContainText('Subject: An AI receptionist for your practice');
  await expect(
    preview.getByTestId('preview-frame').contentFrame().getByText('Hello , a receptionist for .'),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  // The send dialog warns of the recipient without a company; the send waits for the box.
  await c.getByRole('button', { name: `Launch Campaign ${name}` }).click();
  const send = page.getByRole('dialog', { name: 'Send Campaign' });
  const check = send.getByTestId('merge-check');
  await expect(check).toContainText(
    '1 of 2 recipients has no company and no fallback: they will see nothing there (HTML).',
  );
  await expect(check).toContainText('Test mode: the test address has no contact data');
  const button = send.getByRole('button', { name: 'Send to 1 test address (test mode)' });
  await button.click();
  await expect(send.getByText('Tick the box to send with these empty merge fields')).toBeVisible();
  await expect(check.getByRole('checkbox')).toBeFocused();
  await expectNoSeriousViolationsIn(page, '[role="dialog"]');
  await check.getByRole('checkbox', { name: /I understand/ }).check();
  await button.click();
  await expect(toasts(page).getByText('Test Campaign Sending')).toBeVisible();
  await expect(send).toBeHidden();

  // Still a draft: Edit and Launch stay, the test send is listed apart.
  await expect(c.getByTestId('test-sends')).toContainText('1 sent', { timeout: 30_000 });
  await expect(c.getByTestId('campaign-status')).toHaveText('Draft');
  await expect(c.getByRole('button', { name: `Launch Campaign ${name}` })).toBeVisible();
  await expect(c.getByRole('button', { name: `Edit ${name}` })).toBeVisible();
  await expect(c.getByTestId('campaign-stats')).toContainText('Sent0');

  // The reports count live mail: the campaign shows only with "Include test mail".
  await page
    .getByRole('tablist', { name: 'Email marketing' })
    .getByRole('tab', { name: 'Analytics', exact: true })
    .click();
  await expect(page.getByTestId('analytics-scope')).toContainText('live mail only');
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Include test mail' }).check();
  await expect(page.getByTestId('analytics-scope')).toContainText('live and test mail');
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Draft');
});

test('Preview Test sends one marked mail that arrives in Sent mail', async ({ page }) => {
  const tag = unique();
  const name = `Test send ${tag}`;
  await createCampaign(page.request, {
    name,
    subject: `Product news ${tag}`,
    htmlContent: '<p>Hello {{firstName}}, this is the draft.</p>',
  });
  await openCampaigns(page);
  await card(page, name)
    .getByRole('button', { name: `Preview Test ${name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Preview Test' });
  await dialog.getByLabel('Test email address').fill('not-an-address');
  await dialog.getByRole('button', { name: 'Send Test' }).click();
  await expect(dialog.getByText('Please enter a valid email address')).toBeVisible();
  const to = `qa.${tag}@example.com`;
  await dialog.getByLabel('Test email address').fill(to);
  await dialog.getByRole('button', { name: 'Send Test' }).click();
  await expect(toasts(page).getByText('Test Email Sent')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card(page, name).getByTestId('campaign-status')).toHaveText('Draft');

  // A live send with no recipients is refused with the spec's notice.
  await card(page, name)
    .getByRole('button', { name: `Launch Campaign ${name}` })
    .click();
  const send = page.getByRole('dialog', { name: 'Send Campaign' });
  await send.getByRole('radio', { name: /Live/ }).check();
  await send.getByRole('button', { name: 'Send Live' }).click();
  await expect(toasts(page).getByText('No contacts selected')).toBeVisible();
  await expect(toasts(page)).toContainText('Edit the campaign to choose address books or contacts.');
  await send.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/admin/email/sent');
  await page.getByRole('searchbox', { name: 'Search sent mail' }).fill(to);
  const row = page.getByTestId('sent-mail-row').filter({ hasText: `To ${to}` });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await row.click();
  await expect(
    page.getByTestId('sent-mail-detail').getByRole('heading', { name: `[TEST] Product news ${tag}` }),
  ).toBeVisible();
});

test('a live send shows its progress on the card, pauses, resumes and completes', async ({ page }) => {
  test.setTimeout(180_000);
  const tag = unique();
  const book = await createBook(page.request, `Live ${tag}`);
  // Enough recipients that the send is still running when it is paused right after the launch.
  const count = 5000;
  await importContacts(
    page.request,
    book.id,
    Array.from({ length: count }, (_, i) => `reader${i}.${tag}@example.com, Reader${i}, Live, Co ${i}`),
  );
  const name = `Live send ${tag}`;
  const { id } = await createCampaign(page.request, {
    name,
    subject: `Live news ${tag}`,
    htmlContent: '<p>Hello {{firstName}} at {{company}}</p>',
    targetAddressBooks: [book.id],
  });
  await openCampaigns(page);
  const c = card(page, name);
  await c.getByRole('button', { name: `Launch Campaign ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Campaign' });
  await expect(dialog.getByRole('checkbox', { name: new RegExp(book.name) })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: /Test mode/ })).toBeChecked();
  await dialog.getByRole('radio', { name: /Live/ }).check();
  await expect(dialog.getByRole('alert')).toContainText('cannot be undone');
  const launched = page.waitForResponse((r) => r.url().endsWith(`/campaigns/${id}/send`));
  await dialog.getByRole('button', { name: 'Send Live' }).click();
  expect((await launched).status()).toBe(200);
  // Paused at once (as another admin would), so the card's progress can be read mid-send.
  const paused = await page.request.post(`/api/admin/email/campaigns/${id}/pause`, { data: {} });
  expect(paused.status(), await paused.text()).toBe(200);
  await expect(toasts(page)).toContainText(`Campaign is being sent to ${plural(count, 'recipient')}`);

  const progress = c.getByTestId('campaign-progress');
  await page.getByRole('button', { name: 'Refresh analytics' }).click();
  await expect(c.getByTestId('campaign-status')).toHaveText('Paused');
  await expect(progress).toContainText('Paused');
  await expect(progress.getByRole('progressbar', { name: `Sending progress of ${name}` })).toBeVisible();
  const figure = async (testId: string) =>
    Number((await progress.getByTestId(testId).textContent())?.replace(/[^\d]/g, ''));
  expect(await figure('progress-remaining')).toBeGreaterThan(0);
  expect(await figure('progress-sent')).toBeLessThan(count);

  // Resume: the card follows the send (polled while sending) until it is sent.
  await progress.getByRole('button', { name: 'Resume' }).click();
  await expect(toasts(page).getByText('Campaign resumed')).toBeVisible();
  await expect(c.getByTestId('campaign-status')).toHaveText('Sent', { timeout: 120_000 });
  await expect(progress).toHaveCount(0);
  const stats = c.getByTestId('campaign-stats');
  await expect(stats).toContainText('Recipients5,000');
  await expect(stats).toContainText('Sent5,000');
  await expect(c.getByRole('button', { name: `Resend ${name}` })).toBeVisible();
  await expect(c.getByRole('button', { name: `Launch Campaign ${name}` })).toHaveCount(0);
  await page.getByRole('button', { name: 'Refresh analytics' }).click();
  const totalSent = page
    .getByTestId('campaign-summary')
    .getByTestId('stat-card')
    .filter({ hasText: 'Total sent' });
  await expect
    .poll(async () => Number((await totalSent.locator('p').nth(1).textContent())?.replace(/,/g, '')))
    .toBeGreaterThanOrEqual(count);

  // Resend needs at least one contact.
  await c.getByRole('button', { name: `Resend ${name}` }).click();
  const resend = page.getByRole('dialog', { name: 'Resend Campaign' });
  await resend.getByRole('button', { name: 'Resend Campaign' }).click();
  await expect(
    toasts(page).getByText('Please select at least one contact to resend the campaign.'),
  ).toBeVisible();
});

test('at 375 px the tab fits and the preview starts on mobile', async ({ page }) => {
  const tag = unique();
  const name = `Narrow ${tag}`;
  await createCampaign(page.request, {
    name,
    subject: 'Narrow screens',
    htmlContent: '<p>Hi {{firstName}}</p>',
  });
  await page.setViewportSize({ width: 375, height: 812 });
  await openCampaigns(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const c = card(page, name);
  await c.scrollIntoViewIfNeeded();
  await c.getByRole('button', { name: `Preview ${name}`, exact: true }).click();
  const preview = page.getByRole('dialog', { name: `Preview: ${name}` });
  await expect(preview.getByRole('button', { name: 'Mobile (375px)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(preview.getByTestId('preview-frame').contentFrame().getByText('Hi John')).toBeVisible();
  const fits = await preview.evaluate(async (el) => {
    await Promise.all(el.getAnimations().map((a) => a.finished));
    const r = el.getBoundingClientRect();
    return r.left >= 0 && r.right <= window.innerWidth;
  });
  expect(fits).toBe(true);
});
