import type { SettingEntry } from '@parley/contracts';
import type { APIRequestContext } from '@playwright/test';
import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { type MailSink, startMailSink } from './support/mail-sink.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * A marketer's day (issue 35, "Done when"), end to end through the screens, with a real SMTP
 * peer: import a book where one contact has no company; write a campaign whose subject takes
 * a fallback from the merge-field menu; send it to the test address with Test Environment
 * Mode on (the missing-field warning, acknowledged; the campaign stays a draft and the
 * reports do not move); send it live over SMTP (the delivery log and Sent mail list every
 * recipient, and each got one mail); then switch the transport back to the local mailbox.
 */

const api = async <T>(request: APIRequestContext, path: string): Promise<T> => {
  const res = await request.get(path);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
};

const setting = async (page: Page, key: string) =>
  (await api<SettingEntry[]>(page.request, '/api/admin/settings')).find((s) => s.key === key)?.value;

/** The reports' totals as the Analytics tab reads them: live mail, or with the test mail. */
const totals = (page: Page, includeTest = false) =>
  api<{ totalSent: number; campaigns: Array<{ name: string }> }>(
    page.request,
    `/api/admin/email/analytics${includeTest ? '?includeTest=true' : ''}`,
  );

let sink: MailSink;

test.beforeAll(async () => {
  sink = await startMailSink();
});

test.afterAll(async ({ browser }) => {
  sink?.close();
  // Whatever happened above, the platform is left as the other specs expect it: the local
  // mailbox, test mode off.
  const page = await browser.newPage();
  await signInAsAdmin(page);
  for (const [key, value] of [
    ['mail_transport', 'local'],
    ['test_environment_enabled', 'false'],
  ])
    await page.request.post('/api/admin/settings', { data: { key, value } });
  await page.close();
});

