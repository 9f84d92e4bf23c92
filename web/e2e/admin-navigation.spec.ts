import { ADMIN_EMAIL, ADMIN_PASSWORD, signInAsAdmin, unique } from './support/admin.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expect, type Locator, type Page, test } from './support/test.ts';

/**
 * The back office's one navigation (issue #17, spec §2 "Console" and "Sidebar"): every entry
 * in the spec's order on every admin screen, highlighted by path (bare /admin: Settings), the
 * console's old ?section= links sent to the sections' routes, and a keyboard drawer at 375 px.
 */

const ALL_ENTRIES = [
  'Dashboard',
  'Bookings',
  'Admin Users',
  'AI Blog',
  'Voice AI',
  'Email Marketing',
  'Newsletters',
  'Address Books',
  'Settings',
];

const nav = (page: Page): Locator => page.getByRole('navigation', { name: 'Admin' });

/** The label of the one highlighted entry (and checks there is exactly one). */
async function expectHighlighted(page: Page, label: string): Promise<void> {
  const current = nav(page).locator('[aria-current="page"]');
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText(label);
}

/** A plain admin (role admin) who has already chosen a password, signed in on `page`. */
async function signInAsPlainAdmin(page: Page): Promise<void> {
  const email = `plain+${unique()}@parley.test`;
  const temporary = 'temporary-pass-42';
  // page.request shares the page's cookies: the super admin creates the account.
  const api = page.request;
  const login = await api.post('/api/admin/login', {
    data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const created = await api.post('/api/admin/users', {
    data: { email, firstName: 'Ada', lastName: 'Plain', role: 'admin', password: temporary },
  });
  expect(created.status(), await created.text()).toBe(201);
  // The new admin signs in (the new session replaces the super admin's) and chooses a password (a first sign-in must change it).
  expect((await api.post('/api/admin/login', { data: { email, password: temporary } })).status()).toBe(200);
  const changed = await api.post('/api/admin/change-password', {
    data: { currentPassword: temporary, newPassword: 'plain-admin-password-1' },
  });
  expect(changed.status(), await changed.text()).toBe(200);
}

test('a super admin sees every entry in the spec order, highlighted by path', async ({ page }) => {
  await signInAsAdmin(page);
  await expect(nav(page).getByRole('link')).toHaveText(ALL_ENTRIES);

  // Bare /admin highlights Settings, and opens it.
  await expect(page).toHaveURL(/\/admin$/);
  await expectHighlighted(page, 'Settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

  const screens: [path: string, entry: string, heading: string | RegExp][] = [
    ['/admin/main', 'Dashboard', 'Dashboard'],
    ['/admin/dashboard', 'Dashboard', 'Dashboard'],
    ['/bookings-admin', 'Bookings', 'Booking Management'],
    ['/admin/bookings', 'Bookings', 'Booking Management'],
    ['/admin/users', 'Admin Users', 'User Management'],
    ['/blog-admin', 'AI Blog', 'Blog Management'],
    ['/admin/blog', 'AI Blog', 'AI Blog'],
    ['/admin/voice-ai', 'Voice AI', 'Voice AI Management'],
    ['/admin/email', 'Email Marketing', /Email/],
    ['/admin/email/sent', 'Email Marketing', /Sent/],
    ['/admin/newsletters', 'Newsletters', /Newsletters/],
    ['/admin/address-books', 'Address Books', /Address Books/],
    ['/admin/settings', 'Settings', 'Settings'],
  ];
  for (const [path, entry, heading] of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 }).first(), path).toBeVisible();
    await expectHighlighted(page, entry);
    // The same navigation on every screen.
    await expect(nav(page).getByRole('link'), path).toHaveText(ALL_ENTRIES);
  }
  await expectNoSeriousA11yViolations(page, 'the admin navigation');
});

test('a plain admin has no Admin Users entry', async ({ page }) => {
  await signInAsPlainAdmin(page);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(nav(page).getByRole('link')).toHaveText(ALL_ENTRIES.filter((e) => e !== 'Admin Users'));
  await expectHighlighted(page, 'Dashboard');
});

