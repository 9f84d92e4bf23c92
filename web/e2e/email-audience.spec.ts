import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, BrowserContext } from '@playwright/test';
import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * The audience end to end against the real platform: address books (/admin/address-books),
 * imports with live progress, a running import found again after a reload and cancelled, the
 * Contacts and Contact search tabs of /admin/email (cards, paging, re-subscribe after a real
 * unsubscribe through the mail half, the picker, the details dialog), and both screens at 375 px.
 */

interface Book {
  id: number;
  name: string;
  contactCount: number;
}

async function createBook(
  request: APIRequestContext,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<Book> {
  const res = await request.post('/api/admin/address-books', { data: { name, ...extra } });
  expect(res.status()).toBe(201);
  return (await res.json()) as Book;
}

function csvOf(rows: string[][]): string {
  return `${rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n')}\n`;
}

/** Rows of the admin column set for `n` contacts at `domain`. */
function leads(n: number, domain: string): string[][] {
  const rows = [
    ['Name', 'Email', 'Phone', 'Address', 'Category', 'Website', 'Rating', 'Reviews', 'Description'],
  ];
  for (let i = 1; i <= n; i++)
    rows.push([
      `Lead${i} Person`,
      `lead${i}@${domain}`,
      `617-555-${String(i % 10000).padStart(4, '0')}`,
      `${i} Main St, Boston`,
      i % 2 ? 'Law firm' : 'Dental clinic',
      `https://${domain}`,
      '4.5',
      String(i),
      'Imported in the browser test',
    ]);
  return rows;
}

async function importViaApi(request: APIRequestContext, bookId: number, rows: string[][]) {
  const res = await request.post('/api/admin/contacts/import-csv', {
    headers: { 'x-requested-with': 'parley' },
    multipart: {
      addressBookId: String(bookId),
      file: { name: 'seed.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(rows)) },
    },
  });
  expect(res.status()).toBe(200);
  return res.json();
}

/**
 * An import held open by this test: the header and `rows` rows are sent, the rest waits until
 * release(). The gateway and the service see a real, slow upload.
 */
async function heldImport(
  context: BrowserContext,
  baseURL: string,
  bookId: number,
  rows: number,
  domain: string,
) {
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const boundary = `----parley${unique()}`;
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(
        enc.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="addressBookId"\r\n\r\n${bookId}\r\n`,
        ),
      );
      controller.enqueue(
        enc.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.csv"\r\nContent-Type: text/csv\r\n\r\nEmail,Name\n`,
        ),
      );
      let chunk = '';
      for (let i = 0; i < rows; i++) chunk += `held${i}@${domain},Held ${i}\n`;
      controller.enqueue(enc.encode(chunk));
      await gate;
      controller.enqueue(enc.encode(`\r\n--${boundary}--\r\n`));
      controller.close();
    },
  });
  const answer = fetch(`${baseURL}/api/admin/contacts/import-csv`, {
    method: 'POST',
    headers: {
      cookie,
      'x-requested-with': 'parley',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: 'half',
  } as RequestInit).then(async (r) => ({ status: r.status, json: (await r.json()) as { message: string } }));
  return { release, answer };
}

async function openAddressBooks(page: Page) {
  await page.goto('/admin/address-books');
  await expect(page.getByRole('heading', { name: 'Address Books', level: 1 })).toBeVisible();
}

