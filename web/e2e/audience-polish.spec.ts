import type { APIRequestContext } from '@playwright/test';
import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * The audience screens as a marketer reads them (issue 35): the import dialog's header follows
 * the book's count, counted nouns read "1 error", Escape closes the dialog while the result's
 * toast shows; address-book cards keep "0 contacts" on one line at 1280 px and open their
 * contacts; re-subscribing asks for the contact's consent first.
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

const card = (page: Page, name: string) =>
  page.getByTestId('book-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

/** Imports a small file through the book's Import dialog and waits for its outcome. */
async function importThroughDialog(page: Page, name: string, csv: string) {
  await card(page, name)
    .getByRole('button', { name: `Import contacts into ${name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Import Contacts' });
  await dialog
    .getByLabel('Contacts file (.csv or .xlsx)')
    .setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByTestId('import-outcome')).toBeVisible();
  return dialog;
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test("the import dialog header follows the book's count", async ({ page }) => {
  const tag = unique();
  const book = await createBook(page.request, `Header ${tag}`);
  await page.goto('/admin/address-books');
  await card(page, book.name)
    .getByRole('button', { name: `Import contacts into ${book.name}` })
    .click();
  await expect(page.getByRole('dialog', { name: 'Import Contacts' })).toContainText(
    `Into "${book.name}" (0 contacts now).`,
  );
  await page.keyboard.press('Escape');
  const dialog = await importThroughDialog(
    page,
    book.name,
    `email,firstName\nann.${tag}@example.com,Ann\nben.${tag}@example.com,Ben\n`,
  );
  await expect(dialog).toContainText(`Into "${book.name}" (2 contacts now).`);
});

test('counted nouns read as a person writes them: "1 contact", "1 error", "1 row"', async ({ page }) => {
  const tag = unique();
  const book = await createBook(page.request, `Nouns ${tag}`);
  await page.goto('/admin/address-books');
  const dialog = await importThroughDialog(
    page,
    book.name,
    `email,firstName\nann.${tag}@example.com,Ann\nnot-an-email,Bad\n`,
  );
  const outcome = dialog.getByTestId('import-outcome');
  await expect(outcome).toContainText('Imported 1 contact, skipped 0 duplicates, 1 error.');
  await expect(outcome).toContainText('1 row not imported');
  await expect(outcome).not.toContainText(/\b1 (rows|errors|contacts)\b/);
  await expect(toasts(page)).toContainText('Imported 1 contact, skipped 0 duplicates, 1 error.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(card(page, book.name).getByTestId('book-count')).toHaveText('1 contact');
});

test('Escape closes the import dialog while the result and its toast show', async ({ page }) => {
  const tag = unique();
  const book = await createBook(page.request, `Escape ${tag}`);
  await page.goto('/admin/address-books');
  const dialog = await importThroughDialog(page, book.name, `email\nbo.${tag}@example.com\n`);
  await expect(toasts(page).getByText('Import Complete')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The toast is the dialog's news, not what Escape was for: it stays until its time.
  await expect(toasts(page).getByText('Import Complete')).toBeVisible();
});

test('address-book cards at 1280 px keep "0 contacts" on one line', async ({ page }) => {
  const tag = unique();
  const empty = await createBook(page.request, `Empty ${tag} with a rather long name`);
  await page.goto('/admin/address-books');
  const count = card(page, empty.name).getByTestId('book-count');
  await expect(count).toHaveText('0 contacts');
  const lines = await count.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return Math.round(r.height / Number.parseFloat(getComputedStyle(el).lineHeight));
  });
  expect(lines, '"0 contacts" on one line').toBe(1);
});

test('an address-book card opens its contacts (the Contacts tab, filtered to its book)', async ({ page }) => {
  const tag = unique();
  const empty = await createBook(page.request, `Nobody ${tag}`);
  const full = await createBook(page.request, `Full ${tag}`);
  const imported = await page.request.post('/api/admin/email/import-manual', {
    data: { contacts: `zoe.${tag}@example.com, Zoe, Ray`, addressBookId: full.id },
  });
  expect(imported.ok()).toBe(true);
  await page.goto('/admin/address-books');
  await card(page, full.name)
    .getByRole('link', { name: `Contacts of ${full.name}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/email\\?book=${full.id}$`));
  await expect(page.getByLabel('Address book', { exact: true })).toHaveValue(String(full.id));
  await expect(page.getByTestId('contact-card')).toHaveCount(1);
  await expect(page.getByTestId('contact-card')).toContainText(`zoe.${tag}@example.com`);
  // Its name opens them too.
  await page.goto('/admin/address-books');
  await card(page, empty.name).getByRole('link', { name: empty.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/email\\?book=${empty.id}$`));
  await expect(page.getByTestId('contacts-empty')).toHaveText('No contacts match these filters.');
});

test('re-subscribe asks for the contact’s consent first', async ({ page }) => {
  const tag = unique();
  const book = await createBook(page.request, `Consent ${tag}`);
  const target = `una.${tag}@example.com`;
  const imported = await page.request.post('/api/admin/email/import-manual', {
    data: { contacts: `${target}, Una, Moss`, addressBookId: book.id },
  });
  expect(imported.ok()).toBe(true);
  // A real unsubscribe, through the link of a tracked test mail.
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

  await page.goto(`/admin/email?book=${book.id}`);
  const contact = page.getByTestId('contact-card').filter({ hasText: target });
  await expect(contact).toContainText('Unsubscribed');
  await contact.getByRole('button', { name: `Re-subscribe ${target}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Re-subscribe contact' });
  await expect(confirm).toContainText('Consent is required');
  await expect(confirm.getByRole('button', { name: 'Keep unsubscribed' })).toBeFocused();
  const go = confirm.getByRole('button', { name: 'Re-subscribe' });
  await expect(go).toBeDisabled();
  await expectNoSeriousA11yViolations(page, 'the re-subscribe confirmation');
  // Kept: nothing changes.
  await confirm.getByRole('button', { name: 'Keep unsubscribed' }).click();
  await expect(confirm).toBeHidden();
  await expect(contact).toContainText('Unsubscribed');

  await contact.getByRole('button', { name: `Re-subscribe ${target}` }).click();
  await confirm.getByRole('checkbox', { name: /has given consent/ }).check();
  await expect(go).toBeEnabled();
  await go.click();
  await expect(toasts(page).getByText('Contact re-subscribed')).toBeVisible();
  await expect(contact).toContainText('Active');
});
