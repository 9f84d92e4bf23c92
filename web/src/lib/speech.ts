import type { Speaker } from '@parley/contracts';

/**
 * Speech for the public demos (use-case dialogs, simulated call, Test Audio): fetches a clip
 * from the voice service and plays it to the end. The service caches every line, so the
 * scripted demos replay from its cache; unlike the original client we send no timestamp
 * query or cache-busting body field, which only ever defeated that cache
 * (docs/adr/0029-speech-cache-ignores-cache-busters.md).
 */

export const SPEECH_VOLUME = 0.8;
export const TEST_AUDIO_VOLUME = 0.7;

/** Why a line could not be spoken: the request failed, or the browser could not play it. */
export class SpeechError extends Error {
  constructor(
    readonly kind: 'fetch' | 'playback',
    message: string,
  ) {
    super(message);
    this.name = 'SpeechError';
  }
}

export interface SpeechRequest {
  text: string;
  speaker?: Speaker;
  /** The scenario id of a scripted demo (the service logs it; it does not change the voice). */
  useCase?: string;
}

/** POST /api/voice/text-to-speech → an audio/mpeg blob; a non-OK answer throws 'Server error: {status}'. */
export async function fetchSpeech(req: SpeechRequest, signal?: AbortSignal): Promise<Blob> {
  let res: Response;
  try {
    res = await fetch('/api/voice/text-to-speech', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(req),
      credentials: 'include',
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new SpeechError('fetch', err instanceof Error ? err.message : 'Network error');
  }
  if (!res.ok) throw new SpeechError('fetch', `Server error: ${res.status}`);
  return res.blob();
}

export interface PlayOptions {
  volume?: number;
  muted?: boolean;
  signal?: AbortSignal;
  /** Called once playback really starts, with the clip's duration in seconds (NaN if unknown). */
  onStart?: (durationSeconds: number) => void;
}

/**
 * Plays a clip to its end. Resolves when it ends or when `signal` aborts (playback is then
 * stopped at once); rejects with a SpeechError('playback') when the browser cannot play it.
 */
export function playSpeech(blob: Blob, opts: PlayOptions = {}): Promise<void> {
  const url = URL.createObjectURL(blob);
  const audio = new Audio(url);
  audio.volume = opts.volume ?? SPEECH_VOLUME;
  audio.muted = opts.muted ?? false;
  return new Promise<void>((resolve, reject) => {
    const done = (err?: SpeechError) => {
      audio.onended = null;
      audio.onerror = null;
      opts.signal?.removeEventListener('abort', onAbort);
      audio.pause();
      audio.removeAttribute('src');
      URL.revokeObjectURL(url);
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => done();
    if (opts.signal?.aborted) return done();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    audio.onended = () => done();
    audio.onerror = () => done(new SpeechError('playback', 'The browser could not play the audio'));
    audio.onplaying = () => {
      audio.onplaying = null;
      opts.onStart?.(audio.duration);
    };
    audio.play().catch((err: unknown) => {
      if (opts.signal?.aborted) return done();
      done(new SpeechError('playback', err instanceof Error ? err.message : 'Playback was refused'));
    });
  });
}

/** Fetches and plays one line; see fetchSpeech and playSpeech. An abort resolves quietly. */
export async function speak(req: SpeechRequest, opts: PlayOptions = {}): Promise<void> {
  let blob: Blob;
  try {
    blob = await fetchSpeech(req, opts.signal);
  } catch (err) {
    if (opts.signal?.aborted) return;
    throw err;
  }
  if (opts.signal?.aborted) return;
  await playSpeech(blob, opts);
}
