import { CALL_SCENARIOS } from '../src/pages/demos/simulated-call/scenarios.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expectSpokenInOrder } from './support/speech.ts';
import { expect, type Locator, type Page, type Response, test } from './support/test.ts';

/**
 * The demo pages end to end, against the real platform (the voice service's local speech
 * engine answers text-to-speech): the read-only platform preview at both of its routes, the
 * voice wave demo's drift, reset and presets, and the simulated call played through to its end
 * with real synthesis and playback in Chromium.
 */

const TTS_PATH = '/api/voice/text-to-speech';
const isTts = (url: string) => new URL(url).pathname === TTS_PATH;

function toasts(page: Page): Locator {
  // The visible toast list, not Radix's screen-reader announcer (which repeats the text).
  return page.getByTestId('toasts');
}

/** The value shown under a label of the Call Statistics card. */
function stat(page: Page, label: string): Locator {
  return page.getByTestId('call-stats').locator('div').filter({ hasText: label }).locator('dd');
}

// ── platform preview ─────────────────────────────────────────────────────────

for (const path of ['/voice-agent-preview', '/agent-platform']) {
  test(`the platform preview at ${path} is read-only and its five tabs work by keyboard`, async ({
    page,
  }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Your AI receptionist, configured in minutes',
    );
    await expect(page).toHaveTitle('Voice Agent Platform Preview · Parley');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/voice-agent-preview$/);
    await expect(page.getByText('Preview — read only')).toBeVisible();

    const tabs = page.getByRole('tab');
    await expect(tabs).toHaveText(['Configure', 'Knowledge Base', 'Behavior', 'Actions', 'Call History']);
    const panel = page.getByRole('tabpanel');
    const selected = (name: string) =>
      expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');

    // Configure: the sample agent, every control disabled.
    await selected('Configure');
    await expect(panel.getByLabel('Agent name')).toHaveValue('Ava — Front Desk Assistant');
    await expect(panel.getByLabel('Agent name')).toBeDisabled();
    await expect(panel.getByLabel('Voice model')).toBeDisabled();
    await expect(panel.getByLabel('Voice model').locator('option:checked')).toHaveText(/^Rachel/);
    await expect(panel.getByLabel('Language').locator('option:checked')).toHaveText('English (US)');
    const speeds = panel.getByRole('group', { name: 'Response speed' }).getByRole('radio');
    await expect(speeds).toHaveCount(3);
    for (const radio of await speeds.all()) await expect(radio).toBeDisabled();
    await expect(panel.getByRole('radio', { name: /Balanced/ })).toBeChecked();
    await expect(panel.getByLabel('Greeting')).toBeDisabled();
    await expectNoSeriousA11yViolations(page, `${path} (Configure)`);

    // Keyboard: arrows move through the tabs (and wrap), Home and End jump; focus follows.
    await page.getByRole('tab', { name: 'Configure' }).focus();
    await page.keyboard.press('ArrowRight');
    await selected('Knowledge Base');
    await expect(page.getByRole('tab', { name: 'Knowledge Base' })).toBeFocused();
    await expect(panel.getByRole('heading', { name: 'Knowledge base' })).toBeVisible();
    await expect(panel.getByText('Services and price list.pdf')).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Upload document' })).toBeDisabled();

    await page.keyboard.press('ArrowRight');
    await selected('Behavior');
    await expect(panel.getByRole('heading', { level: 3 })).toHaveText([
      'Greet and understand the request',
      'Collect the details',
      'Book and confirm',
      'Guardrails',
    ]);
    for (const sw of await panel.getByRole('switch').all()) await expect(sw).toBeDisabled();

    await page.keyboard.press('ArrowRight');
    await selected('Actions');
    await expect(panel.getByRole('heading', { level: 3 })).toHaveText([
      'Book appointment',
      'Transfer to front desk',
      'Send SMS confirmation',
      'Update patient record',
    ]);

    await page.keyboard.press('ArrowRight');
    await selected('Call History');
    await expect(panel.getByRole('listitem')).toHaveCount(3);
    for (const outcome of ['Completed', 'Transferred', 'No Answer']) {
      await expect(panel.getByText(outcome, { exact: true })).toBeVisible();
    }
    await expectNoSeriousA11yViolations(page, `${path} (Call History)`);

    await page.keyboard.press('ArrowRight');
    await selected('Configure');
    await page.keyboard.press('ArrowLeft');
    await selected('Call History');
    await page.keyboard.press('Home');
    await selected('Configure');
    await page.keyboard.press('End');
    await selected('Call History');
    await expect(page.getByRole('tab', { name: 'Call History' })).toBeFocused();

    // The call to action opens the booking modal.
    await page.getByRole('button', { name: 'Book a demo' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Book a 15-minute demo' });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
}

// ── voice wave demo ──────────────────────────────────────────────────────────

/** Starts recording every value the intensity display shows, with the time it showed. */
async function recordIntensity(display: Locator): Promise<void> {
  await display.evaluate((el) => {
    const w = window as unknown as { __intensity: { v: number; t: number }[] };
    w.__intensity = [];
    new MutationObserver(() =>
      w.__intensity.push({ v: Number(el.textContent), t: performance.now() }),
    ).observe(el, { childList: true, characterData: true, subtree: true });
  });
}
const recorded = (page: Page) =>
  page.evaluate(() => (window as unknown as { __intensity: { v: number; t: number }[] }).__intensity);

/** Bar heights of the wave now and a few animation frames later. */
function barHeightsAcrossFrames(page: Page): Promise<[string[], string[]]> {
  return page.evaluate(async () => {
    const bars = () =>
      [...document.querySelectorAll<HTMLElement>('[role="img"][aria-label^="Voice wave"] > span')].map(
        (b) => b.style.height,
      );
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const before = bars();
    for (let i = 0; i < 6; i++) await frame();
    return [before, bars()];
  });
}

test('the voice wave drifts within 0.2–1 while active; Stop and Reset follow the rules', async ({ page }) => {
  await page.goto('/voice-wave-demo');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('A voice you can see');
  const display = page.getByTestId('wave-intensity');
  const slider = page.getByRole('slider', { name: 'Intensity' });
  const wave = page.getByRole('img', { name: /^Voice wave/ });
  await expect(display).toHaveText('0.50');
  await expect(slider).toHaveValue('0.5');
  await expect(slider).toHaveAttribute('min', '0.1');
  await expect(slider).toHaveAttribute('max', '1');
  await expect(slider).toHaveAttribute('step', '0.1');
  await expect(page.getByRole('radio', { name: 'Medium' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Primary' })).toBeChecked();
  await expect(page.getByText('Demo inactive')).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/voice-wave-demo');

  // The slider works by keyboard in steps of 0.1.
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(display).toHaveText('0.60');
  await page.keyboard.press('ArrowLeft');
  await expect(display).toHaveText('0.50');

  // Inactive, the bars rest.
  const [restA, restB] = await barHeightsAcrossFrames(page);
  expect(restB).toEqual(restA);

  await recordIntensity(display);
  const started = Date.now();
  await page.getByRole('button', { name: 'Start Demo' }).click();
  await expect(page.getByText('Demo active')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Simulated microphone' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(wave).toHaveAccessibleName(/active/);

  // Sample the displayed intensity as it drifts: always within 0.2–1, never more than a
  // 0.15 step (plus rounding) at a time, and on average no faster than one change per 300 ms.
  await expect
    .poll(async () => (await recorded(page)).length, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(10);
  const samples = await recorded(page);
  const values = [0.5, ...samples.map((s) => s.v)];
  for (const v of values) {
    expect(v).toBeGreaterThanOrEqual(0.2);
    expect(v).toBeLessThanOrEqual(1);
  }
  for (let i = 1; i < values.length; i++) {
    expect(Math.abs(values[i]! - values[i - 1]!)).toBeLessThanOrEqual(0.155);
  }
  expect(new Set(values).size).toBeGreaterThan(2);
  const spanMs = samples.at(-1)!.t - samples[0]!.t;
  expect(spanMs / (samples.length - 1)).toBeGreaterThanOrEqual(240);
  expect(Date.now() - started).toBeGreaterThanOrEqual(samples.length * 240);
  // The slider follows the drift (to its 0.1 grid): both read in one go, between drift steps.
  const [shown, onSlider] = await page.evaluate(() => [
    Number(document.querySelector('[data-testid="wave-intensity"]')?.textContent),
    Number((document.querySelector('input[type="range"]') as HTMLInputElement | null)?.value),
  ]);
  expect(Math.abs(onSlider - shown)).toBeLessThanOrEqual(0.05 + 1e-9);

  // Active, the bars move between animation frames.
  const [liveA, liveB] = await barHeightsAcrossFrames(page);
  expect(liveB).not.toEqual(liveA);
  await expectNoSeriousA11yViolations(page, '/voice-wave-demo (active)');

  // Stop: inactive, and the value holds (no drift for more than three intervals).
  await page.getByRole('button', { name: 'Stop Demo' }).click();
  await expect(page.getByText('Demo inactive')).toBeVisible();
  const held = await recorded(page).then((s) => s.length);
  const heldValue = await display.textContent();
  await page.waitForTimeout(1000);
  expect((await recorded(page)).length).toBe(held);
  await expect(display).toHaveText(heldValue!);

  // The microphone panel toggles the same state; Reset makes it inactive at 0.5.
  await page.getByRole('button', { name: 'Simulated microphone' }).click();
  await expect(page.getByText('Demo active')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop Demo' })).toBeVisible();
  await expect.poll(async () => (await recorded(page)).length).toBeGreaterThan(held);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('Demo inactive')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start Demo' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Simulated microphone' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(display).toHaveText('0.50');
  await expect(slider).toHaveValue('0.5');

  // Reset while inactive after a slider change also restores 0.5.
  await slider.fill('0.9');
  await expect(display).toHaveText('0.90');
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(display).toHaveText('0.50');
});

test('the voice wave presets set size, variant and intensity; reduced motion holds the bars still', async ({
  page,
}) => {
  await page.goto('/voice-wave-demo');
  const display = page.getByTestId('wave-intensity');
  const bars = page.getByRole('img', { name: /^Voice wave/ }).locator('span');
  await expect(bars).toHaveCount(32);

  const presets = [
    { name: 'Hero Section', size: 'Large', variant: 'Primary', intensity: '0.80', bars: 44 },
    { name: 'Demo Widget', size: 'Medium', variant: 'Accent', intensity: '0.60', bars: 32 },
    { name: 'Contact Form', size: 'Small', variant: 'Mono', intensity: '0.30', bars: 20 },
  ];
  for (const p of presets) {
    await page.getByRole('button', { name: new RegExp(`^${p.name}`) }).click();
    await expect(page.getByRole('radio', { name: p.size })).toBeChecked();
    await expect(page.getByRole('radio', { name: p.variant })).toBeChecked();
    await expect(display).toHaveText(p.intensity);
    await expect(bars).toHaveCount(p.bars);
  }
  // Presets leave the demo as it was.
  await expect(page.getByText('Demo inactive')).toBeVisible();

  // Size and variant also by their own choices.
  await page.getByRole('group', { name: 'Size' }).getByText('Large').click();
  await expect(page.getByRole('radio', { name: 'Large' })).toBeChecked();
  await expect(bars).toHaveCount(44);
  await page.getByRole('radio', { name: 'Large' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: 'Medium' })).toBeChecked();

  // With prefers-reduced-motion the demo still runs, but the bars do not animate.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.getByRole('button', { name: 'Start Demo' }).click();
  await expect(page.getByText('Demo active')).toBeVisible();
  // Nor does the intensity drift: the wave holds what the visitor set.
  await expect(page.getByText('Reduced motion is on: the intensity holds where you set it.')).toBeVisible();
  const held = await display.textContent();
  const [a, b] = await barHeightsAcrossFrames(page);
  expect(b).toEqual(a);
  await expect(page.getByRole('button', { name: 'Stop Demo' })).toBeVisible();
  expect(await display.textContent()).toBe(held);
  await page.getByRole('button', { name: 'Stop Demo' }).click();
});

// ── simulated call demo ──────────────────────────────────────────────────────

test('the simulated call plays a scenario to its end with real speech, then restarts', async ({ page }) => {
  // The call really speaks nine lines (about a minute of audio), then starts again.
  test.setTimeout(240_000);
  const scenario = CALL_SCENARIOS.find((s) => s.id === 'restaurant-reservation')!;
  const total = scenario.callSteps.reduce((sum, s) => sum + s.duration, 0);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') problems.push(m.text());
  });
  const speech: Response[] = [];
  page.on('response', (r) => {
    if (isTts(r.url()) && r.request().method() === 'POST') speech.push(r);
  });

  await page.goto('/simulated-call-demo');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hear an AI agent take a real call');
  const select = page.getByLabel('Industry scenario');
  await expect(select.locator('option:checked')).toHaveText('Select an industry scenario...');
  await expect(select.locator('option')).toHaveText([
    'Select an industry scenario...',
    'Healthcare: Patient Appointment Scheduling',
    'Hospitality: Dinner Reservation',
    'Real Estate: Property Inquiry and Showing',
    'Financial Services: Payment Arrangement',
    'Legal Services: Bail Bond Assistance',
    'Automotive: Service Appointment',
  ]);
  await expect(page.getByRole('heading', { name: 'What the agent can do on your calls' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/simulated-call-demo');

  await select.selectOption(scenario.id);
  await expect(page.getByRole('heading', { level: 2, name: scenario.title })).toBeVisible();
  await expect(page.getByText(scenario.scenario)).toBeVisible();
  const status = page.getByTestId('call-status');
  const current = page.getByTestId('current-step');
  await expect(status).toHaveText('Ready to Call');
  await expect(current).toContainText('Step 1 of 9');
  await expect(current).toContainText(scenario.callSteps[0]!.text);
  await expect(stat(page, 'Status')).toHaveText('Ready');
  await expect(stat(page, 'Steps')).toHaveText('1/9');
  await expect(stat(page, 'Progress')).toHaveText('0%');
  await expect(stat(page, 'Duration')).toHaveText(
    `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`,
  );
  const mute = page.getByRole('button', { name: 'Mute voice' });
  await expect(mute).toBeDisabled();

  // Test Audio: {text, speaker} only, answered with MP3, which plays.
  const testAnswer = page.waitForResponse((r) => isTts(r.url()));
  await page.getByRole('button', { name: 'Test Audio' }).click();
  const test1 = await testAnswer;
  expect(test1.status()).toBe(200);
  expect(test1.headers()['content-type']).toContain('audio/mpeg');
  expect(Object.keys(test1.request().postDataJSON()).sort()).toEqual(['speaker', 'text']);
  await expect(toasts(page)).toContainText('Audio Working');
  await expect(toasts(page)).toContainText('Voice synthesis is now active');
  await expect(mute).toBeEnabled();
  await expect(mute).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('button', { name: 'Test Audio' })).toBeEnabled();
  speech.length = 0;

  // Record the steps the card shows, to check the call walks 1 → 9 in order.
  await current.evaluate((el) => {
    const w = window as unknown as { __steps: number[] };
    w.__steps = [];
    const note = () => {
      const n = Number(/Step (\d+) of/.exec(el.textContent ?? '')?.[1]);
      if (n && w.__steps.at(-1) !== n) w.__steps.push(n);
    };
    note();
    new MutationObserver(note).observe(el, { childList: true, characterData: true, subtree: true });
  });

  await page.getByRole('button', { name: 'Start Call' }).click();
  await expect(page.getByRole('button', { name: 'Pause Call' })).toBeVisible();
  await expect(status).toHaveText(/^(Generating Voice|Call Active)$/);
  await expect(stat(page, 'Status')).toHaveText('Active');
  await page.getByRole('button', { name: 'Show transcript' }).click();
  await expect(page.getByRole('button', { name: 'Hide transcript' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expectNoSeriousA11yViolations(page, '/simulated-call-demo (call active, transcript open)');

  await expect(status).toHaveText('Call Ended', { timeout: 200_000 });
  await expect(page.getByRole('button', { name: 'Restart Call' })).toBeVisible();
  await expect(stat(page, 'Status')).toHaveText('Complete');
  await expect(stat(page, 'Progress')).toHaveText('100%');
  await expect(stat(page, 'Steps')).toHaveText('9/9');
  await expect(page.getByRole('progressbar', { name: 'Call progress' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );

  // Nine syntheses, one per step in order, each answered with MP3 by the speech engine.
  expect(scenario.callSteps).toHaveLength(9);
  expectSpokenInOrder(speech, scenario.callSteps, scenario.id);
  expect(await page.evaluate(() => (window as unknown as { __steps: number[] }).__steps)).toEqual([
    1, 2, 3, 4, 5, 6, 7, 8, 9,
  ]);
  // Every line was fetched and played: no failure was logged.
  expect(problems.filter((p) => p.includes('Simulated call'))).toEqual([]);

  // The transcript lists all nine lines and collapses again.
  const transcript = page.getByRole('list').filter({ hasText: scenario.callSteps[8]!.text });
  await expect(transcript.getByRole('listitem')).toHaveCount(9);
  await page.getByRole('button', { name: 'Hide transcript' }).click();
  await expect(transcript).toBeHidden();
  await expect(page.getByRole('button', { name: 'Show transcript' })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  await page.getByRole('button', { name: 'Show transcript' }).click();

  // Restart Call goes back to step 1 and plays it.
  const again = page.waitForRequest((r) => isTts(r.url()) && r.method() === 'POST');
  await page.getByRole('button', { name: 'Restart Call' }).click();
  expect((await again).postDataJSON()).toMatchObject({ text: scenario.callSteps[0]!.text });
  await expect(current).toContainText('Step 1 of 9');
  await expect(stat(page, 'Progress')).toHaveText('0%');
  await expect(status).toHaveText(/^(Generating Voice|Call Active)$/);
  await expect(transcript.getByRole('listitem').first()).toHaveAttribute('aria-current', 'step');

  // Pause holds the step; reset returns to a fresh call.
  await page.getByRole('button', { name: 'Pause Call' }).click();
  await expect(status).toHaveText('Call Paused');
  await expect(stat(page, 'Status')).toHaveText('Paused');
  await page.getByRole('button', { name: 'Reset call' }).click();
  await expect(status).toHaveText('Ready to Call');
  await expect(stat(page, 'Status')).toHaveText('Ready');
  await expect(page.getByRole('button', { name: 'Start Call' })).toBeVisible();
});

test('the simulated call: first start enables audio, muted steps advance without speech, a new scenario resets', async ({
  page,
}) => {
  const scenario = CALL_SCENARIOS.find((s) => s.id === 'medical-scheduling')!;
  const requests: string[] = [];
  page.on('request', (r) => {
    if (isTts(r.url()) && r.method() === 'POST') requests.push(r.postDataJSON().text);
  });
  await page.goto('/simulated-call-demo');
  await page.getByRole('button', { name: new RegExp(scenario.title) }).click();
  await expect(page.getByLabel('Industry scenario')).toHaveValue(scenario.id);
  const mute = page.getByRole('button', { name: 'Mute voice' });
  const status = page.getByTestId('call-status');
  const current = page.getByTestId('current-step');
  await expect(mute).toBeDisabled();
  await expectNoSeriousA11yViolations(page, '/simulated-call-demo (scenario chosen)');

  // The first start turns audio on and speaks step 1.
  const first = page.waitForRequest((r) => isTts(r.url()) && r.method() === 'POST');
  await page.getByRole('button', { name: 'Start Call' }).click();
  await expect(toasts(page)).toContainText('Audio Enabled');
  await expect(toasts(page)).toContainText('Voice playback is now active for call demonstrations.');
  expect((await first).postDataJSON()).toEqual({
    text: scenario.callSteps[0]!.text,
    speaker: 'ai',
    useCase: scenario.id,
  });
  await expect(mute).toBeEnabled();

  // Muted: no speech is fetched, and the call moves on after each step's scripted time.
  await mute.click();
  await expect(mute).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Muted: text only')).toBeVisible();
  const before = requests.length;
  const muteAt = Date.now();
  await expect(current).toContainText('Step 2 of 9', { timeout: 20_000 });
  expect(Date.now() - muteAt).toBeGreaterThanOrEqual(scenario.callSteps[0]!.duration * 1000 - 500);
  await expect(status).toHaveText('Call Active');
  expect(requests.length).toBe(before);
  await expect(page.getByRole('progressbar', { name: 'Call progress' })).toHaveAttribute(
    'aria-valuenow',
    '11',
  );

  // Unmuted, the current step is spoken again.
  const spoken = page.waitForRequest((r) => isTts(r.url()) && r.method() === 'POST');
  await mute.click();
  expect((await spoken).postDataJSON()).toMatchObject({
    text: scenario.callSteps[1]!.text,
    speaker: 'customer',
  });

  // Choosing another scenario stops the call and starts fresh.
  const other = CALL_SCENARIOS.find((s) => s.id === 'automotive-service')!;
  await page.getByLabel('Industry scenario').selectOption(other.id);
  await expect(page.getByRole('heading', { level: 2, name: other.title })).toBeVisible();
  await expect(status).toHaveText('Ready to Call');
  await expect(current).toContainText('Step 1 of 9');
  await expect(current).toContainText(other.callSteps[0]!.text);
  await expect(stat(page, 'Progress')).toHaveText('0%');
  await expect(page.getByRole('button', { name: 'Start Call' })).toBeVisible();
  // Audio stays enabled for the session.
  await expect(mute).toBeEnabled();
});
