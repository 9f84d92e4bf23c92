import AxeBuilder from '@axe-core/playwright';
import type { DeliverabilityReport } from '@parley/contracts';
import type { APIRequestContext } from '@playwright/test';
import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * The Deliverability tab against the real platform (local mailbox, the system's DNS): the
 * figures of a real send, the score and label as the service computed them, the DNS check
 * (this machine's resolver knows no mail domain, so every record is ✗ with what to publish),
 * the anti-spam checklist, the deliverability test dialog's validation and a real test send,
 * and the tab at 375 px.
 *
 * The send is a test-mode send (to saved test addresses): the real sender, tracking and
 * counting, without using one of the two live sends per hour other specs of the suite need.
 * Test mail counts only with "Include test mail" (issue 35): without it the figures stay as
 * they were.
 */

async function report(request: APIRequestContext, includeTest = false): Promise<DeliverabilityReport> {
  const res = await request.get(`/api/admin/email/deliverability${includeTest ? '?includeTest=true' : ''}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as DeliverabilityReport;
}

async function createBookWithContacts(request: APIRequestContext, tag: string, n: number): Promise<number> {
  const book = await request.post('/api/admin/address-books', { data: { name: `Deliverability ${tag}` } });
  expect(book.status()).toBe(201);
  const id = ((await book.json()) as { id: number }).id;
  const lines = Array.from(
    { length: n },
    (_, i) => `reader${i}.${tag}@example.com, Reader${i}, Deliver, Acme`,
  );
  const imported = await request.post('/api/admin/email/import-manual', {
    data: { contacts: lines.join('\n'), addressBookId: id },
  });
  expect(imported.ok(), await imported.text()).toBe(true);
  return id;
}

async function createCampaign(
  request: APIRequestContext,
  fields: { name: string; htmlContent: string; targetAddressBooks?: number[] },
): Promise<number> {
  const res = await request.post('/api/admin/email/campaigns', {
    data: {
      subject: 'Deliverability check',
      fromName: 'Parley Team',
      fromEmail: 'team@parley.test',
      ...fields,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function openDeliverability(page: Page) {
  await page.goto('/admin/email');
  await page.getByRole('tab', { name: 'Deliverability', exact: true }).click();
  await expect(page.getByTestId('score-card')).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('the tab shows the real figures of a send, the DNS check and the anti-spam checklist', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = unique();
  const before = await report(page.request, true);
  const liveBefore = await report(page.request);

  // Before the send: an honest empty state on a fresh platform, the measured score otherwise.
  await openDeliverability(page);
  const card = page.getByTestId('score-card');
  if (before.overallStats.totalSent === 0) {
    await expect(card.getByText('Not measured', { exact: true })).toBeVisible();
    await expect(page.getByTestId('score-gauge')).toHaveAttribute(
      'aria-label',
      'Deliverability score: not measured yet',
    );
    await expect(page.getByTestId('stats-empty')).toBeVisible();
    await expect(page.getByTestId('recommendations')).toContainText('No campaign has been sent yet');
  } else {
    await expect(page.getByTestId('overall-stats')).toBeVisible();
  }

  // A send: three contacts, a campaign to their book, sent in test mode to two saved test addresses.
  const testAddresses = [`deliv1.${tag}@example.com`, `deliv2.${tag}@example.com`];
  const saved = await page.request.post('/api/admin/settings', {
    data: { key: 'test_email_addresses', value: JSON.stringify(testAddresses) },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const bookId = await createBookWithContacts(page.request, tag, 3);
  const id = await createCampaign(page.request, {
    name: `Deliverability send ${tag}`,
    htmlContent: '<p>Hi {{firstName}}</p><p><a href="https://parley.test/offer">The offer</a></p>',
    targetAddressBooks: [bookId],
  });
  // The email service learns the saved addresses from the settings events: retried until it has them.
  await expect(async () => {
    const sent = await page.request.post(`/api/admin/email/campaigns/${id}/send`, {
      data: { confirmSend: true, testMode: true },
    });
    expect(sent.status(), await sent.text()).toBe(200);
    expect(((await sent.json()) as { recipients: number }).recipients).toBe(2);
  }).toPass({ timeout: 20_000 });
  // A test-mode send leaves the campaign a draft; its send is listed apart until done.
  await expect
    .poll(
      async () => {
        const c = (await (await page.request.get(`/api/admin/email/campaigns/${id}`)).json()) as {
          status: string;
          testSends: { last: { status: string } | null };
        };
        return `${c.status} ${c.testSends.last?.status}`;
      },
      { timeout: 30_000 },
    )
    .toBe('draft done');

  // Live mail only by default: the test mail changed nothing there.
  const live = await report(page.request);
  expect(live.overallStats.totalSent).toBe(liveBefore.overallStats.totalSent);
  expect(live.rates.sent).toBe(liveBefore.rates.sent);
  const after = await report(page.request, true);
  expect(after.includesTestMail).toBe(true);
  expect(after.overallStats.totalSent).toBe(before.overallStats.totalSent + 2);
  expect(after.totalContacts).toBe(before.totalContacts + 3);
  expect(after.activeContacts).toBe(before.activeContacts + 3);
  expect(after.measured).toBe(true);
  expect(after.deliverabilityScore).not.toBeNull();

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('deliverability-scope')).toContainText('live mail only');
  await expect(page.getByTestId('score-basis')).toHaveText(live.basis);
  await page.getByRole('checkbox', { name: 'Include test mail' }).check();
  await expect(page.getByTestId('deliverability-scope')).toContainText('live and test mail');
  await expect(page.getByTestId('score-basis')).toHaveText(after.basis);
  await expect(page.getByTestId('score-gauge')).toHaveAttribute(
    'aria-label',
    `Deliverability score ${after.deliverabilityScore} of 100: ${after.scoreLabel}`,
  );
  await expect(page.getByTestId('score-label')).toHaveText(after.scoreLabel as string);
  const stat = (root: string, label: string) =>
    page.getByTestId(root).getByTestId('stat-card').filter({ hasText: label });
  await expect(stat('overall-stats', 'Sent')).toContainText(
    after.overallStats.totalSent.toLocaleString('en-US'),
  );
  await expect(stat('overall-stats', 'Delivered')).toContainText(
    after.overallStats.totalDelivered.toLocaleString('en-US'),
  );
  await expect(stat('contact-counts', 'Total contacts')).toContainText(
    after.totalContacts.toLocaleString('en-US'),
  );
  await expect(stat('contact-counts', 'Active')).toContainText(after.activeContacts.toLocaleString('en-US'));
  await expect(page.getByTestId('recommendations').getByRole('listitem')).toHaveCount(
    after.recommendations.length,
  );
  await expect(page.getByTestId('recommendations')).toContainText(after.recommendations[0] as string);

  // The DNS check: this machine's resolver knows no mail domain, so every record is ✗ with advice.
  const dns = page.getByTestId('dns-check');
  await dns.getByRole('button', { name: 'Check DNS' }).click();
  await expect(dns.getByTestId('dns-result')).toBeVisible();
  for (const [key, label] of [
    ['spf', 'SPF'],
    ['dkim', 'DKIM'],
    ['dmarc', 'DMARC'],
    ['mx', 'MX'],
  ] as const) {
    const row = dns.getByTestId(`dns-${key}`);
    await expect(row).toContainText(`${label}: fails`);
    await expect(row.locator('p').first()).not.toBeEmpty();
  }
  await expect(dns.getByTestId('dns-spf-suggestion')).toHaveText(/^v=spf1 /);
  await expect(dns.getByTestId('dns-dmarc-suggestion')).toHaveText(/^v=DMARC1; p=none; rua=mailto:/);

  await expect(page.getByTestId('anti-spam-checklist').getByRole('listitem')).toHaveCount(11);

  const axe = await new AxeBuilder({ page })
    .include('[data-testid="deliverability-tab"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('the deliverability test: validation texts, then one test mail per address', async ({ page }) => {
  const tag = unique();
  const empty = `No HTML ${tag}`;
  const ready = `Ready ${tag}`;
  await createCampaign(page.request, { name: empty, htmlContent: '' });
  await createCampaign(page.request, { name: ready, htmlContent: '<p>Hello {{firstName}}</p>' });
  await openDeliverability(page);

  await page.getByRole('button', { name: 'Deliverability Test' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deliverability Test' });
  const rows = dialog.getByRole('textbox', { name: /^Test address \d$/ });
  // Start from a single row, then up to five.
  while ((await rows.count()) > 1)
    await dialog
      .getByRole('button', { name: /^Remove test address/ })
      .first()
      .click();
  const add = dialog.getByRole('button', { name: 'Add Address' });
  while ((await rows.count()) < 5) await add.click();
  await expect(add).toBeDisabled();
  while ((await rows.count()) > 1)
    await dialog
      .getByRole('button', { name: /^Remove test address/ })
      .first()
      .click();

  await dialog.getByLabel('Campaign').selectOption({ label: empty });
  await rows.first().fill('not-an-address');
  await dialog.getByRole('button', { name: 'Send Test' }).click();
  await expect(toasts(page).getByText('No Valid Emails')).toBeVisible();

  await rows.first().fill(`inbox.${tag}@example.com`);
  await dialog.getByRole('button', { name: 'Send Test' }).click();
  await expect(toasts(page).getByText('No Content', { exact: true })).toBeVisible();

  // A draft with content, one usable address and one entry without an @ (not used).
  await dialog.getByLabel('Campaign').selectOption({ label: ready });
  await add.click();
  await rows.nth(1).fill('no-at-sign');
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/admin/email/send-test'));
  await dialog.getByRole('button', { name: 'Send Test' }).click();
  expect((await answered).status()).toBe(200);
  const outcomes = dialog.getByTestId('test-outcomes').getByRole('listitem');
  await expect(outcomes).toHaveCount(1);
  await expect(outcomes.first()).toContainText(`inbox.${tag}@example.com: sent`);
  await expect(dialog.getByTestId('test-skipped')).toHaveText('Not used (no @): no-at-sign');
  await expect(toasts(page).getByText('Deliverability Test Sent')).toBeVisible();
  await expect(toasts(page).getByText('1 test email sent.', { exact: false })).toBeVisible();
});

test('at 375 px the tab fits', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await openDeliverability(page);
  await page.getByTestId('dns-check').getByRole('button', { name: 'Check DNS' }).click();
  await expect(page.getByTestId('dns-result')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
