import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * AI writing end to end against the real platform (no OPENAI_API_KEY: the local writer): the
 * generator's required prompt, a demo-booking campaign generated, reviewed in the create
 * dialog, its subject optimized for urgency and saved as a draft; the optimizer on HTML; and
 * Regenerate with AI from a draft's card into its edit dialog.
 */

async function openCampaigns(page: Page) {
  await page.goto('/admin/email');
  await page.getByRole('tab', { name: /^Campaigns/ }).click();
  await expect(page.getByRole('button', { name: 'AI Generate' })).toBeVisible();
}

const card = (page: Page, name: string) =>
  page.getByTestId('campaign-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('AI Generate: prompt required, a demo-booking campaign used, its subject optimized, saved as a draft', async ({
  page,
}) => {
  const tag = unique();
  await openCampaigns(page);
  await page.getByRole('button', { name: 'AI Generate' }).click();
  const generator = page.getByRole('dialog', { name: 'AI Campaign Generator' });
  await expect(generator.getByRole('checkbox', { name: 'Include image' })).toBeChecked();

  // The prompt is required, with the spec's text.
  await generator.getByRole('button', { name: 'Generate' }).click();
  await expect(
    generator.getByText('Please enter a campaign prompt to generate content.', { exact: true }),
  ).toBeVisible();
  await expect(
    toasts(page).getByText('Please enter a campaign prompt to generate content.', { exact: true }),
  ).toBeVisible();

  await generator
    .getByLabel('Campaign prompt')
    .fill(`Invite dental clinics to book a demo of our AI receptionist ${tag}`);
  await generator.getByLabel('Goal').selectOption({ label: 'Demo booking' });
  await generator.getByRole('button', { name: 'Generate' }).click();
  const result = generator.getByTestId('generated-campaign');
  await expect(result).toBeVisible();
  await expect(generator.getByTestId('generated-provider')).toHaveText(
    'The local writer (no AI service configured)',
  );
  const name = (await generator.getByTestId('generated-name').textContent()) ?? '';
  expect(name).toMatch(new RegExp(`^AI Receptionist ${tag} – Demo booking$`, 'i'));
  const subject = ((await generator.getByTestId('generated-subject').textContent()) ?? '')
    .replace(/\s*\(\d+ characters\)$/, '')
    .trim();
  expect(subject.length).toBeGreaterThan(5);
  // The rendered mail: the sample contact's name, the booking button, the header image.
  const preview = generator.getByTestId('generated-preview').contentFrame();
  await expect(preview.getByText('Hi John,')).toBeVisible();
  await expect(preview.getByRole('link', { name: 'Book your demo' })).toHaveAttribute(
    'href',
    /\/book-demo\?utm_source=email/,
  );
  const header = preview.locator('img[src$="/email/headers/demo_booking.png"]');
  await expect(header).toHaveCount(1);
  // The header image is a real PNG on the public origin.
  const image = await page.request.get((await header.getAttribute('src')) ?? '');
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');

  await generator.getByRole('button', { name: 'Use this campaign' }).click();
  const create = page.getByRole('dialog', { name: 'Create Campaign' });
  await expect(create.getByLabel('Campaign name')).toHaveValue(name);
  await expect(create.getByLabel('Subject')).toHaveValue(subject);
  await expect(create.getByLabel('HTML content')).toHaveValue(/href="\{\{unsubscribeUrl\}\}"/);
  await expect(create.getByLabel('Text content')).toHaveValue(/Book your demo: http/);
  await expect(create.getByLabel('From email')).toHaveValue(/@/);

  // The optimizer on the subject, goal urgency: before and after, the changes, Apply.
  await create.getByRole('button', { name: 'Optimize subject' }).click();
  const optimizer = page.getByRole('dialog', { name: 'Optimize the subject' });
  await optimizer.getByLabel('Optimization goal').selectOption({ label: 'Urgency' });
  await optimizer.getByRole('button', { name: 'Optimize' }).click();
  await expect(optimizer.getByTestId('optimizer-before')).toHaveText(subject);
  const after = optimizer.getByTestId('optimizer-after');
  await expect(after).toHaveText(/ — ends (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day$/);
  const urgent = (await after.textContent()) ?? '';
  await expect(optimizer.getByTestId('optimizer-changes')).toContainText('a week from today');
  await optimizer.getByRole('button', { name: 'Apply' }).click();
  await expect(optimizer).toBeHidden();
  await expect(create.getByLabel('Subject')).toHaveValue(urgent);

  await create.getByRole('button', { name: 'Create Campaign' }).click();
  await expect(toasts(page).getByText('Campaign created')).toBeVisible();
  await expect(create).toBeHidden();
  const c = card(page, name);
  await expect(c.getByTestId('campaign-status')).toHaveText('Draft');
  await expect(c.getByTestId('campaign-subject')).toHaveText(urgent);
});

