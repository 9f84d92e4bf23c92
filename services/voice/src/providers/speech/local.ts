import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Speaker } from '@parley/contracts';
import type { ServiceDeps } from '@parley/kit';
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

type Log = Pick<ServiceDeps['logger'], 'warn' | 'error'>;

/** A synthesis that did not finish within the engine's time limit (queueing included). */
export class SpeechTimeoutError extends Error {
  override name = 'SpeechTimeoutError';
}

interface Job {
  id: number;
  text: string;
  args: string[];
  resolve(mp3: Uint8Array): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  /** The worker running it; undefined while it waits in the queue. */
  slot?: Slot;
}

interface Slot {
  worker: Worker;
  /** Warmed up and listening (the worker says so once). */
  ready: boolean;
  /** The one request it runs; the pool never stacks requests on a worker. */
  job: Job | null;
  /** The last uncaught error of the thread, reported with its exit. */
  crash?: Error;
  /** Replaced already (crashed, or terminated for a stuck request): its exit changes nothing. */
  retired: boolean;
}

/** What the engine reports about its workers (the admin overview and tests read it). */
export interface LocalEngineStats {
  workers: number;
  ready: number;
  busy: number;
  queued: number;
  /** Workers that crashed or were terminated and replaced since start. */
  replaced: number;
}

export interface LocalEngineOptions {
  /** Worker threads (default: the CPU count, at most 4). */
  workers?: number;
  /**
   * Longest a synthesis may take from the request, queueing included (default 45 s, under
   * the gateway's 60 s upstream timeout). A request past it fails; a worker still running it is
   * terminated and replaced, so a stuck synthesis cannot hold a thread.
   */
  timeoutMs?: number;
  /** The worker script (default ./local-worker.mjs; tests use one that can be made to crash). */
  workerUrl?: URL;
  logger?: Log;
}

const DEFAULT_TIMEOUT_MS = 45_000;
/** A worker that dies before it is ready is restarted after a pause doubling up to this. */
const MAX_RESPAWN_DELAY_MS = 30_000;

/**
 * The local engine: a small pool of worker threads running eSpeak NG (WASM) and an MP3
 * encoder, so synthesis never blocks the service's event loop.
 *
 * Requests wait in one queue and each ready worker runs one at a time, so a worker that
 * crashes takes only its own request with it (that request fails; the queued ones go to the
 * other workers), and it is replaced by a fresh worker. Every request has a deadline, so
 * none can hang: not behind a crashed worker, not behind a stuck one.
 */
export function localSpeechEngine(opts: LocalEngineOptions = {}): SpeechEngine & {
  stats(): LocalEngineStats;
} {
  const size = Math.max(1, Math.min(opts.workers ?? availableParallelism(), 4));
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const workerUrl = opts.workerUrl ?? new URL('./local-worker.mjs', import.meta.url);
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let replaced = 0;
  let closed = false;
  /** Consecutive deaths before readiness (a worker that cannot start at all), for backoff. */
  let failedStarts = 0;

  function spawn(index: number): void {
    const worker = new Worker(workerUrl);
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null, retired: false };
    slots[index] = slot;
    worker.on('message', (msg: { ready?: true; id?: number; mp3?: Uint8Array; error?: string }) => {
      if (msg.ready) {
        slot.ready = true;
        failedStarts = 0;
        dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      slot.job = null;
      settle(job, msg.mp3 ?? new Error(msg.error ?? 'local synthesis failed'));
      dispatch();
    });
    worker.on('error', (err) => {
      slot.crash = err;
    });
    worker.on('exit', (code) => {
      if (slot.retired || closed) return;
      slot.retired = true;
      const job = slot.job;
      slot.job = null;
      const reason = slot.crash?.message ?? `exit code ${code}`;
      opts.logger?.error({ err: slot.crash, code, index }, 'speech worker crashed; replacing it');
      if (job) settle(job, new Error(`The speech worker crashed: ${reason}`));
      replace(index, slot.ready);
    });
  }

  /** Starts a new worker in place of one that died (after a pause if none gets ready). */
  function replace(index: number, wasReady: boolean): void {
    replaced++;
    if (!wasReady) failedStarts++;
    const delay = failedStarts ? Math.min(MAX_RESPAWN_DELAY_MS, 250 * 2 ** (failedStarts - 1)) : 0;
    if (!delay) {
      spawn(index);
      return;
    }
    setTimeout(() => {
      if (!closed) spawn(index);
    }, delay).unref();
  }

  function settle(job: Job, result: Uint8Array | Error): void {
    clearTimeout(job.timer);
    job.slot = undefined;
    if (result instanceof Error) job.reject(result);
    else job.resolve(result);
  }

  /** Hands queued requests to idle ready workers, oldest first. */
  function dispatch(): void {
    for (const slot of slots) {
      if (!queue.length) return;
      if (!slot || slot.retired || !slot.ready || slot.job) continue;
      const job = queue.shift() as Job;
      slot.job = job;
      job.slot = slot;
      slot.worker.postMessage({ id: job.id, text: job.text, args: job.args });
    }
  }

  function expire(job: Job): void {
    const slot = job.slot;
    if (slot) {
      // Stuck in a worker: the thread cannot be interrupted, so it is replaced.
      slot.job = null;
      slot.retired = true;
      const index = slots.indexOf(slot);
      opts.logger?.warn(
        { index, timeoutMs },
        'speech synthesis overran its time limit; replacing the worker',
      );
      void slot.worker.terminate();
      if (!closed) replace(index, true);
    } else {
      const at = queue.indexOf(job);
      if (at >= 0) queue.splice(at, 1);
    }
    settle(job, new SpeechTimeoutError(`Speech synthesis took longer than ${timeoutMs} ms`));
    dispatch();
  }

  for (let i = 0; i < size; i++) spawn(i);

  return {
    name: 'local',
    model: 'espeak-ng 1.52 (WASM) + LAME MP3 22 kHz 32 kbps',
    // Runs here: it costs CPU, which the per-IP limit and the worker queue bound, not money.
    paid: false,
    synthesize(text, voice, speaker) {
      if (closed) return Promise.reject(new Error('The speech engine is closed'));
      return new Promise<Uint8Array>((resolve, reject) => {
        const job: Job = {
          id: nextId++,
          text,
          args: espeakArgs(voice, speaker),
          resolve,
          reject,
          timer: setTimeout(() => expire(job), timeoutMs),
        };
        job.timer.unref();
        queue.push(job);
        dispatch();
      });
    },
    stats() {
      const live = slots.filter((s) => s && !s.retired);
      return {
        workers: live.length,
        ready: live.filter((s) => s.ready).length,
        busy: live.filter((s) => s.job).length,
        queued: queue.length,
        replaced,
      };
    },
    async close() {
      closed = true;
      const stopped = new Error('The speech engine is closed');
      for (const job of queue.splice(0)) settle(job, stopped);
      for (const slot of slots) if (slot?.job) settle(slot.job, stopped);
      await Promise.all(slots.map((s) => s?.worker.terminate()));
    },
  };
}
