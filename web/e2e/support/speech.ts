import { expect, type Response } from '@playwright/test';

/** One synthesis per scripted step, in order, each answered with MP3 by the speech engine. */
export function expectSpokenInOrder(
  speech: Response[],
  steps: ReadonlyArray<{ text: string; speaker: string }>,
  useCase: string,
): void {
  expect(speech).toHaveLength(steps.length);
  for (const [i, res] of speech.entries()) {
    const step = steps[i];
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('audio/mpeg');
    expect(res.headers()['x-speech-engine']).toBeTruthy();
    expect(res.request().postDataJSON()).toEqual({ text: step?.text, speaker: step?.speaker, useCase });
  }
}
