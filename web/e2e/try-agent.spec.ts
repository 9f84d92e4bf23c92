import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, type Locator, type Page, test } from './support/test.ts';

/**
 * The Try AI Agent widget against the real platform (gateway + voice service with its local
 * call simulator). The voice service allows 5 demo calls per client IP per day and every
 * test shares 127.0.0.1, so only one test places a real call; the failure path answers 500
 * through page.route, the one failure that cannot be produced on demand.
 */

const LAUNCHER = 'Try the AI Agent';
const TITLE = 'Try Our AI Agent';
const DEMO_CALL = '/api/voice/demo-call';

function widget(page: Page): Locator {
  return page.getByRole('dialog', { name: TITLE });
}

function stateOf(page: Page): Locator {
  return widget(page).locator('[data-widget-state]');
}

async function openFromLauncher(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: LAUNCHER }).click();
  const dialog = widget(page);
  await expect(dialog).toBeVisible();
  await expect(stateOf(page)).toHaveAttribute('data-widget-state', 'intro');
  return dialog;
}

/** Records every state the widget shows, in order, from inside the page (no timing involved). */
async function recordStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __widgetStates: string[] }).__widgetStates = seen;
    const note = () => {
      const s = document.querySelector('[data-widget-state]')?.getAttribute('data-widget-state');
      if (s && seen[seen.length - 1] !== s) seen.push(s);
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-widget-state'],
    });
    note();
  });
}

async function recordedStates(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __widgetStates: string[] }).__widgetStates);
}

async function tryAgentEvents(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window.dataLayer ?? [])
      .filter((e): e is { event: string; label: string } => (e as { event?: string }).event === 'try_agent')
      .map((e) => e.label),
  );
}

test('launcher → intro → phone entry: formatted as typed, 14 characters at most, 10 digits to call', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/ (widget closed)');

  const dialog = await openFromLauncher(page);
  // Focus moves into the widget, onto its first action.
  await expect(dialog.getByRole('button', { name: 'Get a Demo Call' })).toBeFocused();
  await expect(dialog).toContainText('within 30 seconds');
  await expectNoSeriousA11yViolations(page, 'try-agent intro');

  await dialog.getByRole('button', { name: 'Get a Demo Call' }).click();
  await expect(stateOf(page)).toHaveAttribute('data-widget-state', 'phone');
  const name = dialog.getByRole('textbox', { name: 'Your Name' });
  const phone = dialog.getByRole('textbox', { name: 'Phone Number' });
  const callMe = dialog.getByRole('button', { name: 'Call Me Now' });
  await expect(name).toBeFocused();
  await expect(callMe).toBeDisabled();

  await phone.pressSequentially('55');
  await expect(phone).toHaveValue('(55');
  await phone.pressSequentially('5');
  await expect(phone).toHaveValue('(555');
  await phone.pressSequentially('1');
  await expect(phone).toHaveValue('(555) 1');
  await phone.pressSequentially('2345');
  await expect(phone).toHaveValue('(555) 123-45');
  await expect(callMe).toBeDisabled();
  await phone.pressSequentially('67');
  await expect(phone).toHaveValue('(555) 123-4567');
  await expect(callMe).toBeEnabled();
  // An eleventh digit is refused: 14 characters at most.
  await phone.pressSequentially('8');
  await expect(phone).toHaveValue('(555) 123-4567');
  await expect(phone).toHaveAttribute('maxlength', '14');
  await phone.press('Backspace');
  await expect(phone).toHaveValue('(555) 123-456');
  await expect(callMe).toBeDisabled();
  await expectNoSeriousA11yViolations(page, 'try-agent phone entry');

  // Escape closes the widget and resets it: the launcher is back, and reopening starts over.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  const launcher = page.getByRole('button', { name: LAUNCHER });
  await expect(launcher).toBeVisible();
  await expect(launcher).toBeFocused();
  await openFromLauncher(page);
  await dialog.getByRole('button', { name: 'Get a Demo Call' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Phone Number' })).toHaveValue('');
  await expect(dialog.getByRole('textbox', { name: 'Your Name' })).toHaveValue('');

  expect(await tryAgentEvents(page)).toEqual(['open_launcher', 'open_launcher']);
});

test('a real demo call: connecting, then connected with a running m:ss timer; Book Consultation opens the booking modal', async ({
  page,
}) => {
  // The page's clock is under the test's control, so the timer's minutes can be checked
  // without waiting a minute; it runs on real time otherwise.
  await page.clock.install();
  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // Opened by the window event, as the Use Cases page's 'Try AI Agent' button does.
  await page.evaluate(() => window.dispatchEvent(new Event('openTryAgent')));
  const dialog = widget(page);
  await expect(dialog).toBeVisible();
  await expect(stateOf(page)).toHaveAttribute('data-widget-state', 'intro');
  await expect(page.getByRole('button', { name: LAUNCHER })).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Get a Demo Call' }).click();
  await dialog.getByRole('textbox', { name: 'Your Name' }).fill('Grace Hopper');
  // A dialable US number (area code and exchange start with 2-9), unique to this test.
  await dialog.getByRole('textbox', { name: 'Phone Number' }).pressSequentially('6175550199');
  await expect(dialog.getByRole('textbox', { name: 'Phone Number' })).toHaveValue('(617) 555-0199');

  await recordStates(page);
  const request = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === DEMO_CALL,
  );
  const response = page.waitForResponse((r) => new URL(r.url()).pathname === DEMO_CALL);
  await dialog.getByRole('button', { name: 'Call Me Now' }).click();

  const sent = await request;
  expect(await sent.headerValue('content-type')).toContain('application/json');
  expect(sent.postDataJSON()).toEqual({ name: 'Grace Hopper', phone_number: '+16175550199' });
  const answered = await response;
  expect(answered.status()).toBe(200);
  expect(await answered.json()).toMatchObject({ status: 'initiated' });

  await expect(stateOf(page)).toHaveAttribute('data-widget-state', 'connected');
  expect(await recordedStates(page)).toEqual(['phone', 'connecting', 'connected']);
  await expect(dialog.getByRole('heading', { name: 'Your demo call is on its way' })).toBeVisible();
  await expect(dialog).toContainText('within 30 seconds');
  await expect(dialog).toContainText('2-3 minutes');
  await expect(dialog.getByRole('link', { name: '+1 (617) 555-0142' })).toHaveAttribute(
    'href',
    'tel:+16175550142',
  );

  const timer = dialog.getByRole('timer');
  await expect(timer).toHaveText(/^0:0\d$/);
  const first = await timer.textContent();
  // The timer runs: a second later it shows a later time...
  await page.clock.runFor(1_000);
  await expect(timer).not.toHaveText(first ?? '');
  await expect(timer).toHaveText(/^0:0\d$/);
  // ...and counts minutes as m:ss.
  await page.clock.runFor(65_000);
  await expect(timer).toHaveText(/^1:0\d$/);
  await expectNoSeriousA11yViolations(page, 'try-agent connected');

  await dialog.getByRole('button', { name: 'Book Consultation' }).click();
  await expect(dialog).toBeHidden();
  const booking = page.getByRole('dialog', { name: 'Book a 15-minute demo' });
  await expect(booking).toBeVisible();
  await expect(booking.locator('button[data-date]')).toHaveCount(14);
  await page.keyboard.press('Escape');
  await expect(booking).toBeHidden();

  // Closed and reset: the launcher is back and the widget starts again at the intro.
  await page.getByRole('button', { name: LAUNCHER }).click();
  await expect(stateOf(page)).toHaveAttribute('data-widget-state', 'intro');

  expect(await tryAgentEvents(page)).toEqual([
    'open_event',
    'call_requested',
    'call_initiated',
    'book_consultation',
    'open_launcher',
  ]);
});

