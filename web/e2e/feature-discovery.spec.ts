import AxeBuilder from '@axe-core/playwright';
import type { FeatureInsightsResponse, FeatureRecommendationsResponse } from '@parley/contracts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, unique } from './support/admin.ts';
import { expect, FEATURE_DISCOVERY_MARKER, type Page, test } from './support/test.ts';

/**
 * The AI Feature Discovery panel (spec §2, §4, §7, §9) against the real platform: the admin
 * guard, the first visit (it opens by itself once, 10 s later: driven by Playwright's clock,
 * never by waiting), the admin opening it, category filters, top 6 with 2 benefits and 2 next
 * steps, real activity (an address book created through the email service reaches the settings
 * service's projection by events) shown after the 5-minute refresh, and the panel at 375 px.
 */

const RECS = '/api/admin/feature-recommendations';
const INSIGHTS = '/api/admin/feature-insights';
const MARKER = FEATURE_DISCOVERY_MARKER;

// These tests choose for themselves whether the admin's first visit is past (pastFirstVisit).
test.use({ featureDiscoveryFirstVisit: true });

const launcher = (page: Page) => page.getByRole('button', { name: /^AI Feature Discovery/ });
const panel = (page: Page) => page.getByRole('dialog', { name: 'AI Feature Discovery' });
const marker = (page: Page) => page.evaluate((key) => localStorage.getItem(key), MARKER);

async function signIn(page: Page): Promise<void> {
  const res = await page.request.post('/api/admin/login', {
    data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(res.status()).toBe(200);
}

/** Marks the first visit as past, so the panel never opens by itself in this test. */
async function pastFirstVisit(page: Page): Promise<void> {
  await page.addInitScript((key) => localStorage.setItem(key, '2026-01-01T00:00:00.000Z'), MARKER);
}

/**
 * Opens an admin screen and waits until the panel's two calls have answered and the button is
 * there; resolves what the screen received.
 */
async function openScreen(
  page: Page,
  path: string,
): Promise<{ recs: FeatureRecommendationsResponse; insights: FeatureInsightsResponse }> {
  const recs = page.waitForResponse((r) => r.url().includes(RECS) && r.request().method() === 'GET');
  const insights = page.waitForResponse((r) => r.url().includes(INSIGHTS));
  await page.goto(path);
  const [r, i] = await Promise.all([recs, insights]);
  expect(r.status()).toBe(200);
  expect(i.status()).toBe(200);
  await expect(launcher(page)).toBeVisible();
  return {
    recs: (await r.json()) as FeatureRecommendationsResponse,
    insights: (await i.json()) as FeatureInsightsResponse,
  };
}

/**
 * Lets React finish what a timer callback asked for: its scheduler posts a message on a
 * MessageChannel (which the fake clock leaves alone), and ours is handled after it.
 */
async function settle(page: Page): Promise<void> {
  for (let i = 0; i < 2; i++)
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(0);
        }),
    );
}

/** Stops the page's clock a second ahead: from here fake time moves only when the test says. */
async function freezeClock(page: Page): Promise<void> {
  const t = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(t + 1000);
}

/**
 * Axe (WCAG 2.x A/AA, serious and critical) on the screen and the panel: the admin frame's
 * mobile header is left out (its link's name "Admin console" lacks its visible text "Parley",
 * a shared component already reported to its owner; settings.spec.ts does the same).
 */
async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .include('main')
    .include('[role="dialog"]')
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.impact} ${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    'axe violations with the feature-discovery panel open',
  ).toEqual([]);
}

const focusInside = (page: Page) => panel(page).evaluate((el) => el.contains(document.activeElement));