test('the optimizer needs content first, and rewrites HTML with before, after and its changes', async ({
  page,
}) => {
  await openCampaigns(page);
  await page.getByRole('button', { name: 'Manual Create' }).click();
  const create = page.getByRole('dialog', { name: 'Create Campaign' });
  await create.getByRole('button', { name: 'Optimize HTML' }).click();
  await expect(toasts(page).getByText('Please add HTML content first')).toBeVisible();
  await create.getByRole('button', { name: 'Optimize subject' }).click();
  await expect(toasts(page).getByText('Please add subject content first')).toBeVisible();

  await create
    .getByLabel('HTML content')
    .fill(
      '<p>Hello,</p><p>We are really very excited: in order to help your practice, our agent is able to answer every call.</p><p><a href="https://example.com/book-demo">Learn more</a></p>',
    );
  await create.getByLabel('Text content').fill('Old text version');
  await create.getByRole('button', { name: 'Optimize HTML' }).click();
  const optimizer = page.getByRole('dialog', { name: 'Optimize the HTML content' });
  await optimizer.getByLabel('Optimization goal').selectOption({ label: 'Clarity' });
  await optimizer.getByRole('button', { name: 'Optimize' }).click();
  await expect(optimizer.getByTestId('optimizer-changes')).toContainText('“in order to” → “to”');
  await expect(
    optimizer
      .getByTestId('optimizer-before')
      .contentFrame()
      .getByText(/really very excited/),
  ).toBeVisible();
  await expect(
    optimizer
      .getByTestId('optimizer-after')
      .contentFrame()
      .getByText('We are excited: to help your practice, our agent can answer every call.'),
  ).toBeVisible();
  await optimizer.getByRole('button', { name: 'Apply' }).click();
  await expect(create.getByLabel('HTML content')).toHaveValue(/our agent can answer every call/);
  await expect(create.getByLabel('Text content')).toHaveValue(/our agent can answer every call/);
});

test('Regenerate with AI from a draft’s card fills its edit dialog', async ({ page }) => {
  const tag = unique();
  const name = `Clinic outreach ${tag}`;
  const res = await page.request.post('/api/admin/email/campaigns', {
    data: {
      name,
      subject: 'Our AI receptionist for clinics',
      fromName: 'Parley Team',
      fromEmail: 'team@parley.test',
      htmlContent: '<p>Old content</p>',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await openCampaigns(page);
  await card(page, name)
    .getByRole('button', { name: `Regenerate with AI ${name}` })
    .click();
  const generator = page.getByRole('dialog', { name: 'Regenerate with AI' });
  await expect(generator.getByLabel('Campaign prompt')).toHaveValue(
    `${name} — Our AI receptionist for clinics`,
  );
  await generator.getByLabel('Goal').selectOption({ label: 'Product launch' });
  await generator.getByRole('button', { name: 'Generate' }).click();
  const subject = ((await generator.getByTestId('generated-subject').textContent()) ?? '')
    .replace(/\s*\(\d+ characters\)$/, '')
    .trim();
  await generator.getByRole('button', { name: 'Use this campaign' }).click();

  // A draft: its own edit dialog, its name kept, the new subject and content in.
  const edit = page.getByRole('dialog', { name: 'Edit Campaign' });
  await expect(edit.getByLabel('Campaign name')).toHaveValue(name);
  await expect(edit.getByLabel('Subject')).toHaveValue(subject);
  await expect(edit.getByLabel('HTML content')).toHaveValue(/agent-platform\?utm_source=email/);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toasts(page).getByText('Campaign updated')).toBeVisible();
  await expect(card(page, name).getByTestId('campaign-subject')).toHaveText(subject);
});
