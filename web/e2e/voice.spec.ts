import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * Voice AI management end to end, against the real platform (gateway + identity + voice with
 * its local fallbacks unless ElevenLabs / Twilio are configured): synthesis that really plays
 * in Chromium, a call placed through the simulator and followed to 'completed' in the
 * history, and the overview's live figures.
 */

const ENGINE_LABELS: Record<string, string> = {
  elevenlabs: 'ElevenLabs',
  local: 'Local engine (espeak-ng)',
};

async function openVoiceAi(page: Page): Promise<void> {
  await page.goto('/admin/voice-ai');
  await expect(page.getByRole('heading', { name: 'Voice AI Management', level: 1 })).toBeVisible();
}

/** The number on a stat card of the Overview tab. */
async function statValue(page: Page, label: string): Promise<number> {
  const card = page.getByTestId('stat-card').filter({ hasText: label });
  const text = (await card.textContent()) ?? '';
  const m = new RegExp(`${label}\\s*(\\d+)`).exec(text);
  if (!m) throw new Error(`no figure on the ${label} card: ${text}`);
  return Number(m[1]);
}

test('Voice Testing synthesises the chosen voice, names the engine, and the audio really plays', async ({
  page,
}) => {
  await signInAsAdmin(page);

  // The console's Voice AI section is the same screen.
  await page.goto('/admin?section=voice');
  await expect(page.getByRole('heading', { name: 'Voice AI Management', level: 1 })).toBeVisible();

  await openVoiceAi(page);
  await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Voice Testing' }).click();

  const text = page.getByLabel('Text to speak');
  await expect(text).not.toHaveValue('');
  const voice = page.getByLabel('Voice', { exact: true });
  await expect(voice.locator('option:checked')).toHaveText('Rachel (default)');
  const testVoice = page.getByRole('button', { name: 'Test Voice' });
  await text.fill('');
  await expect(testVoice).toBeDisabled();

  // A text of its own, so the engine really synthesises it (no cache hit from an earlier run).
  const phrase = `Hello from the Parley voice test number ${unique()}.`;
  await text.fill(phrase);
  await voice.selectOption({ label: 'Bella' });
  const bellaId = await voice.inputValue();
  const answer = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/voice/test-synthesis' && r.request().method() === 'POST',
  );
  await testVoice.click();
  const res = await answer;
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('audio/mpeg');
  expect(res.request().postDataJSON()).toEqual({ text: phrase, voiceId: bellaId });
  const engine = res.headers()['x-speech-engine'] ?? '';
  expect(Object.keys(ENGINE_LABELS)).toContain(engine);
  expect(res.headers()['x-speech-cache']).toBe('miss');

  await expect(toasts(page)).toContainText('Voice Test Successful');
  await expect(toasts(page)).toContainText(`Bella spoke through ${ENGINE_LABELS[engine]}`);
  await expect(page.getByTestId('voice-test-engine')).toContainText(`Engine used:${ENGINE_LABELS[engine]}`);

  const audio = page.getByTestId('voice-test-audio');
  await expect(audio).toHaveAttribute('src', /^blob:/);
  // Decode and play it for real: metadata loads, the duration is known, and time advances.
  // Muted, so Chromium's autoplay policy allows a play() that no click started.
  const played = await audio.evaluate(async (el: HTMLAudioElement) => {
    if (el.readyState < HTMLMediaElement.HAVE_METADATA) {
      await new Promise<void>((resolve, reject) => {
        el.addEventListener('loadedmetadata', () => resolve(), { once: true });
        el.addEventListener('error', () => reject(new Error(`media error ${el.error?.code}`)), {
          once: true,
        });
      });
    }
    const duration = el.duration;
    el.pause();
    el.muted = true;
    el.currentTime = 0;
    await el.play();
    await new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const timer = setInterval(() => {
        if (el.ended || el.currentTime > 0.25) {
          clearInterval(timer);
          resolve();
        } else if (el.error || Date.now() - started > 10_000) {
          clearInterval(timer);
          reject(
            new Error(`playback did not advance (currentTime ${el.currentTime}, error ${el.error?.code})`),
          );
        }
      }, 50);
    });
    return { duration, currentTime: el.currentTime, ended: el.ended };
  });
  expect(Number.isFinite(played.duration)).toBe(true);
  // The phrase takes a couple of seconds to say.
  expect(played.duration).toBeGreaterThan(1);
  expect(played.ended || played.currentTime > 0.25).toBe(true);
  // Playing raised no 'Audio Error'.
  await expect(toasts(page)).toContainText('Voice Test Successful');
});