const card = (page: Page, name: string) =>
  page.getByTestId('book-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

/** The element lies within the 375 px viewport once its opening animation has ended. */
async function fitsWidth(locator: ReturnType<Page['locator']>): Promise<boolean> {
  return locator.evaluate(async (el) => {
    await Promise.all(el.getAnimations().map((a) => a.finished));
    const r = el.getBoundingClientRect();
    return r.left >= 0 && r.right <= window.innerWidth;
  });
}

async function noHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('address books: create with keywords, search and chips, edit, the default book, delete', async ({
  page,
}) => {
  const name = `Boston Law ${unique()}`;
  await openAddressBooks(page);
  const defaultCard = page.getByTestId('book-card').filter({ hasText: 'Default' });
  await expect(defaultCard.first()).toBeVisible();
  await expect(defaultCard.first().getByRole('button', { name: /^Delete / })).toHaveCount(0);

  await page.getByRole('button', { name: 'New Address Book' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Address Book' });
  await dialog.getByRole('button', { name: 'Create Address Book' }).click();
  await expect(dialog.getByText('Name is required', { exact: true })).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Description').fill('Partners at mid-size firms');
  await dialog.getByLabel('Keywords').fill('law, legal, boston, leads, prospects, clients, vip');
  await dialog.getByRole('button', { name: 'Color #8b5cf6' }).click();
  await dialog.getByRole('button', { name: 'Create Address Book' }).click();
  await expect(toasts(page).getByText('Address book created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  const c = card(page, name);
  await expect(c).toBeVisible();
  await expect(c.getByTestId('book-count')).toHaveText('0 contacts');
  await expect(c.getByText('Partners at mid-size firms')).toBeVisible();
  // Five keywords, then '+N more'.
  await expect(c.getByRole('list', { name: 'Keywords' }).getByRole('listitem')).toHaveCount(6);
  await expect(c.getByText('+2 more')).toBeVisible();
  await expect(c.getByTestId('book-color')).toHaveCSS('background-color', 'rgb(139, 92, 246)');

  // The search matches keywords; a chip searches for its word and toggles off.
  await page.getByRole('searchbox', { name: 'Search address books' }).fill('PROSPECTS');
  await expect(c).toBeVisible();
  await expect(defaultCard).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search address books' }).fill('');
  await page.getByRole('button', { name: 'insurance', exact: true }).click();
  await expect(page.getByRole('button', { name: 'insurance', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(c).toHaveCount(0);
  await page.getByRole('button', { name: 'insurance', exact: true }).click();
  await expect(c).toBeVisible();

  await c.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Address Book' });
  await expect(edit.getByLabel('Name')).toHaveValue(name);
  await edit.getByLabel('Name').fill(`${name} (renamed)`);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toasts(page).getByText('Address book updated successfully')).toBeVisible();
  const renamed = card(page, `${name} (renamed)`);
  await expect(renamed).toBeVisible();

  // A name taken by another book is refused with the spec's wording.
  await page.getByRole('button', { name: 'New Address Book' }).click();
  await page
    .getByRole('dialog', { name: 'Create Address Book' })
    .getByLabel('Name')
    .fill(`${name} (RENAMED)`);
  await page
    .getByRole('dialog', { name: 'Create Address Book' })
    .getByRole('button', { name: 'Create Address Book' })
    .click();
  await expect(toasts(page).getByText(/^Failed to create address book: An address book named/)).toBeVisible();
  await page
    .getByRole('dialog', { name: 'Create Address Book' })
    .getByRole('button', { name: 'Cancel' })
    .click();

  await renamed.getByRole('button', { name: `Delete ${name} (renamed)` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Delete "${name} (renamed)" and all its contacts?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toasts(page).getByText('Address book deleted successfully')).toBeVisible();
  await expect(renamed).toHaveCount(0);
});

test('imports a file with its outcome, and follows a running import after a reload until cancelled', async ({
  page,
  context,
  baseURL,
}) => {
  const tag = unique();
  const book = await createBook(page.request, `Imports ${tag}`);
  await openAddressBooks(page);
  const c = card(page, book.name);
  await c.getByRole('button', { name: `Import contacts into ${book.name}` }).click();
  let dialog = page.getByRole('dialog', { name: 'Import Contacts' });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByText('Please choose a .csv or .xlsx file.', { exact: true })).toBeVisible();
  await dialog.getByLabel('Contacts file (.csv or .xlsx)').setInputFiles({
    name: 'notes.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4'),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByText('Only .csv or .xlsx files can be imported.', { exact: true })).toBeVisible();

  // 3,000 rows, one invalid address and one duplicate.
  const rows = leads(3000, `${tag}.example.com`);
  rows.push(['Broken Row', 'not-an-email', '', '', '', '', '', '', '']);
  rows.push(['Dup', `lead1@${tag}.example.com`, '', '', '', '', '', '', '']);
  await dialog.getByLabel('Contacts file (.csv or .xlsx)').setInputFiles({
    name: 'leads.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csvOf(rows)),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(toasts(page).getByText('Import Complete')).toBeVisible({ timeout: 30_000 });
  await expect(
    toasts(page).getByText('Imported 3,000 contacts, skipped 1 duplicate, 1 error.'),
  ).toBeVisible();
  await expect(dialog.getByTestId('import-outcome')).toContainText(
    'Imported 3,000 contacts, skipped 1 duplicate, 1 error.',
  );
  await expect(dialog.getByTestId('import-error-list')).toContainText(
    'Line 3002: Invalid email address "not-an-email"',
  );
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(c.getByTestId('book-count')).toHaveText('3,000 contacts');

  // A Windows-1252 CSV (what Excel saves as "CSV" in Western locales): detected, read right, and said.
  await c.getByRole('button', { name: `Import contacts into ${book.name}` }).click();
  dialog = page.getByRole('dialog', { name: 'Import Contacts' });
  await expect(dialog.getByLabel('Text encoding of a CSV')).toHaveValue('auto');
  await dialog.getByLabel('Contacts file (.csv or .xlsx)').setInputFiles({
    name: 'latin.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`Name,Email\nJosé Müller,jose@${tag}.example.com\n`, 'latin1'),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByTestId('import-encoding')).toHaveText(
    'Read as Western European (Windows-1252 / Latin-1) text.',
    { timeout: 30_000 },
  );
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(c.getByTestId('book-count')).toHaveText('3,001 contacts');

  // An import held open by this test: the card shows it, a reloaded page's dialog follows it live.
  const held = await heldImport(context, baseURL ?? '', book.id, 2000, `held-${tag}.example.com`);
  await page.reload();
  await expect(card(page, book.name).getByTestId('book-importing')).toContainText('rows read');
  await card(page, book.name)
    .getByRole('button', { name: `Import contacts into ${book.name}` })
    .click();
  dialog = page.getByRole('dialog', { name: 'Import Contacts' });
  const progress = dialog.getByTestId('import-progress');
  await expect(progress).toBeVisible();
  await expect(progress.getByTestId('import-rows-read')).toHaveText('2,000');
  await expect(progress.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await progress.getByRole('button', { name: 'Cancel import' }).click();
  await expect(dialog.getByTestId('import-outcome')).toContainText(
    'Import cancelled. No contacts were imported.',
    {
      timeout: 20_000,
    },
  );
  held.release();
  const answer = await held.answer;
  expect(answer.status).toBe(409);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(card(page, book.name).getByTestId('book-count')).toHaveText('3,001 contacts');

  // The export has every contact, the header first.
  const download = await page.request.get(`/api/admin/address-books/${book.id}/export`);
  expect(download.status()).toBe(200);
  const text = await download.text();
  expect(text.split('\n')[0]).toContain('Email,First Name,Last Name');
  expect(text.trim().split('\n')).toHaveLength(3002);
});

test('re-importing a worse file: the preview counts each choice, and the default keeps the saved phone', async ({
  page,
}) => {
  const tag = unique();
  const book = await createBook(page.request, `Re-import ${tag}`);
  const good = [
    ['email', 'firstName', 'lastName', 'company', 'phone'],
    [`ann@${tag}.example.com`, 'Ann', '', 'Acme Dental', '555-111-2222'],
    [`bob@${tag}.example.com`, 'Bob', 'Barr', '', ''],
  ];
  await importViaApi(page.request, book.id, good);
  const worse = csvOf([
    ['email', 'firstName', 'lastName', 'company', 'phone'],
    [`ann@${tag}.example.com`, '', 'Adams', '', '555'],
    [`bob@${tag}.example.com`, '', '', 'Barr Builders', '555-0200'],
    [`cy@${tag}.example.com`, 'Cy', '', '', ''],
  ]);
  await openAddressBooks(page);
  const c = card(page, book.name);
  await c.getByRole('button', { name: `Import contacts into ${book.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Contacts' });
  const choice = dialog.getByRole('group', { name: 'Contacts already in the address book' });
  // The default never loses a value.
  await expect(choice.getByRole('radio', { name: /Fill empty fields only/ })).toBeChecked();
  await dialog.getByLabel('Contacts file (.csv or .xlsx)').setInputFiles({
    name: 'worse.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(worse),
  });
  await dialog.getByRole('button', { name: 'Preview changes' }).click();
  await expect(dialog.getByTestId('import-preview')).toContainText(
    'Nothing is saved yet. 1 new contact will be added; 2 addresses are already in the book.',
  );
  await expect(dialog.getByTestId('import-merge-effect-fill')).toHaveText('This file changes 2 contacts.');
  await expect(dialog.getByTestId('import-merge-effect-overwrite')).toHaveText(
    'This file changes 2 contacts, 1 of them loses a saved value.',
  );
  await expect(dialog.getByTestId('import-merge-effect-skip')).toHaveText(
    'This file changes no existing contact.',
  );
  // The preview wrote nothing.
  let listed = await (
    await page.request.get(`/api/admin/email/contacts?addressBookId=${book.id}&limit=10`)
  ).json();
  expect(listed.contacts).toHaveLength(2);

  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByTestId('import-outcome')).toContainText(
    'Imported 1 contact, skipped 0 duplicates, 0 errors. Updated 2 existing contacts (fill empty fields only).',
    { timeout: 30_000 },
  );
  listed = await (
    await page.request.get(`/api/admin/email/contacts?addressBookId=${book.id}&limit=10`)
  ).json();
  const ann = listed.contacts.find((x: { email: string }) => x.email === `ann@${tag}.example.com`);
  expect(ann).toMatchObject({ phone: '555-111-2222', company: 'Acme Dental', lastName: 'Adams' });
  const bob = listed.contacts.find((x: { email: string }) => x.email === `bob@${tag}.example.com`);
  expect(bob).toMatchObject({ phone: '555-0200', company: 'Barr Builders' });
});

test('contacts tab: cards, paging, re-subscribe after a real unsubscribe, delete', async ({ page }) => {
  const tag = unique();
  const book = await createBook(page.request, `Contacts ${tag}`);
  await importViaApi(page.request, book.id, leads(60, `${tag}.example.com`));
  // A real unsubscribe: the mail half's tracking test mail carries an unsubscribe link.
  const target = `lead7@${tag}.example.com`;
  const sent = await page.request.post('/api/admin/email/test-tracking', { data: { email: target } });
  expect(sent.status()).toBe(200);
  const mail = await (await page.request.get(`/api/admin/email/outbox/${(await sent.json()).id}`)).json();
  const header = (mail.headers as Array<{ name: string; value: string }>).find(
    (h) => h.name.toLowerCase() === 'list-unsubscribe',
  );
  const token = /\/api\/unsubscribe\/([^>\s]+)>/.exec(header?.value ?? '')?.[1];
  expect(token).toBeTruthy();
  const unsub = await page.request.post(`/api/unsubscribe/${token}`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(unsub.status()).toBeLessThan(300);

  await page.goto('/admin/email');
  await expect(page.getByRole('heading', { name: 'Email Marketing', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Contacts \([\d,]+\)$/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.getByLabel('Address book', { exact: true }).selectOption(String(book.id));
  await expect(page.getByTestId('contacts-range')).toHaveText('Showing 1–50 of 60');
  const first = page.getByTestId('contact-card').first();
  await expect(first.getByRole('heading', { name: 'Lead60 Person' })).toBeVisible();
  await expect(first).toContainText(`lead60@${tag}.example.com`);
  await expect(first).toContainText('617-555-0060');
  await expect(first).toContainText('Active');
  await expect(first).toContainText(/Added \w{3} \d{1,2}, \d{4}/);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('contacts-range')).toHaveText('Showing 51–60 of 60');
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();

  const lead7 = page.getByTestId('contact-card').filter({ hasText: target });
  await expect(lead7).toContainText('Unsubscribed');
  await expect(lead7).toContainText(/Unsubscribed \w{3} \d{1,2}, \d{4}/);
  await lead7.getByRole('button', { name: `Re-subscribe ${target}` }).click();
  // Re-subscribing needs the contact's consent, confirmed first (issue 35).
  const resubscribe = page.getByRole('alertdialog', { name: 'Re-subscribe contact' });
  await resubscribe.getByRole('checkbox', { name: /has given consent/ }).check();
  await resubscribe.getByRole('button', { name: 'Re-subscribe' }).click();
  await expect(toasts(page).getByText('Contact re-subscribed')).toBeVisible();
  await expect(lead7).toContainText('Active');
  await expect(lead7.getByRole('button', { name: /Re-subscribe/ })).toHaveCount(0);

  // A filter starts again at the first page.
  await page.getByLabel('Status').selectOption('active');
  await expect(page.getByTestId('contacts-range')).toHaveText('Showing 1–50 of 60');
  const victim = page.getByTestId('contact-card').first();
  const email = (await victim.locator('a[href^="mailto:"]').textContent()) ?? '';
  await victim.getByRole('button', { name: `Delete ${email}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(toasts(page).getByText('Contact deleted')).toBeVisible();
  await expect(page.getByTestId('contacts-range')).toHaveText('Showing 1–50 of 59');
});

test('contact search: contains-search, the picker (select all capped at 50), details dialog', async ({
  page,
}) => {
  const tag = unique();
  const book = await createBook(page.request, `Search ${tag}`);
  await importViaApi(page.request, book.id, leads(120, `picker-${tag}.example.com`));
  await page.goto('/admin/email');
  await page.getByRole('tab', { name: 'Contact search' }).click();
  const search = page.getByPlaceholder('Search contacts by name, email, company...');
  await expect(search).toBeVisible();
  await search.fill(`PICKER-${tag}`);
  await expect(page.getByTestId('search-total')).toHaveText('120 contacts match');
  await expect(page.getByTestId('search-row')).toHaveCount(50);
  await page.getByLabel('Select All (50)').check();
  await expect(page.getByRole('button', { name: 'Add Selected (50)' })).toBeEnabled();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('search-row')).toHaveCount(20);
  await page.getByLabel('Select All (20)').check();
  await expect(page.getByRole('button', { name: 'Add Selected (70)' })).toBeVisible();
  await page.getByRole('button', { name: 'Add Selected (70)' }).click();
  await expect(toasts(page).getByText('70 contacts were added.')).toBeVisible();
  await expect(page.getByTestId('recipients-tray')).toContainText('Campaign recipients (70)');

  await search.fill(`lead42@picker-${tag}`);
  await expect(page.getByTestId('search-row')).toHaveCount(1);
  await page.getByRole('button', { name: `Details of lead42@picker-${tag}.example.com` }).click();
  const details = page.getByRole('dialog', { name: 'Lead42 Person' });
  const facts = details.getByTestId('contact-details');
  await expect(facts).toContainText('Active');
  await expect(facts).toContainText(`lead42@picker-${tag}.example.com`);
  await expect(facts).toContainText('617-555-0042');
  await expect(facts).toContainText('Dental clinic');
  await expect(facts).toContainText(book.name);
  await details.getByRole('button', { name: 'Add to Campaign' }).click();
  await expect(details.getByRole('button', { name: 'Added to Campaign' })).toBeDisabled();
  await details.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(page.getByTestId('recipients-tray')).toContainText('Campaign recipients (71)');
  await page.getByTestId('recipients-tray').getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByTestId('recipients-tray')).toContainText('Campaign recipients (0)');

  await search.fill(`nobody-${tag}`);
  await expect(page.getByTestId('search-empty')).toHaveText(`No contact matches “nobody-${tag}”.`);
});

test('contact edit: every field, tags and typed attributes, saved and shown; a taken address is refused; axe at 375 and 1280 px', async ({
  page,
}) => {
  const tag = unique();
  const book = await createBook(page.request, `Edit ${tag}`);
  await importViaApi(page.request, book.id, leads(2, `edit-${tag}.example.com`));
  await page.goto('/admin/email');
  await page.getByRole('tab', { name: 'Contact search' }).click();
  const search = page.getByPlaceholder('Search contacts by name, email, company...');
  await search.fill(`lead1@edit-${tag}`);
  await expect(page.getByTestId('search-row')).toHaveCount(1);
  await page.getByRole('button', { name: `Details of lead1@edit-${tag}.example.com` }).click();
  const dialog = page.getByRole('dialog', { name: 'Lead1 Person' });
  await dialog.getByRole('button', { name: 'Edit', exact: true }).click();
  const form = dialog.getByRole('form', { name: 'Edit contact' });
  await expect(form).toBeVisible();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
    expect(axe.violations, `axe at ${width} px`).toEqual([]);
  }

  // A taken address in the same book: refused, the form stays with the server's words.
  await form.getByLabel('Email').fill(`lead2@edit-${tag}.example.com`);
  await form.getByRole('button', { name: 'Save contact' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'Another contact in this address book already has this email address',
  );

  await form.getByLabel('Email').fill(`ada@edit-${tag}.example.com`);
  await form.getByLabel('First name').fill('Ada');
  await form.getByLabel('Company').fill(`Analytical ${tag}`);
  await form.getByLabel('Tags').fill('VIP, speaker');
  await form.getByRole('button', { name: 'Add attribute' }).click();
  await form.getByLabel('Attribute 1 name').fill('seats');
  await form.getByLabel('Attribute 1 type').selectOption('number');
  await form.getByLabel('Attribute 1 value').fill('12');
  await form.getByRole('button', { name: 'Add attribute' }).click();
  await form.getByLabel('Attribute 2 name').fill('renews');
  await form.getByLabel('Attribute 2 type').selectOption('boolean');
  await form.getByRole('button', { name: 'Save contact' }).click();

  const saved = page.getByRole('dialog', { name: 'Ada Person' });
  const facts = saved.getByTestId('contact-details');
  await expect(facts).toContainText(`ada@edit-${tag}.example.com`);
  await expect(facts).toContainText(`Analytical ${tag}`);
  await expect(facts).toContainText('vip, speaker');
  await expect(facts).toContainText('seats12');
  await expect(facts).toContainText('renewsYes');
  // Saved on the server, found by its new name.
  await saved.getByRole('button', { name: 'Close', exact: true }).last().click();
  await search.fill(`analytical ${tag}`);
  await expect(page.getByTestId('search-row')).toHaveCount(1);
  const res = await page.request.get(`/api/admin/email/contacts?q=${encodeURIComponent(`ada@edit-${tag}`)}`);
  const [c] = (await res.json()).contacts;
  expect(c).toMatchObject({
    firstName: 'Ada',
    tags: ['vip', 'speaker'],
    attributes: { seats: 12, renews: true },
  });

  // The editors' merge-field menu offers the attribute names in use.
  await page.getByRole('tab', { name: /^Campaigns/ }).click();
  await page.getByRole('button', { name: 'Manual Create' }).click();
  const create = page.getByRole('dialog', { name: 'Create Campaign' });
  await create.getByRole('button', { name: 'Insert merge field into Subject' }).click();
  const menu = create.getByTestId('merge-field-menu');
  await menu.getByLabel('Field').selectOption('attr.seats');
  await menu.getByLabel('Fallback').fill('a few');
  await expect(menu).toContainText('Inserts {{attr.seats|a few}}');
});

test('email page: seven tabs, the campaigns tab and honest analysis tabs, manual import into a chosen book', async ({
  page,
}) => {
  const tag = unique();
  const book = await createBook(page.request, `Manual ${tag}`);
  await page.goto('/admin/email');
  const tabs = page.getByRole('tablist', { name: 'Email marketing' }).getByRole('tab');
  await expect(tabs).toHaveText([
    /^Contacts/,
    'Contact search',
    'Segments',
    /^Campaigns \(\d+\)$/,
    'Analytics',
    'Advanced analytics',
    'Deliverability',
  ]);
  await page.getByRole('tab', { name: /^Campaigns/ }).click();
  await expect(page.getByRole('button', { name: 'Manual Create' })).toBeVisible();
  // The analysis tabs show their own content (their specs test it): a heading each.
  for (const [tab, heading] of [
    ['Analytics', 'Campaign analytics'],
    ['Advanced analytics', 'Advanced analytics'],
    ['Deliverability', 'Deliverability'],
  ] as const) {
    // The page's own tabs (Advanced analytics has sub-tabs, one also named Deliverability).
    await page
      .getByRole('tablist', { name: 'Email marketing' })
      .getByRole('tab', { name: tab, exact: true })
      .click();
    await expect(
      page
        .getByRole('tabpanel', { name: tab, exact: true })
        .getByRole('heading', { name: heading, exact: true }),
    ).toBeVisible();
  }
  await page.getByRole('tab', { name: /^Contacts/ }).click();
  await page.getByRole('button', { name: 'Import contacts' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Contacts' });
  await dialog.getByLabel('Address book', { exact: true }).selectOption(String(book.id));
  await dialog.getByRole('button', { name: 'Import Contacts' }).click();
  await expect(dialog.getByText('Please choose a CSV file.', { exact: true })).toBeVisible();
  await dialog.getByRole('tab', { name: 'Manual Entry' }).click();
  await dialog.getByRole('button', { name: 'Import Contacts' }).click();
  await expect(dialog.getByText('Please enter at least one contact.', { exact: true })).toBeVisible();
  await dialog
    .getByRole('textbox', { name: 'Contacts' })
    .fill(`ann@${tag}.example.com, Ann, Lee, Lee Dental, 617-555-0100\nbob@${tag}.example.com\nnot-an-email`);
  await dialog.getByRole('button', { name: 'Import Contacts' }).click();
  await expect(toasts(page).getByText('Imported 2 contacts, skipped 0 duplicates, 1 error.')).toBeVisible();
  await expect(dialog.getByTestId('import-error-list')).toContainText(
    'Line 3: Invalid email address "not-an-email"',
  );
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.getByLabel('Address book', { exact: true }).selectOption(String(book.id));
  await expect(page.getByTestId('contact-card')).toHaveCount(2);
  await expect(page.getByTestId('contact-card').filter({ hasText: `ann@${tag}.example.com` })).toContainText(
    'Lee Dental',
  );
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
});

test('at 375 px both screens fit, and their dialogs work', async ({ page }) => {
  const tag = unique();
  const book = await createBook(page.request, `Narrow ${tag}`, { keywords: 'a, b, c, d, e, f' });
  await importViaApi(page.request, book.id, leads(3, `narrow-${tag}.example.com`));
  await page.setViewportSize({ width: 375, height: 812 });
  await openAddressBooks(page);
  await noHorizontalScroll(page);
  const c = card(page, book.name);
  await c.scrollIntoViewIfNeeded();
  await expect(c.getByTestId('book-count')).toHaveText('3 contacts');
  await c.getByRole('button', { name: `Import contacts into ${book.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Contacts' });
  await expect(dialog.getByLabel('Contacts file (.csv or .xlsx)')).toBeVisible();
  await expect.poll(() => fitsWidth(dialog)).toBe(true);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/admin/email');
  await noHorizontalScroll(page);
  await page.getByRole('tab', { name: 'Contact search' }).click();
  await page.getByPlaceholder('Search contacts by name, email, company...').fill(`narrow-${tag}`);
  await expect(page.getByTestId('search-row')).toHaveCount(3);
  await noHorizontalScroll(page);
  await page.getByRole('button', { name: `Details of lead1@narrow-${tag}.example.com` }).click();
  const details = page.getByRole('dialog', { name: 'Lead1 Person' });
  await expect(details.getByRole('button', { name: 'Add to Campaign' })).toBeVisible();
  await expect.poll(() => fitsWidth(details)).toBe(true);
});
