import type { ContactRequestPage } from '@parley/contracts';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/admin.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expect, type Locator, type Page, test } from './support/test.ts';

/**
 * The home page, the navigation bar and the contact form, against the real platform
 * (gateway + booking service; identity for the admin read-back of a stored contact request).
 */

const BOOKING_DIALOG = 'Book a 15-minute demo';
/** Height of the fixed nav bar, which is also each section's scroll margin. */
const NAV_HEIGHT = 64;

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

function toasts(page: Page): Locator {
  // The visible toast list, not Radix's screen-reader announcer (which repeats the text).
  return page.getByTestId('toasts');
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Events the page reported to window.dataLayer (no analytics script is loaded). */
async function tracked(page: Page): Promise<{ event: string; label?: string }[]> {
  return page.evaluate(() => (window.dataLayer ?? []) as { event: string; label?: string }[]);
}

/** Waits until the section has been scrolled to: its top sits just under the fixed nav bar. */
async function expectScrolledTo(page: Page, id: string): Promise<void> {
  await expect
    .poll(async () => page.locator(`#${id}`).evaluate((el) => Math.round(el.getBoundingClientRect().top)))
    .toBeGreaterThanOrEqual(NAV_HEIGHT - 2);
  await expect
    .poll(async () => page.locator(`#${id}`).evaluate((el) => Math.round(el.getBoundingClientRect().top)))
    .toBeLessThanOrEqual(NAV_HEIGHT + 2);
}

test('the home page renders every section in order with its anchors and the marketing claims', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Parley — AI voice agents that answer calls and book appointments');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('AI voice agents');

  const ids = await page.locator('main section[id]').evaluateAll((els) => els.map((el) => el.id));
  expect(ids).toEqual(['features', 'technology', 'testimonials', 'demos', 'pricing', 'about', 'contact']);
  // The hero comes first, the footer last.
  const hero = page.getByRole('region', { name: /AI voice agents that answer your calls/ });
  await expect(hero.getByRole('button', { name: 'Request Demo' })).toBeVisible();
  expect(
    await hero.evaluate(
      (el) =>
        !!(
          el.compareDocumentPosition(document.getElementById('features') as Node) &
          Node.DOCUMENT_POSITION_FOLLOWING
        ),
    ),
  ).toBe(true);
  const footer = page.getByRole('contentinfo');
  expect(
    await footer.evaluate(
      (el) =>
        !!(
          (document.getElementById('contact') as Node).compareDocumentPosition(el) &
          Node.DOCUMENT_POSITION_FOLLOWING
        ),
    ),
  ).toBe(true);

  // Every claim of the spec.
  const main = page.locator('main');
  for (const claim of ['98.7%', '50+', '99.9%', '1M+', '100+']) {
    await expect(main.getByText(claim, { exact: true }).first()).toBeVisible();
  }
  await expect(main.getByText(/partners with a voice AI platform provider/).first()).toBeVisible();
  const compliance = footer.getByRole('list', { name: 'Compliance' });
  await expect(compliance.getByRole('listitem')).toHaveText(['SOC 2 Type II', 'GDPR', 'ISO 27001']);

  // Pricing: the three plans exactly, Professional marked 'Most Popular'.
  const plans = page.getByTestId('pricing-plan');
  await expect(plans).toHaveCount(3);
  const expected = [
    ['Starter', '$299', ['Up to 1,000 minutes', '5 languages', 'Basic analytics', 'Email support']],
    [
      'Professional',
      '$899',
      ['Up to 5,000 minutes', '25+ languages', 'Advanced analytics', 'Workflow builder', 'Priority support'],
    ],
    [
      'Enterprise',
      'Custom',
      ['Unlimited minutes', 'All languages', 'White-label', 'Dedicated manager', '24/7 phone support'],
    ],
  ] as const;
  for (const [i, [name, price, items]] of expected.entries()) {
    const plan = plans.nth(i);
    await expect(plan.getByRole('heading', { level: 3 })).toHaveText(name);
    await expect(plan).toContainText(price);
    await expect(plan.getByRole('listitem')).toHaveText([...items]);
  }
  await expect(plans.nth(0)).toContainText('/month');
  await expect(plans.nth(1).getByText('Most Popular')).toBeVisible();
  await expect(page.getByText('Most Popular')).toHaveCount(1);

  // Demo scenarios link to every demo and offer the live call.
  const demos = page.locator('#demos');
  for (const [name, href] of [
    ['Use Cases & Examples', '/use-cases'],
    ['Simulated Call Demo', '/simulated-call-demo'],
    ['Voice Wave Demo', '/voice-wave-demo'],
    ['Voice Agent Platform', '/voice-agent-preview'],
  ] as const) {
    await expect(demos.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  await expect(demos.getByRole('button', { name: 'Try a Live Call' })).toBeVisible();

  // Contact: the form and the sales team's phone, email and hours.
  const contact = page.locator('#contact');
  for (const label of ['First Name', 'Last Name', 'Email', 'Company', 'Message']) {
    await expect(contact.getByRole('textbox', { name: new RegExp(`^${label}`) })).toBeVisible();
  }
  await expect(contact.getByRole('combobox', { name: 'Company Size' }).locator('option')).toHaveText([
    'Select company size',
    '1-50 employees',
    '51-200 employees',
    '201-1000 employees',
    '1000+ employees',
  ]);
  await expect(contact.getByText('Mon-Fri 9 AM-6 PM EST')).toBeVisible();
  await expect(contact.getByRole('link', { name: /^\+1 \(\d{3}\) \d{3}-\d{4}$/ })).toHaveAttribute(
    'href',
    /^tel:\+1\d{10}$/,
  );
  await expect(contact.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);

  // Footer: section links, Blog, Resources and the legal pages.
  for (const [name, href] of [
    ['About', '/#about'],
    ['Pricing', '/#pricing'],
    ['Blog', '/blog'],
    ['Voice Agent Platform', '/voice-agent-preview'],
    ['Use Cases & Examples', '/use-cases'],
    ['Privacy Policy', '/privacy-policy'],
    ['Terms & Conditions', '/terms-conditions'],
    ['App Privacy', '/app-privacy'],
  ] as const) {
    await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Parley`);

  await expectNoSeriousA11yViolations(page, '/');
});

test('on the home route the section links scroll smoothly; the bar turns opaque past 50 px; the logo returns to the top', async ({
  page,
}) => {
  await page.goto('/');
  const header = page.locator('header[data-scrolled]');
  await expect(header).toHaveAttribute('data-scrolled', 'false');

  for (const name of ['Features', 'Pricing', 'About', 'Contact']) {
    await mainNav(page).getByRole('link', { name, exact: true }).click();
    await expectScrolledTo(page, name.toLowerCase());
    // The address follows without a reload (same document) and without a history entry.
    await expect(page).toHaveURL(new RegExp(`/#${name.toLowerCase()}$`));
  }
  await expect(header).toHaveAttribute('data-scrolled', 'true');
  // Keyboard focus moved to the section, as following a native in-page link would.
  await expect(page.locator('#contact')).toBeFocused();
  const navigations = await tracked(page);
  expect(navigations.filter((e) => e.event === 'navigation').map((e) => e.label)).toEqual([
    'features',
    'pricing',
    'about',
    'contact',
  ]);

  // The scroll is smooth: right after the click the page is still on its way.
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await mainNav(page).getByRole('link', { name: 'Pricing', exact: true }).click();
  const firstY = await page.evaluate(() => window.scrollY);
  const target = await page
    .locator('#pricing')
    .evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  expect(firstY).toBeLessThan(target - NAV_HEIGHT);
  await expectScrolledTo(page, 'pricing');

  // Past 50 px the bar is more opaque; just below it, it is not.
  await page.evaluate(() => window.scrollTo({ top: 40, behavior: 'instant' }));
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  await page.evaluate(() => window.scrollTo({ top: 51, behavior: 'instant' }));
  await expect(header).toHaveAttribute('data-scrolled', 'true');
  await expect(header).toHaveClass(/bg-navy-950\/95/);

  await page.evaluate(() => window.scrollTo({ top: 2000, behavior: 'instant' }));
  await page.getByRole('link', { name: 'Parley home' }).first().click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(header).toHaveAttribute('data-scrolled', 'false');
});

test('from another route a section link goes to /#section and lands on it', async ({ page }) => {
  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await mainNav(page).getByRole('link', { name: 'Pricing', exact: true }).click();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expectScrolledTo(page, 'pricing');

  // Back to the blog, then Get Demo: home, at the contact section.
  await page.goBack();
  await expect(page).toHaveURL(/\/blog$/);
  await mainNav(page).getByRole('link', { name: 'Get Demo' }).click();
  await expect(page).toHaveURL(/\/#contact$/);
  await expect(page.locator('#contact').getByRole('textbox', { name: /^First Name/ })).toBeInViewport();

  // A shared link to a section works on a fresh load too (a new tab: a new document).
  const fresh = await page.context().newPage();
  await fresh.goto('/#about');
  await expectScrolledTo(fresh, 'about');
  await expect(fresh.locator('#about')).toBeFocused();
});

test('Get Demo on the home page scrolls to the contact section', async ({ page }) => {
  await page.goto('/');
  await mainNav(page).getByRole('link', { name: 'Get Demo' }).click();
  await expect(page).toHaveURL(/\/#contact$/);
  await expectScrolledTo(page, 'contact');
  await expect(page.locator('#contact').getByRole('textbox', { name: /^First Name/ })).toBeInViewport();
  await expect(page.locator('#contact')).toBeFocused();
  expect((await tracked(page)).some((e) => e.event === 'navigation' && e.label === 'get_demo')).toBe(true);
});

test('the Resources dropdown works with the keyboard and closes on Escape and outside click', async ({
  page,
}) => {
  await page.goto('/');
  const nav = mainNav(page);
  const button = nav.getByRole('button', { name: 'Resources' });
  const platform = nav.getByRole('link', { name: 'Voice Agent Platform' });
  const useCases = nav.getByRole('link', { name: 'Use Cases & Examples' });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(platform).toBeHidden();

  // Tab from Blog reaches the button; Enter opens; Tab and arrows walk the links.
  await nav.getByRole('link', { name: 'Blog', exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(platform).toBeVisible();
  await expect(platform).toHaveAttribute('href', '/voice-agent-preview');
  await expect(useCases).toHaveAttribute('href', '/use-cases');
  await page.keyboard.press('Tab');
  await expect(platform).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(useCases).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(platform).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(useCases).toBeFocused();

  // Escape closes it and returns focus to the button.
  await page.keyboard.press('Escape');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(platform).toBeHidden();
  await expect(button).toBeFocused();

  // Tabbing past the last link closes it.
  await page.keyboard.press('Space');
  await expect(platform).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Contact', exact: true })).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  // A click outside closes it.
  await button.click();
  await expect(platform).toBeVisible();
  await page.getByRole('heading', { level: 1 }).click();
  await expect(platform).toBeHidden();

  // ArrowDown on the button opens it at the first link; Enter follows it.
  await button.focus();
  await page.keyboard.press('ArrowDown');
  await expect(platform).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/voice-agent-preview$/);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the mobile menu opens, passes axe and closes after a choice or on Escape', async ({ page }) => {
    await page.goto('/');
    const nav = mainNav(page);
    const toggle = nav.getByRole('button', { name: 'Open menu' });
    const menu = page.locator('#mobile-menu');
    // The desktop links are folded away; Get Demo stays in the bar.
    await expect(nav.getByRole('button', { name: 'Resources' })).toBeHidden();
    await expect(nav.getByRole('link', { name: 'Get Demo' })).toBeVisible();
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await toggle.click();
    const close = nav.getByRole('button', { name: 'Close menu' });
    await expect(close).toHaveAttribute('aria-expanded', 'true');
    await expect(menu).toBeVisible();
    for (const name of [
      'About',
      'Features',
      'Pricing',
      'Blog',
      'Contact',
      'Voice Agent Platform',
      'Use Cases & Examples',
    ]) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    // The page does not scroll sideways at this width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page, '/ with the mobile menu open');

    await menu.getByRole('link', { name: 'Pricing', exact: true }).click();
    await expect(menu).toBeHidden();
    await expect(page).toHaveURL(/\/#pricing$/);
    await expectScrolledTo(page, 'pricing');

    // Escape closes it and gives focus back to the toggle.
    await toggle.click();
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();

    // A route choice closes it too.
    await toggle.click();
    await menu.getByRole('link', { name: 'Blog', exact: true }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});

test('each pricing plan button opens the booking modal and reports pricing_click', async ({ page }) => {
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: BOOKING_DIALOG });
  for (const plan of ['Starter', 'Professional', 'Enterprise']) {
    await page
      .locator('#pricing')
      .getByRole('button', { name: new RegExp(`${plan} plan$`) })
      .click();
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('button[data-date]')).toHaveCount(14);
    if (plan === 'Professional') await expectNoSeriousA11yViolations(page, '/ with the booking modal open');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  const clicks = (await tracked(page)).filter((e) => e.event === 'pricing_click').map((e) => e.label);
  expect(clicks).toEqual(['Starter', 'Professional', 'Enterprise']);
});

test('the contact form asks for the required fields and sends nothing until they are filled', async ({
  page,
}) => {
  const posts: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/contact') posts.push(req.url());
  });
  await page.goto('/');
  const contact = page.locator('#contact');
  const firstName = contact.getByRole('textbox', { name: /^First Name/ });
  await contact.getByRole('button', { name: 'Send Message' }).click();
  await expect(toasts(page).getByText('Missing Information')).toBeVisible();
  await expect(toasts(page).getByText('Please fill in all required fields.')).toBeVisible();
  await expect(firstName).toBeFocused();
  await expect(firstName).toHaveAttribute('aria-invalid', 'true');

  // Company size and message stay optional; a missing company still blocks.
  await firstName.fill('Grace');
  await contact.getByRole('textbox', { name: /^Last Name/ }).fill('Hopper');
  await contact.getByRole('textbox', { name: /^Email/ }).fill('grace@example.com');
  await contact.getByRole('button', { name: 'Send Message' }).click();
  await expect(toasts(page).getByText('Missing Information')).toBeVisible();
  await expect(contact.getByRole('textbox', { name: /^Company/ })).toBeFocused();
  await expect(firstName).not.toHaveAttribute('aria-invalid', 'true');
  expect(posts).toEqual([]);
});

test('a visitor sends a demo request: Submitting..., the toast, a cleared form, and the request is stored', async ({
  page,
}) => {
  await page.goto('/');
  const contact = page.locator('#contact');
  const email = `grace+${unique()}@example.com`;
  const fields = {
    firstName: contact.getByRole('textbox', { name: /^First Name/ }),
    lastName: contact.getByRole('textbox', { name: /^Last Name/ }),
    email: contact.getByRole('textbox', { name: /^Email/ }),
    company: contact.getByRole('textbox', { name: /^Company/ }),
    message: contact.getByRole('textbox', { name: 'Message' }),
  };
  await fields.firstName.fill('  Grace ');
  await fields.lastName.fill('Hopper');
  await fields.email.fill(email);
  await fields.company.fill('Compilers Inc');
  await contact.getByRole('combobox', { name: 'Company Size' }).selectOption('51-200');
  await fields.message.fill('We miss calls after 6 PM and would like the agent to book service visits.');

  // Hold the real request until the pending state has been seen, then let it through.
  const submit = contact.getByRole('button', { name: /Send Message|Submitting/ });
  await page.route('**/api/contact', async (route) => {
    await expect(submit).toHaveText('Submitting...');
    await expect(submit).toBeDisabled();
    await route.continue();
  });
  const requestSent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/contact'));
  const response = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith('/api/contact'),
  );
  await submit.click();
  const request = await requestSent;
  expect(request.headers()['content-type']).toContain('application/json');
  expect(request.postDataJSON()).toEqual({
    firstName: 'Grace',
    lastName: 'Hopper',
    email,
    company: 'Compilers Inc',
    companySize: '51-200',
    message: 'We miss calls after 6 PM and would like the agent to book service visits.',
  });
  expect((await response).status()).toBe(201);

  await expect(toasts(page).getByText('Demo Request Submitted')).toBeVisible();
  await expect(toasts(page).getByText("Thank you! We'll get back to you within 2 hours.")).toBeVisible();
  for (const field of Object.values(fields)) await expect(field).toHaveValue('');
  await expect(contact.getByRole('combobox', { name: 'Company Size' })).toHaveValue('');
  await expect(submit).toHaveText('Send Message');
  const events = (await tracked(page)).map((e) => e.event);
  expect(events).toContain('form_submit');
  expect(events).toContain('contact_form');

  // The request is really stored: an admin reads it back through the API.
  const login = await page.request.post('/api/admin/login', {
    data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(login.status(), await login.text()).toBe(200);
  const list = await page.request.get('/api/contact-requests?limit=500');
  expect(list.status()).toBe(200);
  const { items } = (await list.json()) as ContactRequestPage;
  const stored = items.find((i) => i.email === email);
  expect(stored).toMatchObject({
    firstName: 'Grace',
    lastName: 'Hopper',
    company: 'Compilers Inc',
    companySize: '51-200',
    message: 'We miss calls after 6 PM and would like the agent to book service visits.',
  });
});

test('an unknown route shows the 404 page with a way home', async ({ page }) => {
  await page.goto(`/no-such-page-${unique()}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await expect(page).toHaveTitle(/Page Not Found/);
  await expectNoSeriousA11yViolations(page, '404');
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('AI voice agents');
});
