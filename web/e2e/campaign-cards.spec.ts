import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * The campaign cards and preview as a marketer reads them (issue 35): a draft names the address
 * books it targets instead of "Recipients 0"; the preview of a full HTML document (the AI
 * writer's output) shows no <title> line, fits a 375 px window whole, and its contact picker
 * tells one address in two books apart; a schedule is confirmed in the admin's locale and zone,
 * and cancelling it says what it does and leaves a plain draft.
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

async function importContacts(request: APIRequestContext, bookId: number, lines: string[]) {
  const res = await request.post('/api/admin/email/import-manual', {
    data: { contacts: lines.join('\n'), addressBookId: bookId },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function createCampaign(request: APIRequestContext, fields: Record<string, unknown>) {
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

/** A full document as the AI writer makes it: doctype, head with a title and a style sheet. */
const FULL_DOCUMENT =
  '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Quarterly Briefing Mail</title><style>p{color:#123}</style></head><body><h1>Hello {{firstName}}</h1><p>The news of the quarter.</p></body></html>';

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

/** Two books sharing one address, and a draft of the AI writer's full document targeting both. */
async function briefing(page: Page) {
  const tag = unique();
  const leads = await createBook(page.request, `Leads ${tag}`);
  const clients = await createBook(page.request, `Clients ${tag}`);
  await importContacts(page.request, leads.id, [`ann.${tag}@example.com, Ann, Lee, Lee Dental`]);
  await importContacts(page.request, clients.id, [`ann.${tag}@example.com, Annie, Lee, Lee Dental`]);
  const name = `Briefing ${tag}`;
  await createCampaign(page.request, {
    name,
    subject: 'The quarter',
    htmlContent: FULL_DOCUMENT,
    targetAddressBooks: [leads.id, clients.id],
  });
  return { tag, leads, clients, name };
}

async function openPreview(page: Page, name: string) {
  await card(page, name)
    .getByRole('button', { name: `Preview ${name}`, exact: true })
    .click();
  const preview = page.getByRole('dialog', { name: `Preview: ${name}` });
  const frame = preview.getByTestId('preview-frame');
  await expect(frame.contentFrame().getByRole('heading', { name: 'Hello John' })).toBeVisible();
  return { preview, frame };
}

test('a draft card names the address books it targets, not "Recipients 0"', async ({ page }) => {
  const { leads, clients, name } = await briefing(page);
  await openCampaigns(page);
  const c = card(page, name);
  await expect(c.getByTestId('campaign-targets')).toHaveText(`To: ${leads.name} and ${clients.name}`);
  // The count comes with the send.
  const recipients = c.getByTestId('campaign-stats').locator('div').first();
  await expect(recipients).toContainText('Recipients');
  await expect(recipients).not.toContainText('0');
});

test('the preview of a full HTML document shows no <title> line above the mail', async ({ page }) => {
  const { name } = await briefing(page);
  await openCampaigns(page);
  const { preview, frame } = await openPreview(page, name);
  await expect(frame.contentFrame().locator('body')).not.toContainText('Quarterly Briefing Mail');
  expect(await frame.contentFrame().locator('body').textContent()).toMatch(/^\s*Hello John/);
  await expect(preview.getByTestId('preview-words')).toHaveText('7');
});

test('the preview contact picker tells one address in two books apart by its book', async ({ page }) => {
  const { tag, leads, clients, name } = await briefing(page);
  await openCampaigns(page);
  const { preview, frame } = await openPreview(page, name);
  await preview.getByLabel('Find a preview contact').fill(`ann.${tag}`);
  const picker = preview.getByLabel('Preview contact', { exact: true });
  await expect(picker.locator('option')).toHaveCount(3);
  const labels = await picker.locator('option').allTextContents();
  expect(labels.slice(1).sort()).toEqual(
    [
      `Ann Lee <ann.${tag}@example.com> · ${leads.name}`,
      `Annie Lee <ann.${tag}@example.com> · ${clients.name}`,
    ].sort(),
  );
  await picker.selectOption({ label: `Annie Lee <ann.${tag}@example.com> · ${clients.name}` });
  await expect(frame.contentFrame().getByRole('heading', { name: 'Hello Annie' })).toBeVisible();
});

test('at 375 px the 375 px preview frame shows whole inside the dialog, laid out at 375 px', async ({
  page,
}) => {
  const { name } = await briefing(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await openCampaigns(page);
  const { preview, frame } = await openPreview(page, name);
  await expect(preview.getByRole('button', { name: 'Mobile (375px)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const fit = await frame.evaluate(async (el) => {
    await Promise.all(document.getAnimations().map((a) => a.finished));
    const dialog = el.closest('[role="dialog"]') as HTMLElement;
    const f = el.getBoundingClientRect();
    const d = dialog.getBoundingClientRect();
    return {
      left: f.left - d.left,
      right: d.right - f.right,
      layoutWidth: (el as HTMLIFrameElement).clientWidth,
    };
  });
  expect(fit.left, 'the frame starts inside the dialog').toBeGreaterThanOrEqual(0);
  expect(fit.right, 'the frame ends inside the dialog').toBeGreaterThanOrEqual(0);
  expect(fit.layoutWidth, 'the mail is laid out at 375 px').toBe(375);
  // The dialog around the mail (the mail itself, in its sandboxed frame, is the campaign's).
  const axe = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .exclude('[data-testid="preview-frame"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    'axe on the campaign preview at 375 px',
  ).toEqual([]);
});

async function scheduled(page: Page) {
  const tag = unique();
  const book = await createBook(page.request, `Schedule ${tag}`);
  await importContacts(page.request, book.id, [`sam.${tag}@example.com, Sam, Stone, Stone Law`]);
  const name = `Soon ${tag}`;
  // 17:30 UTC is 9:30 AM in Los Angeles (the browser's zone in these tests), in winter time.
  await createCampaign(page.request, {
    name,
    subject: 'Coming soon',
    htmlContent: '<p>Soon</p>',
    targetAddressBooks: [book.id],
    scheduledAt: '2027-01-05T17:30:00.000Z',
  });
  await openCampaigns(page);
  const c = card(page, name);
  await c.getByRole('button', { name: `Launch Campaign ${name}` }).click();
  const send = page.getByRole('dialog', { name: 'Send Campaign' });
  await send.getByRole('radio', { name: /Live/ }).check();
  await send.getByRole('button', { name: 'Send Live' }).click();
  await expect(c.getByTestId('campaign-status')).toHaveText('Scheduled');
  return { name, c };
}

test('a schedule is confirmed in the admin’s locale and zone, not as ISO text', async ({ page }) => {
  const { name } = await scheduled(page);
  const toast = toasts(page);
  await expect(toast.getByText('Campaign Scheduled')).toBeVisible();
  await expect(toast).toContainText(new RegExp(`"${name}" goes out Tue, Jan 5, 2027, 9:30\\sAM PST\\.`));
  await expect(toast).not.toContainText('2027-01-05T');
});

test('cancelling a schedule: buttons that say what they do, then a plain draft', async ({ page }) => {
  const { name, c } = await scheduled(page);
  await expect(c.getByTestId('campaign-scheduled')).toBeVisible();
  await c.getByRole('button', { name: `Cancel schedule ${name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cancel schedule' });
  await expect(confirm.getByRole('button', { name: 'Keep schedule' })).toBeFocused();
  await expect(confirm.getByRole('button')).toHaveText(['Keep schedule', 'Cancel schedule']);
  await expectNoSeriousA11yViolations(page, 'the cancel-schedule confirmation');
  await confirm.getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(toasts(page).getByText('Schedule cancelled')).toBeVisible();
  await expect(c.getByTestId('campaign-status')).toHaveText('Draft');
  await expect(c.getByTestId('campaign-scheduled')).toHaveCount(0);
  await expect(c).not.toContainText('Scheduled');
  // Reloaded, the card says the same: the schedule is gone from the campaign itself.
  await page.reload();
  await page.getByRole('tab', { name: /^Campaigns/ }).click();
  await expect(c.getByTestId('campaign-status')).toHaveText('Draft');
  await expect(c).not.toContainText('Scheduled');
});
