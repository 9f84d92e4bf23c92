import { SCENARIOS } from '../src/pages/use-cases/scenarios.ts';
import { USE_CASES } from '../src/pages/use-cases/use-cases.ts';
import { toasts, unique } from './support/admin.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expectSpokenInOrder } from './support/speech.ts';
import { expect, type Locator, type Page, type Request, type Response, test } from './support/test.ts';

/**
 * The Use Cases page end to end, against the real platform: the thirteen cards, the hero's
 * 'Try AI Agent' (the openTryAgent event) and 'Request Demo' (a real contact request), and a
 * 'Check It' dialog played through its nine steps with the voice service's local speech
 * engine and real playback in Chromium.
 */

const TTS_PATH = '/api/voice/text-to-speech';
const isTts = (url: string) => new URL(url).pathname === TTS_PATH;

interface AudioLog {
  /** performance.now() of each speech request the page sent. */
  requests: number[];
  /** performance.now() of each clip's end. */
  ended: number[];
  /** Every clip created, to check none still plays. */
  clips: HTMLAudioElement[];
}

/**
 * Observes (without changing) the page's speech requests and clips, on the page's own clock,
 * so the test can check the 600 ms pause between a clip's end and the next step's request.
 */
async function observeAudio(page: Page): Promise<void> {
  await page.addInitScript((ttsPath) => {
    const log: AudioLog = { requests: [], ended: [], clips: [] };
    (window as unknown as { __audio: AudioLog }).__audio = log;
    const fetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (new URL(url, location.href).pathname === ttsPath) log.requests.push(performance.now());
      return fetch(input, init);
    };
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (this instanceof HTMLAudioElement && !log.clips.includes(this)) {
        log.clips.push(this);
        this.addEventListener('ended', () => log.ended.push(performance.now()));
      }
      return play.call(this);
    };
  }, TTS_PATH);
}

const audioLog = (page: Page) =>
  page.evaluate(() => {
    const log = (window as unknown as { __audio: AudioLog }).__audio;
    return {
      requests: [...log.requests],
      ended: [...log.ended],
      playing: log.clips.filter((a) => !a.paused && !a.ended).length,
    };
  });

function card(page: Page, title: string): Locator {
  return page
    .getByTestId('use-case-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

test('the page shows thirteen use cases, each with four benefits, three results and its buttons', async ({
  page,
}) => {
  await page.goto('/use-cases');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'One AI voice agent, built for your industry',
  );
  await expect(page).toHaveTitle('Use Cases & Examples · Parley');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/use-cases$/);
  const hero = page.getByRole('region', { name: /One AI voice agent/ });
  await expect(hero.getByRole('button', { name: 'Request Demo' })).toBeVisible();
  await expect(hero.getByRole('button', { name: 'Try AI Agent' })).toBeVisible();

  const cards = page.getByTestId('use-case-card');
  await expect(cards).toHaveCount(13);
  await expect(cards.getByRole('heading', { level: 3 })).toHaveText(USE_CASES.map((u) => u.title));
  for (const useCase of USE_CASES) {
    const c = card(page, useCase.title);
    await expect(c.getByTestId('industry')).toHaveText(useCase.industry);
    await expect(c.getByText(useCase.description)).toBeVisible();
    await expect(c.getByRole('list', { name: 'Key benefits' }).getByRole('listitem')).toHaveText([
      ...useCase.benefits,
    ]);
    const claims = c.getByTestId('result-claim');
    await expect(claims).toHaveCount(3);
    await expect(claims.locator('dt')).toHaveText(['Efficiency', 'Satisfaction', 'Cost']);
    await expect(claims.nth(0)).toContainText(useCase.metrics.efficiency.value);
    await expect(claims.nth(1)).toContainText(useCase.metrics.satisfaction.value);
    await expect(claims.nth(2)).toContainText(useCase.metrics.cost.label);
    await expect(c.getByRole('button', { name: 'Request Demo' })).toHaveAccessibleDescription(useCase.title);
    // Every card has its scripted call.
    await expect(c.getByRole('button', { name: 'Check It' })).toHaveCount(1);
  }
  await expect(page.getByRole('button', { name: 'Check It' })).toHaveCount(13);
  await expectNoSeriousA11yViolations(page, '/use-cases');

  // The cards reflow to one column on a phone without overflowing sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(cards.first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test("'Try AI Agent' fires openTryAgent, which opens the widget", async ({ page }) => {
  await page.goto('/use-cases');
  await page.evaluate(() => {
    const w = window as unknown as { __tryAgentEvents: number };
    w.__tryAgentEvents = 0;
    window.addEventListener('openTryAgent', () => {
      w.__tryAgentEvents += 1;
    });
  });
  await page.getByRole('button', { name: 'Try AI Agent' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __tryAgentEvents: number }).__tryAgentEvents))
    .toBe(1);
  const widget = page.getByRole('dialog', { name: 'Try Our AI Agent' });
  await expect(widget).toBeVisible();
  const events = await page.evaluate(() => (window.dataLayer ?? []) as { event?: string; label?: string }[]);
  // Counted once, by the widget as it opens.
  expect(events.filter((e) => e.event === 'try_agent').map((e) => e.label)).toEqual(['open_event']);
  await page.keyboard.press('Escape');
  await expect(widget).toBeHidden();
});

