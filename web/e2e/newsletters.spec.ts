import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * Newsletters end to end against the real platform (issue #15; email marketing §2 "Newsletter
 * screen"): a published blog post reaches the Convert tab through the blog events and becomes a
 * newsletter whose preview has the post and its 'Read more' link; a send to one company in test
 * mode (the suite's live-send allowance of 2 an hour is spent by other specs), whose button says
 * where it goes and which leaves the newsletter a draft; schedule with the spec's validation,
 * then unschedule; create by hand with validation, with a merge field from the menu; delete; Fix
 * HTML Issues (a dry run first, then the chosen fixes); the empty state; 375 px and axe.
 */

interface Newsletter {
  id: number;
  name: string;
  status: string;
  totalRecipients: number;
  progress: {
    sendId: number | null;
    testMode: boolean;
    total: number;
    sent: number;
    originalRecipients: number;
  } | null;
}

async function createBook(request: APIRequestContext, name: string): Promise<number> {
  const res = await request.post('/api/admin/address-books', { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** Contacts as the manual import takes them: email, first name, last name, company. */
async function importContacts(request: APIRequestContext, bookId: number, lines: string[]) {
  const res = await request.post('/api/admin/email/import-manual', {
    data: { contacts: lines.join('\n'), addressBookId: bookId },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function createNewsletter(
  request: APIRequestContext,
  fields: { name: string; subject?: string; htmlContent?: string; textContent?: string },
): Promise<Newsletter> {
  const res = await request.post('/api/admin/newsletters', {
    data: {
      subject: `Subject of ${fields.name}`,
      htmlContent: `<h1>${fields.name}</h1><p>Hello {{firstName}}, the news.</p>`,
      ...fields,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Newsletter;
}

async function readNewsletter(request: APIRequestContext, id: number): Promise<Newsletter> {
  const res = await request.get(`/api/admin/newsletters/${id}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Newsletter;
}

async function openNewsletters(page: Page) {
  await page.goto('/admin/newsletters');
  await expect(page.getByRole('heading', { name: 'Newsletters', level: 1 })).toBeVisible();
}

const tabList = (page: Page) => page.getByRole('tablist', { name: 'Newsletters' });

const card = (page: Page, name: string) =>
  page.getByTestId('newsletter-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

/** axe-core (WCAG 2.x A/AA and best practice) on one part of the page: no serious or critical violation. */
async function expectNoSeriousViolationsIn(page: Page, selector: string) {
  const axe = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** A date `days` from today in the browser's zone, as a date input takes it. */
const localDate = (page: Page, days: number) =>
  page.evaluate((d) => {
    const t = new Date(Date.now() + d * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
  }, days);

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('the empty state, once no newsletter exists', async ({ page }) => {
  // The suite's earlier specs may have left newsletters: the admin deletes them first.
  const list = (await (await page.request.get('/api/admin/newsletters')).json()) as Array<{ id: number }>;
  for (const n of list) {
    const deleted = await page.request.delete(`/api/admin/newsletters/${n.id}`);
    expect(deleted.status(), await deleted.text()).toBe(200);
  }
  await openNewsletters(page);
  await expect(page.getByText('No newsletters created yet')).toBeVisible();
  await expect(tabList(page).getByRole('tab', { name: 'Newsletters (0)' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
});

test('a published blog post is converted, and its preview has the post and a Read more link', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const tag = unique();
  const title = `Voice agents for clinics ${tag}`;
  const created = await page.request.post('/api/blog', {
    data: {
      title,
      slug: `voice-agents-clinics-${tag}`,
      excerpt: `How clinics answer every call (${tag}).`,
      content: `## Every call answered\n\nClinics in the pilot answered every call, day and night. ${'More words here. '.repeat(20)}`,
      author: 'Parley Team',
      tags: ['Healthcare'],
      status: 'published',
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  await openNewsletters(page);
  await tabList(page).getByRole('tab', { name: 'Convert Blog Posts' }).click();
  const convert = page.getByRole('button', { name: 'Convert to Newsletter' });
  await expect(convert).toBeDisabled();
  // The email service learns of posts from the blog's events: read the list again until it is there.
  const option = page.getByTestId('blog-post-option').filter({ hasText: title });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh posts' }).click();
    await expect(option).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(convert).toBeDisabled();
  for (const label of ['Include featured image', 'Include "Read more" link', 'Include share links'])
    await expect(page.getByRole('checkbox', { name: label })).toBeChecked();
  await option.getByRole('radio').check();
  await expect(convert).toBeEnabled();
  await page.getByLabel('Preheader').fill(`Preheader ${tag}`);
  await convert.click();
  await expect(toasts(page).getByText('Blog post converted')).toBeVisible();
  await expect(tabList(page).getByRole('tab', { name: /^Newsletters/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  const c = page.getByTestId('newsletter-card').filter({ hasText: title });
  await expect(c).toHaveCount(1);
  await expect(c.getByTestId('newsletter-status')).toHaveText('Draft');
  await expect(c.getByTestId('newsletter-facts')).toContainText('Created');
  const name = (await c.getByRole('heading').textContent()) ?? '';
  // A draft: preview, send, schedule and delete; no resend, report or unschedule.
  for (const action of ['Preview', 'Send', 'Schedule', 'Delete'])
    await expect(c.getByRole('button', { name: `${action} ${name}`, exact: true })).toBeVisible();
  for (const action of ['Resend', 'Engagement report', 'Unschedule'])
    await expect(c.getByRole('button', { name: `${action} ${name}`, exact: true })).toHaveCount(0);

  await c.getByRole('button', { name: `Preview ${name}`, exact: true }).click();
  const preview = page.getByRole('dialog', { name: 'Newsletter Preview' });
  await expect(preview.getByTestId('preview-headers')).toContainText(`Preheader ${tag}`);
  const frame = preview.getByTestId('newsletter-preview-frame');
  await expect(frame).toHaveAttribute('sandbox', '');
  // The post's title (a link to the post), its 'Read more' button to the post, absolute.
  const heading = frame.contentFrame().getByText(title, { exact: true });
  await expect(heading).toBeVisible();
  await expect(heading).toHaveAttribute('href', new RegExp(`/blog/voice-agents-clinics-${tag}$`));
  const readMore = frame.contentFrame().getByRole('link', { name: /read more/i });
  await expect(readMore.first()).toBeVisible();
  expect(await readMore.first().getAttribute('href')).toMatch(
    new RegExp(`^https?://[^/]+/blog/voice-agents-clinics-${tag}`),
  );
  await preview.getByRole('button', { name: 'Mobile (375px)' }).click();
  await expect(frame).toHaveAttribute('data-device', 'mobile');
  await preview.getByRole('tab', { name: 'Text' }).click();
  await expect(preview.getByTestId('newsletter-preview-text')).toContainText(title);
  await expectNoSeriousViolationsIn(page, '[role="dialog"]');
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
});

test('send to one company in test mode: the count, a button that says where it goes, the newsletter left a draft', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = unique();
  // Test mode sends only to the saved test addresses (the email service learns them from the settings events).
  const testAddress = `newsletter.${tag}@example.com`;
  const saved = await page.request.post('/api/admin/settings', {
    data: { key: 'test_email_addresses', value: JSON.stringify([testAddress]) },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const acme = `Acme ${tag}`;
  const beta = `Beta ${tag}`;
  const book = await createBook(page.request, `Newsletter ${tag}`);
  await importContacts(page.request, book, [
    `ann.${tag}@example.com, Ann, Arbor, ${acme}`,
    `bob.${tag}@example.com, Bob, Burns, ${acme}`,
    `cid.${tag}@example.com, Cid, Crane, ${beta}`,
  ]);
  const n = await createNewsletter(page.request, { name: `Industry news ${tag}` });

  await openNewsletters(page);
  const c = card(page, n.name);
  await c.getByRole('button', { name: `Send ${n.name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Newsletter' });
  const recipients = dialog.getByRole('tablist', { name: 'Recipients' });

  // All Contacts: the server's total.
  await expect(dialog.getByTestId('all-contacts-count')).toHaveText(/^[\d,]+$/);
  const all = (await dialog.getByTestId('all-contacts-count').textContent()) ?? '';
  await expect(dialog.getByRole('button', { name: `Send to ${all} Contacts`, exact: true })).toBeVisible();

  // Individual: search, select all, one by one.
  await recipients.getByRole('tab', { name: 'Individual' }).click();
  await dialog.getByLabel('Search contacts').fill(tag);
  const contacts = dialog.getByRole('list', { name: 'Contacts' });
  await expect(contacts.getByRole('checkbox')).toHaveCount(3);
  await dialog.getByRole('checkbox', { name: 'Select all (3)' }).check();
  await expect(dialog.getByRole('button', { name: 'Send to 3 Contacts', exact: true })).toBeVisible();
  await contacts.getByRole('checkbox', { name: /Cid Crane/ }).uncheck();
  await expect(dialog.getByRole('button', { name: 'Send to 2 Contacts', exact: true })).toBeVisible();
  await dialog.getByLabel('Search contacts').fill(`bob.${tag}`);
  await expect(contacts.getByRole('checkbox')).toHaveCount(1);
  await expect(contacts.getByRole('checkbox', { name: /Bob Burns/ })).toBeChecked();

  // By Industry: the companies with their counts, the will-receive count from the server.
  await recipients.getByRole('tab', { name: 'By Industry' }).click();
  await expect(dialog.getByRole('button', { name: 'Send to 0 Contacts', exact: true })).toBeVisible();
  await dialog.getByLabel('Search companies').fill(tag);
  const companies = dialog.getByRole('list', { name: 'Companies' });
  await expect(companies.getByRole('checkbox')).toHaveCount(2);
  await expect(companies.getByRole('listitem').filter({ hasText: acme })).toContainText('2 contacts');
  await expect(companies.getByRole('listitem').filter({ hasText: beta })).toContainText('1 contact');
  await companies.getByRole('checkbox', { name: new RegExp(acme) }).check();
  await expect(dialog.getByTestId('industry-count')).toContainText('2 contacts will receive it');
  await dialog.getByRole('checkbox', { name: 'Select all (2)' }).check();
  await expect(dialog.getByTestId('industry-count')).toContainText('3 contacts will receive it');
  await companies.getByRole('checkbox', { name: new RegExp(beta) }).uncheck();
  const sendButton = dialog.getByRole('button', { name: 'Send to 2 Contacts', exact: true });
  await expect(sendButton).toBeVisible();
  await expectNoSeriousViolationsIn(page, '[role="dialog"]');

  // Test mode (never a live send here): the button says where the mail goes, not "2 Contacts".
  await expect(dialog.getByRole('note')).toContainText('cannot be undone');
  await dialog.getByRole('checkbox', { name: 'Test mode' }).check();
  await expect(dialog.getByRole('note')).toHaveCount(0);
  await expect(sendButton).toHaveCount(0);
  const testButton = dialog.getByRole('button', { name: 'Send to 1 test address (test mode)', exact: true });
  const request = page.waitForRequest((r) => r.url().endsWith(`/api/admin/newsletters/${n.id}/send`));
  await testButton.click();
  const body = (await request).postDataJSON() as {
    audience: unknown;
    testMode: boolean;
    confirmSend: boolean;
  };
  expect(body).toMatchObject({
    audience: { type: 'companies', companies: [acme] },
    testMode: true,
    confirmSend: true,
  });
  await expect(toasts(page).getByText('Test Newsletter Sending')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The newsletter stays a draft, Send and Schedule still there; the test send is listed apart.
  await expect(c.getByTestId('test-sends')).toContainText('1 sent', { timeout: 60_000 });
  await expect(c.getByTestId('test-sends')).toContainText('1 test address standing in for 2 recipients');
  await expect(c.getByTestId('newsletter-status')).toHaveText('Draft');
  for (const action of ['Send', 'Schedule'])
    await expect(c.getByRole('button', { name: `${action} ${n.name}`, exact: true })).toBeVisible();
  const after = await readNewsletter(page.request, n.id);
  expect(after.status).toBe('draft');
  expect(after.progress?.sendId ?? null).toBeNull();
  // On the local transport the mail is kept in Sent mail: to the test address only, none to the live recipients.
  const outbox = await page.request.get(`/api/admin/email/outbox?q=${encodeURIComponent(tag)}`);
  expect(outbox.ok()).toBe(true);
  const kept = ((await outbox.json()) as { items: Array<{ to: string; kind: string }> }).items;
  expect(kept.filter((m) => m.kind === 'newsletter').map((m) => m.to)).toEqual([testAddress]);

  // Live mail only in the newsletters' figures: the test send adds nothing there.
  const figures = (await (await page.request.get('/api/admin/newsletters/analytics')).json()) as {
    includesTestMail: boolean;
    campaigns: Array<{ id: number; totalSent: number }>;
  };
  expect(figures.includesTestMail).toBe(false);
  expect(figures.campaigns.find((x) => x.id === n.id)?.totalSent).toBe(0);

  // The email Analytics tab counts the newsletter's mail with the campaigns', marked as a
  // newsletter: its test mail only with "Include test mail".
  await page.goto('/admin/email');
  await page
    .getByRole('tablist', { name: 'Email marketing' })
    .getByRole('tab', { name: /^Analytics$/ })
    .click();
  const row = page.getByTestId('analytics-row').filter({ hasText: n.name });
  await expect(page.getByTestId('analytics-scope')).toContainText('live mail only');
  await expect(row).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Include test mail' }).check();
  await expect(row.getByText('Newsletter', { exact: true })).toBeVisible();
  await expect(row.locator('[data-col="sent"]')).toHaveText('1');
});

test('beyond 5,000 contacts, Individual says so and searches on the server', async ({ page }) => {
  test.setTimeout(180_000);
  const tag = unique();
  const total = (
    (await (await page.request.get('/api/admin/email/contacts?limit=1&offset=0')).json()) as {
      meta: { total: number };
    }
  ).meta.total;
  // More contacts than the dialog reads at once (the suite may have some already).
  const needed = Math.max(1, 5001 - total);
  const book = await createBook(page.request, `Many ${tag}`);
  await importContacts(
    page.request,
    book,
    Array.from({ length: needed }, (_, i) => `many${i}.${tag}@example.com, Many${i}, Reader, Many Co ${tag}`),
  );
  const n = await createNewsletter(page.request, { name: `Many readers ${tag}` });
  await openNewsletters(page);
  await card(page, n.name)
    .getByRole('button', { name: `Send ${n.name}`, exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Send Newsletter' });
  await dialog.getByRole('tablist', { name: 'Recipients' }).getByRole('tab', { name: 'Individual' }).click();
  await expect(dialog.getByTestId('contacts-truncated')).toContainText('More than 5,000 contacts', {
    timeout: 20_000,
  });
  const last = `many${needed - 1}.${tag}@example.com`;
  const searched = page.waitForRequest((r) => {
    const u = new URL(r.url());
    return u.pathname === '/api/admin/email/contacts' && u.searchParams.get('q') === last;
  });
  await dialog.getByLabel('Search contacts').fill(last);
  const url = new URL((await searched).url());
  expect(url.searchParams.get('limit')).toBe('5000');
  expect(url.searchParams.get('offset')).toBe('0');
  const contacts = dialog.getByRole('list', { name: 'Contacts' });
  await expect(contacts.getByRole('checkbox')).toHaveCount(1);
  await contacts.getByRole('checkbox', { name: new RegExp(`Many${needed - 1} Reader`) }).check();
  await expect(dialog.getByRole('button', { name: 'Send to 1 Contacts', exact: true })).toBeVisible();
  // All Contacts counts everyone on the server, beyond the 5,000 read.
  await dialog
    .getByRole('tablist', { name: 'Recipients' })
    .getByRole('tab', { name: 'All Contacts' })
    .click();
  await expect
    .poll(async () =>
      Number((await dialog.getByTestId('all-contacts-count').textContent())?.replace(/,/g, '')),
    )
    .toBeGreaterThan(5000);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('schedule: the date and time are required and in the future; scheduled, then unscheduled to a draft', async ({
  page,
}) => {
  const tag = unique();
  const book = await createBook(page.request, `Schedule ${tag}`);
  await importContacts(page.request, book, [`sam.${tag}@example.com, Sam, Stone, Stone ${tag}`]);
  const n = await createNewsletter(page.request, { name: `Scheduled news ${tag}` });
  await openNewsletters(page);
  const c = card(page, n.name);
  await c.getByRole('button', { name: `Schedule ${n.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule Newsletter' });
  const submit = dialog.getByRole('button', { name: 'Schedule Newsletter' });
  await submit.click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select a date and time');
  await dialog.getByLabel('Date').fill(await localDate(page, 1));
  await submit.click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select a date and time');
  await dialog.getByLabel('Date').fill(await localDate(page, -1));
  await dialog.getByLabel('Time').fill('09:30');
  await submit.click();
  await expect(dialog.getByRole('alert')).toHaveText('Please choose a date and time in the future');

  const day = await localDate(page, 2);
  await dialog.getByLabel('Date').fill(day);
  await dialog.getByLabel('Time').fill('09:30');
  await dialog.getByRole('tablist', { name: 'Recipients' }).getByRole('tab', { name: 'Individual' }).click();
  await dialog.getByLabel('Search contacts').fill(`sam.${tag}`);
  await dialog.getByRole('checkbox', { name: /Sam Stone/ }).check();
  const request = page.waitForRequest((r) => r.url().endsWith(`/api/admin/newsletters/${n.id}/schedule`));
  await submit.click();
  const body = (await request).postDataJSON() as { scheduledAt: string; audience: { type: string } };
  expect(body.audience.type).toBe('contacts');
  expect(new Date(body.scheduledAt).getTime()).toBeGreaterThan(Date.now() + 86_400_000);
  await expect(toasts(page).getByText('Newsletter Scheduled')).toBeVisible();
  await expect(dialog).toBeHidden();

  await expect(c.getByTestId('newsletter-status')).toHaveText('Scheduled');
  await expect(c.getByTestId('newsletter-scheduled')).toContainText('9:30 AM');
  await expect(c.getByRole('button', { name: `Send ${n.name}`, exact: true })).toHaveCount(0);
  await c.getByRole('button', { name: `Unschedule ${n.name}` }).click();
  await expect(toasts(page).getByText('Newsletter unscheduled')).toBeVisible();
  await expect(c.getByTestId('newsletter-status')).toHaveText('Draft');
  await expect(c.getByTestId('newsletter-scheduled')).toHaveText('—');
  expect((await readNewsletter(page.request, n.id)).status).toBe('draft');
});

test('create by hand with the required fields, preview it, then delete it', async ({ page }) => {
  const tag = unique();
  const name = `Hand made ${tag}`;
  await openNewsletters(page);
  await page.getByRole('button', { name: 'Create Newsletter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Newsletter' });
  const create = dialog.getByRole('button', { name: 'Create Newsletter' });
  await create.click();
  await expect(dialog.getByText('Please fill in all required fields', { exact: true })).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Subject').fill(`Monthly digest ${tag}`);
  await create.click();
  await expect(dialog.getByText('Please fill in all required fields', { exact: true })).toBeVisible();
  await expect(dialog.getByLabel('HTML content')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Name')).not.toHaveAttribute('aria-invalid', 'true');
  // The server says the same when the HTML is blank.
  const refused = await page.request.post('/api/admin/newsletters', {
    data: { name, subject: 'x', htmlContent: '   ' },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { message: string }).message).toBe('Please fill in all required fields');

  await dialog.getByLabel('Preheader').fill('The month in one page');
  await dialog.getByLabel('HTML content').fill(`<h1>Digest ${tag}</h1><p>Everything that happened, `);
  // A merge field from the menu, with its fallback, at the cursor.
  await dialog.getByRole('button', { name: 'Insert merge field into HTML content' }).click();
  await expect(dialog.getByTestId('merge-field-menu').getByLabel('Fallback')).toHaveValue('there');
  await dialog.getByTestId('merge-field-menu').getByRole('button', { name: 'Insert' }).click();
  await expect(dialog.getByLabel('HTML content')).toHaveValue(
    `<h1>Digest ${tag}</h1><p>Everything that happened, {{firstName|there}}`,
  );
  await dialog.getByLabel('HTML content').press('End');
  await dialog.getByLabel('HTML content').pressSequentially('.</p>');
  await expectNoSeriousViolationsIn(page, '[role="dialog"]');
  await create.click();
  await expect(toasts(page).getByText('Newsletter created')).toBeVisible();
  await expect(dialog).toBeHidden();
  const c = card(page, name);
  await expect(c.getByTestId('newsletter-status')).toHaveText('Draft');
  await expect(c.getByTestId('newsletter-subject')).toHaveText(`Monthly digest ${tag}`);

  await c.getByRole('button', { name: `Preview ${name}`, exact: true }).click();
  const preview = page.getByRole('dialog', { name: 'Newsletter Preview' });
  await expect(
    preview
      .getByTestId('newsletter-preview-frame')
      .contentFrame()
      .getByRole('heading', { name: `Digest ${tag}` }),
  ).toBeVisible();
  const frame = preview.getByTestId('newsletter-preview-frame').contentFrame();
  await expect(frame.getByText('Everything that happened, John.')).toBeVisible();
  await preview.getByLabel('Preview as').selectOption('missing');
  await expect(frame.getByText('Everything that happened, there.')).toBeVisible();
  await page.keyboard.press('Escape');

  await c.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Delete "${name}"?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toasts(page).getByText('Newsletter deleted')).toBeVisible();
  await expect(c).toHaveCount(0);
});

test('failures are titled from the newsletter catalogue with the server message', async ({ page }) => {
  const tag = unique();
  const n = await createNewsletter(page.request, { name: `Vanishing ${tag}` });
  await openNewsletters(page);
  const c = card(page, n.name);
  await expect(c).toBeVisible();
  // Deleted behind the screen's back: the card is stale, every call on it fails with 404.
  const deleted = await page.request.delete(`/api/admin/newsletters/${n.id}`, {
    headers: { 'X-Requested-With': 'parley' },
  });
  expect(deleted.status(), await deleted.text()).toBe(200);

  await c.getByRole('button', { name: `Send ${n.name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Newsletter' });
  await dialog.getByRole('checkbox', { name: 'Test mode' }).check();
  await dialog.getByRole('button', { name: /^Send to [\d,]+ test address(es)? \(test mode\)$/ }).click();
  await expect(toasts(page).getByText('Failed to send newsletter')).toBeVisible();
  await expect(toasts(page)).toContainText('Newsletter not found');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await c.getByRole('button', { name: `Schedule ${n.name}` }).click();
  const schedule = page.getByRole('dialog', { name: 'Schedule Newsletter' });
  await schedule.getByLabel('Date').fill(await localDate(page, 3));
  await schedule.getByLabel('Time').fill('10:00');
  await schedule.getByRole('button', { name: 'Schedule Newsletter' }).click();
  await expect(toasts(page).getByText('Failed to schedule newsletter')).toBeVisible();
  await expect(toasts(page)).toContainText('Newsletter not found');
  await schedule.getByRole('button', { name: 'Cancel' }).click();

  await c.getByRole('button', { name: `Delete ${n.name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(toasts(page).getByText('Failed to delete newsletter')).toBeVisible();
  await expect(toasts(page)).toContainText('Newsletter not found');
});

test('Fix HTML Issues shows what it would change first, fixes only the chosen drafts, and never a serialiser-only change', async ({
  page,
}) => {
  const tag = unique();
  const fixable = await createNewsletter(page.request, {
    name: `Needs fixing ${tag}`,
    htmlContent: `<style>p { color: #333; }</style><p>Hi <a href="/pricing">see pricing</a></p><img src="/logo.png">`,
  });
  const other = await createNewsletter(page.request, {
    name: `Left alone ${tag}`,
    htmlContent: `<p>Read <a href="/blog">the blog</a></p>`,
    textContent: 'Read the blog',
  });
  // Well-formed tables without <tbody> (as mail builders write them): nothing to fix.
  const tables = Array.from({ length: 29 }, (_, i) => `<table><tr><td>Row ${i}</td></tr></table>`).join('');
  const clean = await createNewsletter(page.request, {
    name: `Clean tables ${tag}`,
    htmlContent: `<!DOCTYPE html><html><head></head><body>${tables}</body></html>`,
    textContent: 'Rows',
  });
  const storedHtml = async (id: number) =>
    ((await (await page.request.get(`/api/admin/newsletters/${id}`)).json()) as { htmlContent: string })
      .htmlContent;
  const before = { fixable: await storedHtml(fixable.id), other: await storedHtml(other.id) };

  await openNewsletters(page);
  await page.getByRole('button', { name: 'Fix HTML Issues' }).click();
  const dialog = page.getByRole('dialog', { name: 'Fix HTML Issues' });
  await expect(dialog.getByTestId('fix-html-summary')).toContainText('Nothing has been changed yet');
  await expect(dialog).toContainText('Only draft newsletters are checked');
  const item = (name: string) => dialog.getByTestId('fix-html-item').filter({ hasText: name });
  await expect(item(fixable.name)).toContainText('made 2 relative URLs absolute');
  await expect(item(fixable.name)).toContainText('Newsletter');
  await expect(item(clean.name)).toHaveCount(0);
  await expect(dialog).not.toContainText('invalid nesting');
  await item(fixable.name).getByText('Show the changes').click();
  const diff = item(fixable.name).getByTestId('fix-html-diff');
  await expect(diff).toContainText('href="/pricing"');
  await expect(diff).toContainText(/href="https?:\/\/[^"]+\/pricing"/);
  // Opening the dialog changed nothing.
  expect(await storedHtml(fixable.id)).toBe(before.fixable);
  expect(await storedHtml(other.id)).toBe(before.other);
  await expectNoSeriousViolationsIn(page, '[role="dialog"]');

  // Campaign drafts only when asked for, named as such.
  await dialog.getByRole('checkbox', { name: 'Also check email-campaign drafts' }).check();
  await expect(dialog).toContainText('draft email campaigns (Email → Campaigns) are checked');
  await dialog.getByRole('checkbox', { name: 'Also check email-campaign drafts' }).uncheck();
  await expect(item(other.name)).toBeVisible();

  // Fix the first one only (other specs' drafts on the platform are left too).
  for (const box of await dialog.getByTestId('fix-html-item').getByRole('checkbox').all())
    await box.uncheck();
  await dialog.getByRole('button', { name: 'Fix 0 drafts' }).click();
  await expect(dialog.getByText('Choose at least one draft to fix.')).toBeVisible();
  await item(fixable.name).getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Fix 1 draft', exact: true }).click();
  await expect(toasts(page)).toContainText(/Fixed HTML in 1 draft/);
  await expect(dialog).toBeHidden();
  const fixed = await storedHtml(fixable.id);
  expect(fixed).not.toContain('href="/pricing"');
  expect(fixed).toMatch(/<img[^>]*alt=/);
  expect(await storedHtml(other.id)).toBe(before.other);

  // Again: the fixed one has nothing left to fix; the other is still proposed.
  await page.getByRole('button', { name: 'Fix HTML Issues' }).click();
  await expect(item(other.name)).toBeVisible();
  await expect(item(fixable.name)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('at 375 px the screen fits, the send dialog fits, and axe finds nothing serious', async ({ page }) => {
  const tag = unique();
  const n = await createNewsletter(page.request, {
    name: `A newsletter with a rather long name for narrow screens ${tag}`,
  });
  await page.setViewportSize({ width: 375, height: 812 });
  await openNewsletters(page);
  const noOverflow = async () =>
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
  await noOverflow();
  await expect(card(page, n.name)).toBeVisible();
  await expectNoSeriousViolationsIn(page, 'main');

  await tabList(page).getByRole('tab', { name: 'Convert Blog Posts' }).click();
  await expect(page.getByRole('button', { name: 'Convert to Newsletter' })).toBeVisible();
  await noOverflow();
  await expectNoSeriousViolationsIn(page, 'main');
  await tabList(page)
    .getByRole('tab', { name: /^Newsletters/ })
    .click();

  const c = card(page, n.name);
  await c.scrollIntoViewIfNeeded();
  await c.getByRole('button', { name: `Send ${n.name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Newsletter' });
  await dialog.getByRole('tablist', { name: 'Recipients' }).getByRole('tab', { name: 'By Industry' }).click();
  await expect(dialog.getByLabel('Search companies')).toBeVisible();
  const fits = await dialog.evaluate(async (el) => {
    await Promise.all(el.getAnimations().map((a) => a.finished));
    const r = el.getBoundingClientRect();
    return r.left >= 0 && r.right <= window.innerWidth && el.scrollWidth <= el.clientWidth;
  });
  expect(fits).toBe(true);
  await expectNoSeriousViolationsIn(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await c.getByRole('button', { name: `Preview ${n.name}`, exact: true }).click();
  const preview = page.getByRole('dialog', { name: 'Newsletter Preview' });
  await expect(preview.getByRole('button', { name: 'Mobile (375px)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.keyboard.press('Escape');
  await noOverflow();
});

test('a live send to one company: followed to Sent, the engagement report, and a resend that offers no test mode', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = unique();
  // Live means live: Test Environment Mode off (the local mailbox keeps the mail; nothing leaves the machine).
  const off = await page.request.post('/api/admin/settings', {
    data: { key: 'test_environment_enabled', value: 'false' },
  });
  expect(off.ok(), await off.text()).toBe(true);
  const acme = `Acme ${tag}`;
  const beta = `Beta ${tag}`;
  const book = await createBook(page.request, `Newsletter live ${tag}`);
  await importContacts(page.request, book, [
    `ann.${tag}@example.com, Ann, Arbor, ${acme}`,
    `bob.${tag}@example.com, Bob, Burns, ${acme}`,
    `cid.${tag}@example.com, Cid, Crane, ${beta}`,
  ]);
  const n = await createNewsletter(page.request, { name: `Live news ${tag}` });

  await openNewsletters(page);
  const c = card(page, n.name);
  await c.getByRole('button', { name: `Send ${n.name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Newsletter' });
  await dialog.getByRole('tablist', { name: 'Recipients' }).getByRole('tab', { name: 'By Industry' }).click();
  await dialog.getByLabel('Search companies').fill(acme);
  await dialog.getByRole('checkbox', { name: new RegExp(acme) }).check();
  await expect(dialog.getByRole('note')).toContainText('cannot be undone');
  await dialog.getByRole('button', { name: 'Send to 2 Contacts', exact: true }).click();
  await expect(dialog).toBeHidden();

  // The card follows the send to Sent: two recipients, Send and Schedule gone, the report and Resend offered.
  await expect(c.getByTestId('newsletter-status')).toHaveText('Sent', { timeout: 60_000 });
  await expect(c.getByTestId('newsletter-recipients')).toHaveText('2');
  for (const action of ['Send', 'Schedule'])
    await expect(c.getByRole('button', { name: `${action} ${n.name}`, exact: true })).toHaveCount(0);
  const after = await readNewsletter(page.request, n.id);
  expect(after.status).toBe('sent');
  expect(after.progress).toMatchObject({ testMode: false, total: 2, sent: 2 });
  const outbox = await page.request.get(`/api/admin/email/outbox?q=${encodeURIComponent(tag)}`);
  const kept = ((await outbox.json()) as { items: Array<{ to: string; kind: string }> }).items;
  expect(
    kept
      .filter((m) => m.kind === 'newsletter')
      .map((m) => m.to)
      .sort(),
  ).toEqual([`ann.${tag}@example.com`, `bob.${tag}@example.com`]);

  // The engagement report of the sent newsletter: what was sent, nobody has opened it yet.
  await c.getByRole('button', { name: `Engagement report ${n.name}` }).click();
  const report = page.getByRole('dialog', { name: 'Newsletter Engagement Report' });
  await expect(report.getByTestId('engagement-summary')).toContainText('Sent2');
  await expect(report.getByText('Nobody has opened this newsletter yet.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(report).toBeHidden();

  // Resend offers the same tabs and "Resend to N Contacts", never test mode; cancelled here.
  await c.getByRole('button', { name: `Resend ${n.name}` }).click();
  const resend = page.getByRole('dialog', { name: 'Resend Newsletter' });
  await resend.getByRole('tablist', { name: 'Recipients' }).getByRole('tab', { name: 'By Industry' }).click();
  await resend.getByLabel('Search companies').fill(beta);
  await resend.getByRole('checkbox', { name: new RegExp(beta) }).check();
  await expect(resend.getByRole('button', { name: 'Resend to 1 Contacts', exact: true })).toBeVisible();
  await expect(resend.getByRole('checkbox', { name: 'Test mode' })).toHaveCount(0);
  await resend.getByRole('button', { name: 'Cancel' }).click();
  await expect(resend).toBeHidden();

  // Live mail counts in the newsletters' figures.
  const figures = (await (await page.request.get('/api/admin/newsletters/analytics')).json()) as {
    campaigns: Array<{ id: number; totalSent: number }>;
  };
  expect(figures.campaigns.find((x) => x.id === n.id)?.totalSent).toBe(2);
});
