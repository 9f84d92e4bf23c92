import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Speaker } from '@parley/contracts';
import type { SpeechEngine, VoiceEntry } from './types.ts';

/**
 * eSpeak NG variants per named voice, so each name sounds different (variant, pitch, speed).
 * Unknown names fall back by a hash of the name.
 */
const PROFILES: Record<string, { variant: string; pitch: number; speed: number }> = {
  Rachel: { variant: 'f3', pitch: 55, speed: 165 },
  Domi: { variant: 'f4', pitch: 62, speed: 175 },
  Bella: { variant: 'f2', pitch: 58, speed: 160 },
  Antoni: { variant: 'm3', pitch: 42, speed: 165 },
  Elli: { variant: 'f5', pitch: 68, speed: 170 },
  Josh: { variant: 'm1', pitch: 40, speed: 160 },
  Arnold: { variant: 'm7', pitch: 30, speed: 150 },
  Adam: { variant: 'm2', pitch: 36, speed: 158 },
  Sam: { variant: 'm4', pitch: 48, speed: 168 },
};
const FALLBACK = Object.values(PROFILES);

/** eSpeak arguments of a voice; the customer of a scripted call always sounds unlike the agent. */
export function espeakArgs(voice: VoiceEntry, speaker: Speaker): string[] {
  let profile = PROFILES[voice.name];
  if (!profile) {
    let h = 0;
    for (const ch of voice.name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    profile = FALLBACK[h % FALLBACK.length] as (typeof FALLBACK)[number];
  }
  if (speaker === 'customer') {
    const female = profile.variant.startsWith('f');
    profile = female ? { variant: 'm3', pitch: 38, speed: 155 } : { variant: 'f2', pitch: 62, speed: 170 };
  }
  return ['-v', `en-us+${profile.variant}`, '-p', String(profile.pitch), '-s', String(profile.speed)];
}

interface Pending {
  resolve(mp3: Uint8Array): void;
  reject(err: Error): void;
}

/**
 * The local engine: a small pool of worker threads running eSpeak NG (WASM) and an MP3
 * encoder, so synthesis never blocks the service's event loop.
 */
export function localSpeechEngine(opts: { workers?: number } = {}): SpeechEngine {
  const size = Math.max(1, Math.min(opts.workers ?? availableParallelism(), 4));
  const workers: Worker[] = [];
  const pending = new Map<number, Pending>();
  const busy = new Map<Worker, number>();
  let nextId = 1;
  let turn = 0;
  for (let i = 0; i < size; i++) {
    const w = new Worker(new URL('./local-worker.mjs', import.meta.url));
    w.unref();
    w.on('message', (msg: { id: number; mp3?: Uint8Array; error?: string }) => {
      busy.set(w, (busy.get(w) ?? 1) - 1);
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (!p) return;
      if (msg.mp3) p.resolve(msg.mp3);
      else p.reject(new Error(msg.error ?? 'local synthesis failed'));
    });
    w.on('error', (err) => {
      for (const [id, p] of pending) {
        p.reject(err);
        pending.delete(id);
      }
    });
    workers.push(w);
    busy.set(w, 0);
  }
  return {
    name: 'local',
    model: 'espeak-ng 1.52 (WASM) + LAME MP3 22 kHz 32 kbps',
    synthesize(text, voice, speaker) {
      // The least busy worker (round robin among equals).
      const ordered = workers.map((_, i) => workers[(turn + i) % workers.length] as Worker);
      turn++;
      const worker = ordered.reduce((a, b) => ((busy.get(b) ?? 0) < (busy.get(a) ?? 0) ? b : a));
      busy.set(worker, (busy.get(worker) ?? 0) + 1);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, text, args: espeakArgs(voice, speaker) });
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
