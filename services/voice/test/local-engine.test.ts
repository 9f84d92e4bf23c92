import { afterEach, describe, expect, it } from 'vitest';
import { localSpeechEngine, SpeechTimeoutError } from '../src/providers/speech/local.ts';
import { parseMp3 } from './mp3.ts';

// Real worker threads running the real eSpeak worker; the crashable script adds only a way to
// make a thread throw, exit or hang on request (test/fixtures/crashable-worker.mjs).
const CRASHABLE = new URL('./fixtures/crashable-worker.mjs', import.meta.url);
const RACHEL = { id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel' };
const engines: Array<ReturnType<typeof localSpeechEngine>> = [];
const engine = (opts: Parameters<typeof localSpeechEngine>[0]) => {
  const e = localSpeechEngine(opts);
  engines.push(e);
  return e;
};
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

const until = async (cond: () => boolean, ms = 120_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const line = (i: number) => `This is line number ${i} of a first-time synthesis, ${Math.random()}.`;
const expectSpeech = (mp3: Uint8Array) => expect(parseMp3(mp3).frames).toBeGreaterThan(10);

// Where the deadline is not what a test is about, it is far away: a loaded machine (these run
// beside other suites on two cores) must not turn a slow synthesis into a failure.
const FAR = 150_000;

describe('local speech engine', { timeout: 240_000 }, () => {
  it('answers 12 parallel first-time syntheses on two workers, every one', async () => {
    const e = engine({ workers: 2, timeoutMs: FAR });
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => e.synthesize(line(i), RACHEL, i % 2 ? 'customer' : 'ai')),
    );
    expect(results.map((r) => (r.status === 'fulfilled' ? 'ok' : String(r.reason)))).toEqual(
      Array(12).fill('ok'),
    );
    for (const r of results) if (r.status === 'fulfilled') expectSpeech(r.value);
  });

  for (const how of ['throw', 'exit'] as const) {
    it(`a worker that crashes (${how}) fails only its own request and is replaced`, async () => {
      const e = engine({ workers: 2, workerUrl: CRASHABLE, timeoutMs: FAR });
      await until(() => e.stats().ready === 2);
      const healthy = Array.from({ length: 6 }, (_, i) => e.synthesize(line(i), RACHEL, 'ai'));
      const crash = e.synthesize(`CRASH: ${how}`, RACHEL, 'ai');
      const more = Array.from({ length: 4 }, (_, i) => e.synthesize(line(10 + i), RACHEL, 'customer'));
      await expect(crash).rejects.toThrow(/speech worker crashed/);
      for (const mp3 of await Promise.all([...healthy, ...more])) expectSpeech(mp3);
      expect(e.stats().replaced).toBe(1);
      // The replacement gets ready and serves; nothing waits on the dead thread.
      await until(() => e.stats().ready === 2);
      for (const mp3 of await Promise.all([1, 2, 3, 4].map((i) => e.synthesize(line(20 + i), RACHEL, 'ai'))))
        expectSpeech(mp3);
    });
  }

  it('with one worker, requests queued behind a crash are served by its replacement', async () => {
    const e = engine({ workers: 1, workerUrl: CRASHABLE, timeoutMs: FAR });
    const crash = e.synthesize('CRASH: throw', RACHEL, 'ai');
    const queued = [1, 2, 3].map((i) => e.synthesize(line(i), RACHEL, 'ai'));
    await expect(crash).rejects.toThrow(/speech worker crashed/);
    for (const mp3 of await Promise.all(queued)) expectSpeech(mp3);
    expect(e.stats()).toMatchObject({ workers: 1, replaced: 1, busy: 0, queued: 0 });
  });

  it('a stuck synthesis fails at its deadline and its worker is replaced', async () => {
    const e = engine({ workers: 2, workerUrl: CRASHABLE, timeoutMs: 20_000 });
    await until(() => e.stats().ready === 2);
    const stuck = e.synthesize('CRASH: hang', RACHEL, 'ai');
    const others = [1, 2].map((i) => e.synthesize(line(i), RACHEL, 'ai'));
    for (const mp3 of await Promise.all(others)) expectSpeech(mp3);
    await expect(stuck).rejects.toBeInstanceOf(SpeechTimeoutError);
    expect(e.stats().replaced).toBe(1);
    await until(() => e.stats().ready === 2);
    for (const mp3 of await Promise.all([5, 6].map((i) => e.synthesize(line(i), RACHEL, 'ai'))))
      expectSpeech(mp3);
  });

  it('fails requests that cannot be served in time instead of leaving them waiting', async () => {
    // Every worker stuck: the queued request has nowhere to go and must still be answered.
    const e = engine({ workers: 1, workerUrl: CRASHABLE, timeoutMs: 3000 });
    const stuck = e.synthesize('CRASH: hang', RACHEL, 'ai');
    const queued = e.synthesize(line(1), RACHEL, 'ai');
    await expect(stuck).rejects.toBeInstanceOf(SpeechTimeoutError);
    // The queued request either ran on the replacement or hit its own deadline: either way it settles.
    await Promise.allSettled([queued]);
    expect(e.stats().queued).toBe(0);
  });

  it('fails pending requests when closed', async () => {
    const e = engine({ workers: 1 });
    const pending = expect(e.synthesize(line(1), RACHEL, 'ai')).rejects.toThrow(/closed/);
    await e.close();
    await pending;
    await expect(e.synthesize(line(2), RACHEL, 'ai')).rejects.toThrow(/closed/);
  });
});
