import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * Segments end to end against the real platform (issue 31, "Contacts you can work with"): a
 * rule written in the editor with its live count (the server's words for an unfinished rule),
 * saved and listed with its count, a name in use refused, edited; the campaign dialog saves it as
 * a draft's audience and the send dialog counts it with a book beside it (once per address); the
 * segment deleted through its confirmation. axe at 375 and 1280 px on the screen and the editor.
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

/** Tags every contact with this address (in any book); answers how many there were. */
async function tagContacts(request: APIRequestContext, email: string, tags: string[]): Promise<number> {
  const res = await request.get(`/api/admin/email/contacts?limit=50&offset=0&q=${encodeURIComponent(email)}`);
  expect(res.status()).toBe(200);
  const { contacts } = (await res.json()) as { contacts: Array<{ id: number; email: string }> };
  const exact = contacts.filter((c) => c.email === email);
  for (const c of exact) {
    const patched = await request.patch(`/api/admin/email/contacts/${c.id}`, { data: { tags } });
    expect(patched.status(), await patched.text()).toBe(200);
  }
  return exact.length;
}

async function createCampaign(request: APIRequestContext, name: string): Promise<{ id: number }> {
  const res = await request.post('/api/admin/email/campaigns', {
    data: {
      name,
      subject: `Segment news ${name}`,
      htmlContent: '<p>Hello from Parley</p>',
      fromName: 'Parley Team',
      fromEmail: 'team@parley.test',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number };
}

/** axe-core on one part of the page at both widths: no violation at all. */
async function expectNoViolations(page: Page, selector: string, what: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const axe = await new AxeBuilder({ page }).include(selector).analyze();
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `axe on ${what} at ${width} px`,
    ).toEqual([]);
  }
}

const segmentCard = (page: Page, name: string) =>
  page.getByTestId('segment-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

const emailTab = (page: Page, name: RegExp | string) =>
  page.getByRole('tablist', { name: 'Email marketing' }).getByRole('tab', { name });

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('segments: written with a live count, saved, listed, edited, chosen as a campaign audience, deleted; axe at 375 and 1280 px', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = unique();
  const vip = `vip-${tag}`;
  const company = `Dental ${tag}`;
  const main = await createBook(page.request, `Segment seed ${tag}`);
  const twin = await createBook(page.request, `Segment twin ${tag}`);
  await importContacts(page.request, main.id, [
    `ann.${tag}@example.com, Ann, Arbor, ${company} Care`,
    `ben.${tag}@example.com, Ben, Burns, ${company} Group`,
    `cy.${tag}@example.com, Cy, Cole, ${company} Care`,
    `di.${tag}@example.com, Di, Dane, Law ${tag}`,
  ]);
  // Ann is in both books: two contacts, one recipient.
  await importContacts(page.request, twin.id, [`ann.${tag}@example.com, Ann, Arbor, ${company} Care`]);
  expect(await tagContacts(page.request, `ann.${tag}@example.com`, [vip])).toBe(2);
  expect(await tagContacts(page.request, `ben.${tag}@example.com`, [vip, 'speaker'])).toBe(1);
  expect(await tagContacts(page.request, `di.${tag}@example.com`, [vip])).toBe(1);

  await page.goto('/admin/email');
  await emailTab(page, 'Segments').click();
  await expect(page.getByRole('heading', { name: 'Segments', level: 2 })).toBeVisible();
  await expectNoViolations(page, 'main', 'the Segments screen');

  // A new segment starts with a condition without its value: the server's words, not a count.
  await page.getByRole('button', { name: 'New segment' }).click();
  const editor = page.getByRole('dialog', { name: 'New segment' });
  const live = editor.getByTestId('segment-live-count');
  await expect(live).toHaveText('This condition needs a value');
  await expect(toasts(page).getByText('This condition needs a value')).toHaveCount(0);
  const name = `Dental VIPs ${tag}`;
  await editor.getByLabel('Name', { exact: true }).fill(name);
  await expect(editor.getByLabel('Condition 1 field')).toHaveValue('company');
  await expect(editor.getByLabel('Condition 1 operator')).toHaveValue('contains');
  await editor.getByLabel('Condition 1 value').fill(company.toLowerCase());
  await expect(live).toHaveText('3 recipients (4 contacts match)');
  await editor.getByRole('button', { name: 'Add condition' }).click();
  await editor.getByLabel('Condition 2 field').selectOption('tag');
  await expect(editor.getByLabel('Condition 2 operator')).toHaveValue('has');
  // A tag the schema would refuse outright is stopped here, saying which condition it is.
  await expect(live).toHaveText('Condition 2: This condition needs a value');
  await editor.getByLabel('Condition 2 value').fill(vip.toUpperCase());
  await expect(live).toHaveText('2 recipients (3 contacts match)');
  await expectNoViolations(page, '[role="dialog"]', 'the segment editor');
  await editor.getByRole('button', { name: 'Save segment' }).click();
  await expect(toasts(page).getByText('Segment saved')).toBeVisible();
  await expect(editor).toBeHidden();

  const card = segmentCard(page, name);
  await expect(card.getByTestId('segment-rule')).toHaveText(
    `Company contains “${company.toLowerCase()}” and has tag “${vip}”`,
  );
  await expect(card.getByTestId('segment-count')).toHaveText('2 recipients · 3 contacts');

  // A name in use: the server's words, and the editor stays open.
  await page.getByRole('button', { name: 'New segment' }).click();
  const again = page.getByRole('dialog', { name: 'New segment' });
  await again.getByLabel('Name', { exact: true }).fill(name.toUpperCase());
  await again.getByLabel('Condition 1 field').selectOption('status');
  await again.getByRole('button', { name: 'Save segment' }).click();
  await expect(again.getByText('Another segment already has this name', { exact: true })).toBeVisible();
  await expect(again.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toBeHidden();
  await expect(segmentCard(page, name.toUpperCase())).toHaveCount(0);
  await expect(segmentCard(page, name)).toHaveCount(1);

  // Edit: any of the two, under a new name.
  await card.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit segment' });
  await expect(edit.getByLabel('Name', { exact: true })).toHaveValue(name);
  await expect(edit.getByLabel('Condition 2 value')).toHaveValue(vip);
  await expect(edit.getByTestId('segment-live-count')).toHaveText('2 recipients (3 contacts match)');
  await edit.getByLabel('Match', { exact: true }).selectOption('any');
  await expect(edit.getByTestId('segment-live-count')).toHaveText('4 recipients (5 contacts match)');
  const renamed = `Dental or VIP ${tag}`;
  await edit.getByLabel('Name', { exact: true }).fill(renamed);
  await edit.getByRole('button', { name: 'Save segment' }).click();
  await expect(edit).toBeHidden();
  const edited = segmentCard(page, renamed);
  await expect(edited.getByTestId('segment-rule')).toHaveText(
    `Company contains “${company.toLowerCase()}” or has tag “${vip}”`,
  );
  await expect(edited.getByTestId('segment-count')).toHaveText('4 recipients · 5 contacts');
  await expect(segmentCard(page, name)).toHaveCount(0);
  const segments = (await (await page.request.get('/api/admin/email/segments')).json()) as {
    segments: Array<{ id: number; name: string }>;
  };
  const saved = segments.segments.find((s) => s.name === renamed);
  expect(saved).toBeTruthy();

  // The campaign dialog saves the segment as the draft's audience; the card names it.
  const campaign = `Segment send ${tag}`;
  const { id: campaignId } = await createCampaign(page.request, campaign);
  await emailTab(page, /^Campaigns/).click();
  const campaignCard = page
    .getByTestId('campaign-card')
    .filter({ has: page.getByRole('heading', { name: campaign, exact: true }) });
  await expect(campaignCard.getByTestId('campaign-targets')).toHaveText('To: no recipients chosen yet');
  await campaignCard.getByRole('button', { name: `Edit ${campaign}` }).click();
  const form = page.getByRole('dialog', { name: 'Edit Campaign' });
  await form
    .getByTestId('target-segments')
    .getByRole('checkbox', { name: new RegExp(renamed) })
    .check();
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(form).toBeHidden();
  await expect(campaignCard.getByTestId('campaign-targets')).toHaveText(`To: segment “${renamed}”`);
  const stored = await (await page.request.get(`/api/admin/email/campaigns/${campaignId}`)).json();
  expect(stored.targetSegmentIds).toEqual([saved?.id]);

  // The send dialog starts from it and counts it: 4 recipients. The twin book alone is Ann; with
  // the segment beside it, Ann is counted once (4, not 5).
  await campaignCard.getByRole('button', { name: `Launch Campaign ${campaign}` }).click();
  const send = page.getByRole('dialog', { name: 'Send Campaign' });
  const segmentBox = send.getByTestId('target-segments').getByRole('checkbox', { name: new RegExp(renamed) });
  await expect(segmentBox).toBeChecked();
  const recipients = send.getByTestId('send-recipients');
  const testMode = '(a test-mode send goes to the test addresses only).';
  await expect(recipients).toHaveText(`This audience: 4 recipients ${testMode}`);
  await send.getByRole('checkbox', { name: new RegExp(twin.name) }).check();
  await segmentBox.uncheck();
  await expect(recipients).toHaveText(`This audience: 1 recipient ${testMode}`);
  await segmentBox.check();
  await expect(recipients).toHaveText(`This audience: 4 recipients ${testMode}`);
  await send.getByRole('radio', { name: /Live/ }).check();
  await expect(recipients).toHaveText('Sends to 4 recipients.');
  await send.getByRole('button', { name: 'Cancel' }).click();
  await expect(send).toBeHidden();

  // Deleted through its confirmation, which names it; the draft's card says its segment is gone.
  await emailTab(page, 'Segments').click();
  await edited.getByRole('button', { name: `Delete ${renamed}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete segment' });
  await expect(confirm).toContainText(`Delete the segment "${renamed}"?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toasts(page).getByText('Segment deleted')).toBeVisible();
  await expect(edited).toHaveCount(0);
  expect((await page.request.get(`/api/admin/email/segments/${saved?.id}`)).status()).toBe(404);
  await emailTab(page, /^Campaigns/).click();
  await expect(campaignCard.getByTestId('campaign-targets')).toHaveText('To: a deleted segment');
});