test('admin only: Checking authentication..., then /admin/login without an admin', async ({ page }) => {
  expect((await page.request.get(RECS)).status()).toBe(401);
  expect((await page.request.get(INSIGHTS)).status()).toBe(401);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The identity check starts with the session question (signed out, it is the only one).
  await page.route('**/api/admin/session', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/admin/dashboard');
  await expect(page.getByText('Checking authentication...')).toBeVisible();
  await expect(launcher(page)).toHaveCount(0);
  release();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(launcher(page)).toHaveCount(0);
});

test('opens by itself once, 10 s after a first visit, without taking the focus', async ({ page }) => {
  await page.clock.install();
  await signIn(page);
  await openScreen(page, '/admin/dashboard');
  expect(await marker(page)).toBeNull();
  await expect(panel(page)).toHaveCount(0);

  await freezeClock(page);
  // 9 s after the screen appeared: still closed (the marker is written when it opens).
  await page.clock.runFor(8_000);
  expect(await marker(page)).toBeNull();
  await settle(page);
  await expect(panel(page)).toHaveCount(0);
  // 10 s: open, and the marker stored.
  await page.clock.runFor(1_000);
  await expect(panel(page)).toBeVisible();
  expect(await marker(page)).not.toBeNull();
  await expect(panel(page).getByRole('heading', { name: 'AI Feature Discovery' })).toBeVisible();
  expect(await focusInside(page)).toBe(false);

  // A click on the screen closes it; the screen stays usable.
  await page.clock.resume();
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).click();
  await expect(panel(page)).toHaveCount(0);

  // The next visit finds the marker: it stays closed however long the admin stays.
  await openScreen(page, '/admin/dashboard');
  await freezeClock(page);
  await page.clock.runFor(60_000);
  await settle(page);
  await expect(panel(page)).toHaveCount(0);
});