test('a marketer’s day: import, a fallback from the menu, the warning, a test send that changes nothing, a live send over SMTP accounted for mail by mail, the local mailbox again', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInAsAdmin(page);
  const tag = unique();
  const people = [
    { email: `ann.${tag}@example.com`, first: 'Ann', company: 'Smile Dental' },
    { email: `ben.${tag}@example.com`, first: 'Ben', company: '' },
    { email: `cy.${tag}@example.com`, first: 'Cy', company: 'Harbour Law' },
  ];
  const testAddress = `qa.${tag}@example.com`;

  // 1. A new book, filled from a file through its Import dialog.
  const bookName = `Practices ${tag}`;
  await page.goto('/admin/address-books');
  await page.getByRole('button', { name: 'New Address Book' }).click();
  const create = page.getByRole('dialog', { name: 'Create Address Book' });
  await create.getByLabel('Name', { exact: true }).fill(bookName);
  await create.getByRole('button', { name: 'Create Address Book' }).click();
  await expect(create).toBeHidden();
  const book = page
    .getByTestId('book-card')
    .filter({ has: page.getByRole('heading', { name: bookName, exact: true }) });
  await book.getByRole('button', { name: `Import contacts into ${bookName}` }).click();
  const importer = page.getByRole('dialog', { name: 'Import Contacts' });
  const csv = `email,firstName,lastName,company\n${people.map((p) => `${p.email},${p.first},Day,${p.company}`).join('\n')}\n`;
  await importer
    .getByLabel('Contacts file (.csv or .xlsx)')
    .setInputFiles({ name: 'practices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await importer.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(importer.getByTestId('import-outcome')).toContainText('Imported 3 contacts');
  await importer.getByRole('button', { name: 'Done' }).click();
  await expect(book.getByTestId('book-count')).toHaveText('3 contacts');

  // 2. The mail goes through SMTP (the sink) from now on; the test address is saved and
  //    Test Environment Mode switched on.
  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: 'SMTP' }).click();
  const transport = page.getByRole('group', { name: 'Send mail through' });
  await transport.getByRole('radio', { name: /SMTP server/ }).check();
  await page.getByLabel('SMTP Host').fill('127.0.0.1');
  await page.getByLabel('SMTP Port').fill(String(sink.smtpPort));
  await page.getByRole('button', { name: 'Save SMTP Settings' }).click();
  await expect(toasts(page)).toContainText('Settings updated');
  await expect(page.getByTestId('mail-transport-now')).toContainText(
    `In use now: SMTP server — SMTP 127.0.0.1:${sink.smtpPort}`,
  );
  const savedBefore = JSON.parse((await setting(page, 'test_email_addresses')) ?? '[]') as string[];
  await page.getByRole('tab', { name: 'Testing' }).click();
  // This day's one test address: the rows other days left are removed first (once loaded).
  if (savedBefore.length) await expect(toasts(page)).toContainText('Test emails loaded');
  await expect(page.getByRole('textbox', { name: 'Test email 1', exact: true })).toBeVisible();
  while ((await page.getByRole('button', { name: 'Remove test email 2' }).count()) > 0)
    await page.getByRole('button', { name: 'Remove test email 2' }).click();
  await page.getByRole('textbox', { name: 'Test email 1', exact: true }).fill(testAddress);
  await page.getByRole('button', { name: 'Save Emails' }).click();
  await expect(toasts(page)).toContainText('Settings updated');
  expect(await setting(page, 'test_email_addresses')).toBe(JSON.stringify([testAddress]));
  const mode = page.getByRole('switch', { name: 'Test Environment Mode' });
  if ((await mode.getAttribute('aria-checked')) !== 'true') await mode.click();
  await expect(mode).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('test-mode-state')).toContainText('Test mode is on');
  expect(await setting(page, 'test_environment_enabled')).toBe('true');

  // 3. The campaign: the subject's company comes from the menu with a fallback; the body
  //    uses {{company}} without one.
  const name = `Receptionist day ${tag}`;
  await page.goto('/admin/email');
  await page.getByRole('tab', { name: /^Campaigns/ }).click();
  await page.getByRole('button', { name: 'Manual Create' }).click();
  const editor = page.getByRole('dialog', { name: 'Create Campaign' });
  await editor.getByLabel('Campaign name').fill(name);
  await editor.getByLabel('Subject').fill(`${tag}: an AI receptionist for `);
  await editor.getByRole('button', { name: 'Insert merge field into Subject' }).click();
  const menu = editor.getByTestId('merge-field-menu');
  await menu.getByLabel('Field').selectOption('company');
  await menu.getByLabel('Fallback').fill('your practice');
  await menu.getByRole('button', { name: 'Insert' }).click();
  await expect(editor.getByLabel('Subject')).toHaveValue(
    `${tag}: an AI receptionist for {{company|your practice}}`,
  );
  await editor.getByLabel('From name').fill('Parley Team');
  await editor.getByLabel('From email').fill('team@parley.test');
  await editor.getByLabel('HTML content').fill('<p>Hello {{firstName}}, a receptionist for {{company}}.</p>');
  await editor.getByRole('checkbox', { name: new RegExp(bookName) }).check();
  await editor.getByRole('button', { name: 'Create Campaign' }).click();
  await expect(editor).toBeHidden();
  const card = page
    .getByTestId('campaign-card')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });

  // 4. The test send: the warning names the contact without a company; once acknowledged the
  //    mail goes to the test address only, and the campaign and the reports stay as they were.
  const before = await totals(page);
  await card.getByRole('button', { name: `Launch Campaign ${name}` }).click();
  let send = page.getByRole('dialog', { name: 'Send Campaign' });
  await expect(send.getByRole('note')).toContainText('Test Environment Mode is on in Settings');
  const check = send.getByTestId('merge-check');
  await expect(check).toContainText(
    '1 of 3 recipients has no company and no fallback: they will see nothing there (HTML).',
  );
  const testButton = send.getByRole('button', { name: 'Send to 1 test address (test mode)' });
  await testButton.click();
  await expect(send.getByText('Tick the box to send with these empty merge fields')).toBeVisible();
  await check.getByRole('checkbox', { name: /I understand/ }).check();
  await testButton.click();
  await expect(toasts(page).getByText('Test Campaign Sending')).toBeVisible();
  await expect(send).toBeHidden();
  await expect(card.getByTestId('test-sends')).toContainText('1 sent', { timeout: 60_000 });
  await expect(card.getByTestId('campaign-status')).toHaveText('Draft');
  await expect(card.getByRole('button', { name: `Edit ${name}` })).toBeVisible();
  await expect.poll(async () => (await sink.recipients())[testAddress], { timeout: 30_000 }).toBe(1);
  const afterTest = await totals(page);
  expect(afterTest.totalSent).toBe(before.totalSent);
  expect(afterTest.campaigns.some((c) => c.name === name)).toBe(false);
  // The test mail is there, counted apart: asked for, the reports show it.
  const withTest = await totals(page, true);
  expect(withTest.campaigns.some((c) => c.name === name)).toBe(true);

  // 5. Test mode off; the live send, over SMTP, warned and acknowledged again.
  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: 'Testing' }).click();
  await mode.click();
  await expect(mode).toHaveAttribute('aria-checked', 'false');
  expect(await setting(page, 'test_environment_enabled')).toBe('false');
  await page.goto('/admin/email');
  await page.getByRole('tab', { name: /^Campaigns/ }).click();
  await card.getByRole('button', { name: `Launch Campaign ${name}` }).click();
  send = page.getByRole('dialog', { name: 'Send Campaign' });
  await send.getByRole('radio', { name: /Live/ }).check();
  await expect(send.getByTestId('merge-check')).toContainText('1 of 3 recipients has no company');
  await send
    .getByTestId('merge-check')
    .getByRole('checkbox', { name: /I understand/ })
    .check();
  await send.getByRole('button', { name: 'Send Live' }).click();
  await expect(toasts(page).getByText('Campaign Launched')).toBeVisible();
  await expect(card.getByTestId('campaign-status')).toHaveText('Sent', { timeout: 60_000 });

  // Each recipient got exactly one mail through SMTP; the subject fell back where it had to.
  await expect
    .poll(async () => {
      const got = await sink.recipients();
      return people.map((p) => got[p.email] ?? 0);
    })
    .toEqual([1, 1, 1]);

  // 6. The delivery log: every recipient, sent.
  await card.getByRole('link', { name: `Delivery log ${name}` }).click();
  await expect(page.getByRole('heading', { name: `Delivery log: ${name}`, level: 1 })).toBeVisible();
  const rows = page.getByTestId('delivery-row');
  await expect(rows).toHaveCount(3);
  for (const p of people) await expect(rows.filter({ hasText: p.email })).toContainText('Sent');
  await expect(page.getByTestId('delivery-status-filter')).toContainText('Sent3');

  // 7. Sent mail lists each of them too (the SMTP transport's mail, not only the local
  //    mailbox's), with the subject each one got, and the test mail marked as such.
  await page.goto('/admin/email/sent');
  await page.getByLabel('Campaign').selectOption({ label: name });
  const sent = page.getByTestId('sent-mail-row');
  await expect(sent).toHaveCount(4);
  await expect(sent.filter({ hasText: 'test mode' })).toHaveCount(1);
  await expect(sent.filter({ hasText: 'test mode' })).toContainText(`To ${testAddress}`);
  await expect(sent.filter({ hasText: people[1]?.email as string })).toContainText(
    `${tag}: an AI receptionist for your practice`,
  );
  await expect(sent.filter({ hasText: people[0]?.email as string })).toContainText(
    `${tag}: an AI receptionist for Smile Dental`,
  );
  const listed = await api<{ items: Array<{ to: string; transport: string; testMode: boolean }> }>(
    page.request,
    `/api/admin/email/outbox?q=${encodeURIComponent(tag)}&kind=campaign`,
  );
  expect(
    listed.items
      .filter((m) => !m.testMode)
      .map((m) => [m.to, m.transport])
      .sort(),
  ).toEqual(people.map((p) => [p.email, 'smtp']).sort());

  // 8. Back to the local mailbox: the host stays saved, unused.
  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: 'SMTP' }).click();
  await transport.getByRole('radio', { name: /Local mailbox/ }).check();
  await page.getByRole('button', { name: 'Save SMTP Settings' }).click();
  await expect(toasts(page)).toContainText('Settings updated');
  await expect(page.getByTestId('mail-transport-now')).toContainText('In use now: Local mailbox');
  expect(await setting(page, 'mail_transport')).toBe('local');
});