test("'Request Demo' validates the required fields and sends a real contact request", async ({ page }) => {
  await page.goto('/use-cases');
  const contactPosts: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/contact' && r.method() === 'POST') contactPosts.push(r);
  });

  await page
    .getByRole('region', { name: /One AI voice agent/ })
    .getByRole('button', { name: 'Request Demo' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Request a Demo' });
  await expect(dialog).toBeVisible();
  // Required fields carry a visual asterisk, so their names are matched from the start.
  const field = (name: string) => dialog.getByRole('textbox', { name: new RegExp(`^${name}`) });
  for (const name of ['First Name', 'Last Name', 'Email', 'Company', 'Message']) {
    await expect(field(name)).toBeVisible();
  }
  await expect(dialog.getByLabel('Company Size').locator('option')).toHaveText([
    'Select company size',
    '1-50 employees',
    '51-200 employees',
    '201-1000 employees',
    '1000+ employees',
  ]);
  await expectNoSeriousA11yViolations(page, '/use-cases (Request Demo dialog)');

  // Nothing filled in: 'Missing Information', the required fields marked, nothing sent.
  await dialog.getByRole('button', { name: 'Send Request' }).click();
  await expect(toasts(page)).toContainText('Missing Information');
  await expect(toasts(page)).toContainText('Please fill in all required fields.');
  for (const name of ['First Name', 'Last Name', 'Email', 'Company']) {
    await expect(field(name)).toHaveAttribute('aria-invalid', 'true');
  }
  await expect(field('Message')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(field('First Name')).toBeFocused();
  await expect(dialog).toBeVisible();
  expect(contactPosts).toHaveLength(0);

  const email = `uc-${unique()}@example.com`;
  await field('First Name').fill('Robin');
  await field('Last Name').fill('Ortiz');
  await field('Email').fill(email);
  await field('Company').fill('Ortiz Hotels');
  await dialog.getByLabel('Company Size').selectOption('51-200');
  await field('Message').fill('We would like a demo for our front desk.');
  const answer = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/contact' && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Send Request' }).click();
  const res: Response = await answer;
  expect(res.status()).toBeGreaterThanOrEqual(200);
  expect(res.status()).toBeLessThan(300);
  expect(res.request().postDataJSON()).toEqual({
    firstName: 'Robin',
    lastName: 'Ortiz',
    email,
    company: 'Ortiz Hotels',
    companySize: '51-200',
    message: 'We would like a demo for our front desk.',
  });
  await expect(toasts(page)).toContainText('Demo Request Submitted');
  await expect(toasts(page)).toContainText("Thank you! We'll get back to you within 2 hours.");
  await expect(dialog).toBeHidden();
  const events = await page.evaluate(() => (window.dataLayer ?? []) as { event?: string; label?: string }[]);
  expect(events.some((e) => e.event === 'form_submit' && e.label === 'use_cases_hero')).toBe(true);

  // A card's 'Request Demo' opens the same form for that use case; Escape closes it.
  await card(page, 'Real Estate').getByRole('button', { name: 'Request Demo' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('an AI voice agent for real estate');
  await expect(field('First Name')).toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(card(page, 'Real Estate').getByRole('button', { name: 'Request Demo' })).toBeFocused();
});

test('Legal Intake, the thirteenth card, opens its own nine-step script', async ({ page }) => {
  const useCase = USE_CASES.find((u) => u.id === 'legal-intake')!;
  const scenario = SCENARIOS[useCase.demoScenario!];
  expect(scenario.steps).toHaveLength(9);
  await page.goto('/use-cases');
  await card(page, useCase.title).getByRole('button', { name: 'Check It' }).click();
  const dialog = page.getByRole('dialog', { name: useCase.title });
  await expect(dialog).toContainText(scenario.setting);
  await expect(dialog.getByTestId('call-progress')).toHaveText('0/9');
  // Muted, it plays its own first line at once (text only, no speech needed).
  await dialog.getByRole('button', { name: 'Mute voice' }).click();
  await dialog.getByRole('button', { name: 'Start Demo' }).click();
  await expect(dialog.getByTestId('call-progress')).toHaveText('1/9');
  await expect(dialog.getByRole('listitem').first()).toContainText(scenario.steps[0]!.text);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test("'Check It' plays the scripted call through nine spoken steps; Restart, mute and Escape work", async ({
  page,
}) => {
  // Nine lines of real speech, then a muted run of a few steps.
  test.setTimeout(240_000);
  const useCase = USE_CASES.find((u) => u.id === 'bail-bonds')!;
  const scenario = SCENARIOS[useCase.demoScenario!];
  const total = scenario.steps.reduce((sum, s) => sum + s.duration, 0);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') problems.push(m.text());
  });
  const speech: Response[] = [];
  page.on('response', (r) => {
    if (isTts(r.url()) && r.request().method() === 'POST') speech.push(r);
  });
  await observeAudio(page);

  await page.goto('/use-cases');
  await card(page, useCase.title).getByRole('button', { name: 'Check It' }).click();
  const dialog = page.getByRole('dialog', { name: useCase.title });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(scenario.setting);
  const progress = dialog.getByTestId('call-progress');
  const status = dialog.getByTestId('demo-status');
  await expect(dialog.getByText('Call Progress')).toBeVisible();
  await expect(progress).toHaveText('0/9');
  await expect(dialog.getByTestId('total-duration')).toHaveText(
    `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`,
  );
  await expect(status).toHaveText('Ready to start');
  const start = dialog.getByRole('button', { name: 'Start Demo' });
  await expect(start).toBeFocused();
  const mute = dialog.getByRole('button', { name: 'Mute voice' });
  await expect(mute).toHaveAttribute('aria-pressed', 'false');
  await expectNoSeriousA11yViolations(page, '/use-cases (Check It dialog)');

  // Record, on every change, the step shown and how many words of its line are lit.
  await dialog.evaluate((el) => {
    const w = window as unknown as {
      __steps: number[];
      __lit: { step: number; lit: number; words: number }[];
    };
    w.__steps = [];
    w.__lit = [];
    const note = () => {
      const step = Number(
        /^(\d+)\//.exec(el.querySelector('[data-testid="call-progress"]')?.textContent ?? '')?.[1],
      );
      if (step && w.__steps.at(-1) !== step) w.__steps.push(step);
      const line = el.querySelector('[data-testid="current-line"]');
      if (!line) return;
      const words = line.querySelectorAll('[data-spoken]').length;
      const lit = line.querySelectorAll('[data-spoken="true"]').length;
      const last = w.__lit.at(-1);
      if (!last || last.step !== step || last.lit !== lit) w.__lit.push({ step, lit, words });
    };
    new MutationObserver(note).observe(el, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['data-spoken'],
    });
  });

  await start.click();
  await expect(start).toBeDisabled();
  await expect(progress).toHaveText('1/9');
  await expect(status).toHaveText(/^(Generating voice\.\.\.|AI Agent speaking)$/);
  await expectNoSeriousA11yViolations(page, '/use-cases (Check It dialog, playing)');

  await expect(status).toHaveText('Demo complete', { timeout: 200_000 });
  await expect(progress).toHaveText('9/9');
  await expect(dialog.getByRole('progressbar', { name: 'Call progress' })).toHaveAttribute(
    'aria-valuenow',
    '9',
  );
  await expect(start).toBeEnabled();
  await expect(dialog.getByRole('listitem')).toHaveCount(9);

  // Nine syntheses, one per step in order, each answered with MP3 by the speech engine.
  expect(scenario.steps).toHaveLength(9);
  expectSpokenInOrder(speech, scenario.steps, scenario.id);
  // Every clip really played to its end, and each next step began 600 ms (and not much more)
  // after the previous clip ended.
  const log = await audioLog(page);
  expect(log.requests).toHaveLength(9);
  expect(log.ended).toHaveLength(9);
  for (let i = 1; i < 9; i++) {
    const gap = log.requests[i]! - log.ended[i - 1]!;
    expect(gap).toBeGreaterThanOrEqual(590);
    expect(gap).toBeLessThan(3000);
  }
  const seen = await page.evaluate(() => (window as unknown as { __steps: number[] }).__steps);
  expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  // Within a step the highlighting moves word by word: some line was seen part-lit at two or
  // more different points before all its words were lit.
  const lit = await page.evaluate(
    () => (window as unknown as { __lit: { step: number; lit: number; words: number }[] }).__lit,
  );
  for (let i = 1; i < lit.length; i++) {
    if (lit[i]!.step === lit[i - 1]!.step) expect(lit[i]!.lit).toBeGreaterThanOrEqual(lit[i - 1]!.lit);
  }
  const partial = new Map<number, Set<number>>();
  for (const s of lit) {
    if (s.lit > 0 && s.lit < s.words) partial.set(s.step, (partial.get(s.step) ?? new Set()).add(s.lit));
  }
  expect(Math.max(...[...partial.values()].map((v) => v.size))).toBeGreaterThanOrEqual(3);
  expect(partial.size).toBeGreaterThanOrEqual(5);
  expect(problems.filter((p) => p.includes('Use-case demo'))).toEqual([]);
  await expect(toasts(page)).not.toContainText('Audio Error');

  // Restart: back to step 1, speaking again.
  const again = page.waitForRequest((r) => isTts(r.url()));
  await dialog.getByRole('button', { name: 'Restart' }).click();
  await expect(progress).toHaveText('1/9');
  expect((await again).postDataJSON()).toMatchObject({ text: scenario.steps[0]!.text });
  await expect(dialog.getByRole('listitem')).toHaveCount(1);

  // Mute: the clip stops at once, and a restarted run advances on the scripted durations
  // without asking for any speech.
  await mute.click();
  await expect(mute).toHaveAttribute('aria-pressed', 'true');
  await expect(dialog.getByText('Muted: text only')).toBeVisible();
  await expect.poll(async () => (await audioLog(page)).playing).toBe(0);
  const requestsBefore = (await audioLog(page)).requests.length;
  await dialog.getByRole('button', { name: 'Restart' }).click();
  await expect(progress).toHaveText('1/9');
  await expect(progress).toHaveText('2/9', { timeout: 20_000 });
  await expect(progress).toHaveText('3/9', { timeout: 20_000 });
  expect((await audioLog(page)).requests.length).toBe(requestsBefore);

  // Unmuted again, the next step speaks; Escape closes the dialog and silences it.
  await mute.click();
  await expect(mute).toHaveAttribute('aria-pressed', 'false');
  await page.waitForRequest((r) => isTts(r.url()), { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await audioLog(page)).playing).toBe(0);
  await expect(card(page, useCase.title).getByRole('button', { name: 'Check It' })).toBeFocused();

  // Opened again, it starts afresh.
  await card(page, useCase.title).getByRole('button', { name: 'Check It' }).click();
  await expect(dialog).toBeVisible();
  await expect(progress).toHaveText('0/9');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