test("the menu moves between the console and the other screens; the console's old links still work", async ({
  page,
}) => {
  await signInAsAdmin(page);
  await nav(page).getByRole('link', { name: 'Voice AI' }).click();
  await expect(page).toHaveURL(/\/admin\/voice-ai$/);
  await expect(page.getByRole('heading', { name: 'Voice AI Management', level: 1 })).toBeVisible();
  await expectHighlighted(page, 'Voice AI');
  // The screen takes the focus, for keyboard and screen-reader users.
  await expect(page.getByRole('main')).toBeFocused();

  await nav(page).getByRole('link', { name: 'Email Marketing' }).click();
  await expect(page).toHaveURL(/\/admin\/email$/);
  await expectHighlighted(page, 'Email Marketing');
  await nav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: /View all/ }).click();
  await expect(page).toHaveURL(/\/bookings-admin$/);
  await expectHighlighted(page, 'Bookings');

  // The console's sections were ?section= views of /admin: each link lands on its route.
  const sections: [section: string, url: RegExp, entry: string][] = [
    ['dashboard', /\/admin\/dashboard$/, 'Dashboard'],
    ['bookings', /\/admin\/bookings$/, 'Bookings'],
    ['users', /\/admin\/users$/, 'Admin Users'],
    ['voice', /\/admin\/voice-ai$/, 'Voice AI'],
    ['blog', /\/admin\/blog$/, 'AI Blog'],
    ['settings', /\/admin\/settings$/, 'Settings'],
  ];
  for (const [section, url, entry] of sections) {
    await page.goto(`/admin?section=${section}`);
    await expect(page, section).toHaveURL(url);
    await expectHighlighted(page, entry);
  }
  // Back goes past the redirect, not into it.
  await page.goBack();
  await expect(page).toHaveURL(/\/admin\/blog$/);
});

test('at 375 px the menu is a drawer that the keyboard opens, uses and closes', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signInAsAdmin(page);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  const toggle = page.getByRole('button', { name: 'Open menu' });
  await expect(nav(page)).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // Enter opens it; the focus goes to its first entry; every entry is reachable.
  await toggle.focus();
  await page.keyboard.press('Enter');
  const close = page.getByRole('button', { name: 'Close menu' });
  await expect(close).toHaveAttribute('aria-expanded', 'true');
  await expect(nav(page)).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toBeFocused();
  for (const label of ALL_ENTRIES)
    await expect(nav(page).getByRole('link', { name: label })).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeInViewport();
  await expectHighlighted(page, 'Dashboard');
  await expectNoSeriousA11yViolations(page, 'the open drawer');

  // Escape closes it and gives the focus back to the toggle.
  await page.keyboard.press('Escape');
  await expect(nav(page)).toBeHidden();
  await expect(toggle).toBeFocused();

  // Space opens it again; Tab to an entry, Enter: the screen changes and the drawer closes.
  await page.keyboard.press('Space');
  await expect(nav(page)).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(nav(page).getByRole('link', { name: 'Bookings' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/bookings-admin$/);
  await expect(page.getByRole('heading', { name: 'Booking Management' })).toBeVisible();
  await expect(nav(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');

  // Tabbing past its last control closes it too.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).focus();
  await page.keyboard.press('Tab');
  await expect(nav(page)).toBeHidden();

  // A click beside it closes it.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(nav(page)).toBeVisible();
  await page.mouse.click(360, 400);
  await expect(nav(page)).toBeHidden();
  await expectNoSeriousA11yViolations(page, 'the closed drawer');
});

test('on a page longer than the window the sidebar spans the window, top to bottom, all the way down', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page);
  await page.goto('/admin/email');
  await page.getByRole('tab', { name: /^Campaigns/ }).click();
  await expect(page.getByRole('button', { name: 'Manual Create' })).toBeVisible();
  // However many campaigns the suite made so far, the page is three windows tall.
  await page.locator('main').evaluate((main) => {
    const filler = document.createElement('div');
    filler.style.height = '2400px';
    main.append(filler);
  });
  const sidebar = page.locator('aside').filter({ has: nav(page) });
  for (const y of [0, 1200, 100_000]) {
    await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
    const seen = await sidebar.evaluate((aside) => {
      const r = aside.getBoundingClientRect();
      const bottomLeft = document.elementFromPoint(8, window.innerHeight - 4);
      return {
        top: Math.round(r.top),
        bottom: Math.round(r.bottom),
        scrolled: window.scrollY > 0,
        // What shows at the window's bottom-left corner: the sidebar, not the page beneath.
        cornerIsSidebar: bottomLeft !== null && aside.contains(bottomLeft),
      };
    });
    expect(seen, `scrolled to ${y}`).toMatchObject({ top: 0, bottom: 800, cornerIsSidebar: true });
    if (y > 0) expect(seen.scrolled).toBe(true);
  }
  await expect(nav(page).getByRole('link', { name: 'Email Marketing' })).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeInViewport();
});
