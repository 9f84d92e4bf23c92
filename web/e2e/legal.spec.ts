import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expect, type Page, test } from './support/test.ts';

/** The legal pages: reachable from the footer, marked as templates, with their key commitments. */

const PAGES = [
  {
    path: '/privacy-policy',
    link: 'Privacy Policy',
    heading: 'Privacy Policy',
    phrases: [
      'admin session cookie',
      'We use no tracking, advertising or analytics cookies unless an analytics service is configured.',
      'EEA, UK and Swiss residents (GDPR)',
      'California residents (CCPA as amended by the CPRA)',
      'We do not sell your personal information',
    ],
  },
  {
    path: '/terms-conditions',
    link: 'Terms & Conditions',
    heading: 'Terms & Conditions',
    phrases: ["30 days' notice", '$299 per month', '$899 per month', 'Acceptable use and calling laws'],
  },
  {
    path: '/app-privacy',
    link: 'App Privacy',
    heading: 'App Privacy',
    phrases: [
      'Effective date: 19 December 2024',
      'Call recordings',
      'Subprocessors',
      'Retention and deletion',
    ],
  },
] as const;

async function expectTemplateNotice(page: Page): Promise<void> {
  const note = page.getByRole('note', { name: 'Template notice' });
  await expect(note).toBeVisible();
  await expect(note).toContainText('Template — to be reviewed by counsel.');
  // The notice comes before the document itself.
  expect(
    await note.evaluate(
      (el) =>
        !!(
          el.compareDocumentPosition(document.querySelector('h1') as Node) & Node.DOCUMENT_POSITION_FOLLOWING
        ),
    ),
  ).toBe(true);
}

for (const doc of PAGES) {
  test(`${doc.path} renders its text, marked as a template, and passes axe`, async ({ page }) => {
    // Reached the way a visitor would: from the footer of the home page.
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: doc.link, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${doc.path}$`));
    await expect(page.getByRole('heading', { level: 1, name: doc.heading })).toBeVisible();
    await expect(page).toHaveTitle(`${doc.heading} · Parley`);
    // A route change starts at the top of the new page.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expectTemplateNotice(page);
    await expect(page.getByText(/^Effective date: /)).toBeVisible();
    const article = page.getByRole('article');
    for (const phrase of doc.phrases) await expect(article.getByText(phrase).first()).toBeVisible();

    // The contents list links to every numbered section.
    const toc = page.getByRole('navigation', { name: 'Contents' });
    const entries = await toc.getByRole('link').count();
    expect(entries).toBeGreaterThanOrEqual(10);
    await expect(article.locator('section h2')).toHaveCount(entries);

    await expectNoSeriousA11yViolations(page, doc.path);
  });
}

test('the terms give 30 days notice for both price and terms changes', async ({ page }) => {
  await page.goto('/terms-conditions');
  await expect(page.getByRole('region', { name: /Price changes/ })).toContainText("at least 30 days' notice");
  await expect(page.getByRole('region', { name: /Changes to these terms/ })).toContainText(
    "at least 30 days' notice",
  );
});