test('opens by itself only when the admin is idle: never over a dialog, never mid-task', async ({ page }) => {
  await page.clock.install();
  await signIn(page);
  await openScreen(page, '/admin/address-books');
  await freezeClock(page);
  // 8 s in, the admin is at work: a dialog, a name being typed.
  await page.clock.runFor(7_000);
  await page.getByRole('button', { name: 'New Address Book' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Address Book' });
  await dialog.getByLabel('Name').pressSequentially('Lea');
  // Long past the 10 s, and idle, but the dialog is open: the panel stays closed.
  await page.clock.runFor(30_000);
  await settle(page);
  await expect(panel(page)).toHaveCount(0);
  expect(await marker(page)).toBeNull();
  // The dialog closed by a key: the admin has just acted, so it still waits.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.clock.runFor(3_000);
  await settle(page);
  await expect(panel(page)).toHaveCount(0);
  // 5 s without a click or a key: now it opens, without taking the focus.
  await page.clock.runFor(3_000);
  await expect(panel(page)).toBeVisible();
  expect(await marker(page)).not.toBeNull();
  expect(await focusInside(page)).toBe(false);
});
test('the admin opens it: filters, top 6 with 2 benefits, 2 next steps, links to the screens', async ({
  page,
}) => {
  await pastFirstVisit(page);
  await signIn(page);
  const { recs: data, insights } = await openScreen(page, '/admin/dashboard');
  expect(data.recommendations.length).toBeGreaterThan(6);

  await launcher(page).click();
  await expect(panel(page)).toBeVisible();
  expect(await focusInside(page)).toBe(true);
  const cards = panel(page).getByTestId('feature-recommendation');
  const filters = ['All', 'Automation', 'Productivity', 'Analytics', 'Engagement'];
  for (const name of filters) {
    const button = panel(page).getByRole('button', { name, exact: true });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    const expected = data.recommendations
      .filter((r) => name === 'All' || r.category === name.toLowerCase())
      .slice(0, 6)
      .map((r) => r.title);
    expect(expected.length).toBeGreaterThan(0);
    await expect(cards.getByRole('heading', { level: 4 })).toHaveText(expected);
  }
  await panel(page).getByRole('button', { name: 'All', exact: true }).click();
  await expect(cards).toHaveCount(6);
  for (let i = 0; i < 6; i++) {
    const r = data.recommendations[i];
    const card = cards.nth(i);
    await expect(
      card.getByRole('list', { name: `Benefits of ${r?.title}` }).getByRole('listitem'),
    ).toHaveText(r?.benefits.slice(0, 2) ?? []);
    await expect(card).toContainText(`${r?.relevanceScore}% relevant`);
    await expect(card).toContainText(r?.reason ?? '');
  }

  await expect(panel(page).getByText('Local rules')).toBeVisible();
  await expect(panel(page).getByRole('list', { name: 'Next steps' }).getByRole('link')).toHaveText(
    insights.insights.nextSteps.slice(0, 2).map((s) => s.step),
  );

  // Escape closes it and gives the focus back to the button.
  await page.keyboard.press('Escape');
  await expect(panel(page)).toHaveCount(0);
  await expect(launcher(page)).toBeFocused();

  // A suggestion opens its screen, and the panel closes.
  await launcher(page).click();
  const first = data.recommendations[0];
  await panel(page)
    .getByRole('link', { name: `Open ${first?.title}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`${first?.actionUrl}$`));
  await expect(panel(page)).toHaveCount(0);
});

test('real activity reaches the panel at the 5-minute refresh; insights every 10 minutes', async ({
  page,
}) => {
  await pastFirstVisit(page);
  await page.clock.install();
  await signIn(page);
  await openScreen(page, '/admin/address-books');
  const calls = { recs: 0, insights: 0 };
  page.on('request', (r) => {
    if (r.url().includes(RECS)) calls.recs++;
    if (r.url().includes(INSIGHTS)) calls.insights++;
  });

  // An address book created through the email service: its event reaches the settings
  // service's projection (the API shows it first; the open screen keeps its data until it refreshes).
  const name = `Discovery ${unique()}`;
  const created = await page.request.post('/api/admin/address-books', {
    data: { name, description: 'feature discovery e2e' },
  });
  expect(created.status()).toBe(201);
  const line = `Address book “${name}” created`;
  let latest: FeatureRecommendationsResponse | null = null;
  await expect
    .poll(async () => {
      latest = (await (
        await page.request.get(`${RECS}?page=address-books`)
      ).json()) as FeatureRecommendationsResponse;
      return latest.userActivity.recentActions.map((a) => a.description);
    })
    .toContain(line);
  calls.recs = 0;
  calls.insights = 0;

  await launcher(page).click();
  await expect(panel(page).getByText(line)).toHaveCount(0);
  await page.keyboard.press('Escape');

  await freezeClock(page);
  await page.clock.runFor(4 * 60_000);
  expect(calls).toEqual({ recs: 0, insights: 0 });
  // The panel is compared with the answer its own refresh got: other specs running beside
  // this one create address books too, so an earlier answer's count can be stale.
  const refreshed = page.waitForResponse((r) => r.url().includes(RECS));
  await page.clock.runFor(60_000);
  const shown = (await (await refreshed).json()) as FeatureRecommendationsResponse;
  expect(calls.recs).toBe(1);
  expect(calls.insights).toBe(0);
  await page.clock.resume();

  await launcher(page).click();
  await expect(panel(page).getByText(line)).toBeVisible();
  const books = shown.userActivity.addressBooksCount;
  expect(books).toBeGreaterThanOrEqual(
    (latest as FeatureRecommendationsResponse | null)?.userActivity.addressBooksCount ?? 1,
  );
  await expect(panel(page).getByRole('definition').first()).toHaveText(books.toLocaleString('en-US'));
  await page.keyboard.press('Escape');

  await freezeClock(page);
  await page.clock.runFor(5 * 60_000);
  expect(calls.recs).toBe(2);
  expect(calls.insights).toBe(1);
});

test('at 375 px: on every admin screen, usable, no sideways scrolling, accessible', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await pastFirstVisit(page);
  await signIn(page);
  for (const path of [
    '/admin',
    '/admin/dashboard',
    '/bookings-admin',
    '/admin/users',
    '/blog-admin',
    '/admin/voice-ai',
    '/admin/settings',
    '/admin/email',
    '/admin/newsletters',
    '/admin/address-books',
  ]) {
    await openScreen(page, path);
    const box = await launcher(page).boundingBox();
    expect(box, path).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), path).toBeLessThanOrEqual(375);
  }

  await openScreen(page, '/admin/dashboard');
  await launcher(page).click();
  await expect(panel(page)).toBeVisible();
  const box = await panel(page).boundingBox();
  expect(box?.x).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  for (const name of ['All', 'Automation', 'Productivity', 'Analytics', 'Engagement'])
    await expect(panel(page).getByRole('button', { name, exact: true })).toBeInViewport();
  await panel(page).getByRole('button', { name: 'Analytics', exact: true }).click();
  await expect(panel(page).getByTestId('feature-recommendation').first()).toContainText('Analytics ·');
  await expectAccessible(page);
  await panel(page).getByRole('button', { name: 'Close' }).click();
  await expect(panel(page)).toHaveCount(0);
});