test('Make Calls places a call that Call History follows to completed, and the overview counts it', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await openVoiceAi(page);

  // Overview: the real engine and model, and the figures before the call.
  const overview = (await (await page.request.get('/api/voice/overview')).json()) as {
    speechEngine: string;
    speechModel: string;
    simulatedCalls: boolean;
  };
  const config = page.getByLabel('Voice configuration');
  await expect(config).toContainText(ENGINE_LABELS[overview.speechEngine] ?? overview.speechEngine);
  await expect(config).toContainText(overview.speechModel);
  await expect(page.getByTestId('stat-card').filter({ hasText: 'System Status' })).toContainText('Online');
  await expect(page.getByTestId('stat-card').filter({ hasText: 'Calls Today' })).toContainText(/\d/);
  const callsBefore = await statValue(page, 'Calls Today');

  // Make Calls: disabled while empty, Phone Required without digits, normalisation shown.
  await page.getByRole('tab', { name: 'Make Calls' }).click();
  const phone = page.getByLabel('Phone Number');
  const makeCall = page.getByRole('button', { name: 'Make Call' });
  await expect(page.getByLabel('Greeting Message')).not.toHaveValue('');
  await expect(makeCall).toBeDisabled();
  await phone.fill('call me');
  await makeCall.click();
  await expect(toasts(page)).toContainText('Phone Required');
  await expect(toasts(page)).toContainText('Please enter a phone number');
  // The spec's phone rules apply before calling: '12' is no number, and nothing is sent.
  let calls = 0;
  const countCalls = (r: { url: () => string; method: () => string }) => {
    if (new URL(r.url()).pathname === '/api/voice/call' && r.method() === 'POST') calls++;
  };
  page.on('request', countCalls);
  await phone.fill('12');
  await expect(page.getByText('Will call')).toHaveCount(0);
  await makeCall.click();
  await expect(toasts(page)).toContainText('Invalid Phone Number');
  await expect(page.getByLabel('Phone Number')).toBeFocused();
  expect(calls).toBe(0);
  page.off('request', countCalls);
  await phone.fill('(415) 555-0100');
  await expect(page.getByText('Will call +14155550100')).toBeVisible();
  await phone.fill('+1 415 555 0100');
  await expect(page.getByText('Will call +14155550100')).toBeVisible();
  const greeting = `Hi, this is the Parley e2e call ${unique()}.`;
  await page.getByLabel('Greeting Message').fill(greeting);

  // Every status the history read for this call, in order, to prove it kept refetching.
  let callSid = '';
  const seen: string[] = [];
  page.on('response', async (r) => {
    if (new URL(r.url()).pathname !== '/api/voice/conversations' || !r.ok()) return;
    const body = (await r.json().catch(() => null)) as {
      conversations: { callSid: string; status: string }[];
    } | null;
    const status = body?.conversations.find((c) => c.callSid === callSid)?.status;
    if (status && seen.at(-1) !== status) seen.push(status);
  });

  const placed = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/voice/call' && r.request().method() === 'POST',
  );
  await makeCall.click();
  const res = await placed;
  expect(res.status()).toBe(200);
  expect(res.request().postDataJSON()).toEqual({ phoneNumber: '+14155550100', message: greeting });
  callSid = ((await res.json()) as { callSid: string }).callSid;
  expect(callSid).not.toBe('');
  await expect(toasts(page)).toContainText('Call Initiated');
  await expect(toasts(page)).toContainText(callSid);
  await expect(page.getByTestId('last-call')).toContainText('+14155550100');

  // Call History: the call appears, moves on by itself and ends completed.
  await page.getByRole('button', { name: 'View Call History' }).click();
  await expect(page.getByRole('tab', { name: 'Call History' })).toHaveAttribute('aria-selected', 'true');
  const row = page.getByTestId('voice-call').filter({ hasText: callSid });
  await expect(row).toBeVisible();
  await expect(row).toContainText('+14155550100');
  await expect(row).toContainText('Completed', { timeout: 20_000 });
  if (overview.simulatedCalls) {
    await expect(row).toContainText('Simulated');
    // The simulator answers at 2.5 s and hangs up at 6.5 s.
    await expect(row).toContainText('Duration 0:04');
  }
  await expect.poll(() => seen.at(-1)).toBe('completed');
  expect(seen.length, `statuses seen: ${seen.join(' → ')}`).toBeGreaterThan(1);
  const order = ['queued', 'ringing', 'in-progress', 'completed'];
  const ranks = seen.map((s) => order.indexOf(s));
  expect(ranks, `statuses seen: ${seen.join(' → ')}`).toEqual([...ranks].sort((a, b) => a - b));

  const transcript = row.getByRole('button', { name: /Transcript \(\d+ lines\)/ });
  await expect(transcript).toHaveAttribute('aria-expanded', 'false');
  await transcript.click();
  await expect(transcript).toHaveAttribute('aria-expanded', 'true');
  await expect(row.getByRole('list', { name: /Transcript of the call/ })).toContainText(`AI: ${greeting}`);

  // Overview: one more call today.
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect.poll(() => statValue(page, 'Calls Today')).toBe(callsBefore + 1);
});

test('at 375 px the tab strip says it scrolls, and the chosen tab comes into view', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signInAsAdmin(page);
  await openVoiceAi(page);
  const strip = page.getByRole('tablist', { name: 'Voice AI' });
  const more = page.getByTestId('tabs-more-end');
  // The strip is wider than the screen: the hidden end is marked.
  expect(await strip.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect(more).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Call History' })).not.toBeInViewport({ ratio: 0.99 });
  // The keyboard reaches the last tab; it scrolls into view and the hint moves to the start.
  await page.getByRole('tab', { name: 'Overview' }).focus();
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Call History' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Call History' })).toBeInViewport({ ratio: 0.99 });
  await expect(more).toHaveCount(0);
  await expect(page.getByTestId('tabs-more-start')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