test('a failed call request still reaches the connected view, pointing to sales and a consultation', async ({
  page,
}) => {
  // Held until the test has seen the connecting state, then answered 500.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**${DEMO_CALL}`, async (route) => {
    await held;
    await route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Internal Server Error', message: 'boom' }),
    });
  });

  await page.goto('/');
  const dialog = await openFromLauncher(page);
  await dialog.getByRole('button', { name: 'Get a Demo Call' }).click();
  await dialog.getByRole('textbox', { name: 'Phone Number' }).fill('2125550123');
  await expect(dialog.getByRole('textbox', { name: 'Phone Number' })).toHaveValue('(212) 555-0123');
  const request = page.waitForRequest((r) => new URL(r.url()).pathname === DEMO_CALL);
  await dialog.getByRole('button', { name: 'Call Me Now' }).click();
  expect((await request).postDataJSON()).toEqual({ name: '', phone_number: '+12125550123' });

  await expect(stateOf(page)).toHaveAttribute('data-widget-state', 'connecting');
  await expect(dialog.getByRole('status')).toContainText('Connecting');
  await expect(dialog.getByRole('button', { name: 'Call Me Now' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'try-agent connecting');
  release();

  await expect(stateOf(page)).toHaveAttribute('data-widget-state', 'connected');
  await expect(dialog.getByRole('heading', { name: 'Talk to our team' })).toBeVisible();
  await expect(dialog).toContainText('or book a consultation');
  await expect(dialog.getByRole('link', { name: '+1 (617) 555-0142' })).toBeVisible();
  // No error text, no promise of a call, no timer for a call that does not exist.
  await expect(dialog).not.toContainText(/error|failed|boom|500/i);
  await expect(dialog).not.toContainText('within 30 seconds');
  await expect(dialog.getByRole('timer')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Book Consultation' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'try-agent connected (call failed)');

  // The close button resets everything.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await openFromLauncher(page);
  await dialog.getByRole('button', { name: 'Get a Demo Call' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Phone Number' })).toHaveValue('');
  expect(await tryAgentEvents(page)).toContain('call_failed');
});

test('the widget fits a 375 px screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/');
  const dialog = await openFromLauncher(page);
  const box = await dialog.boundingBox();
  expect(box).not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page, 'try-agent intro at 375 px');
});
