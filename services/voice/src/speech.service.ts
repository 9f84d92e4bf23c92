import { createHash } from 'node:crypto';
import type { Speaker } from '@parley/contracts';
import type { SpeechEngine, VoiceEntry } from './providers/speech/types.ts';
import type { SpeechRepository } from './repo/speech.repository.ts';

export interface SpeechResult {
  mp3: Uint8Array;
  cache: 'memory' | 'database' | 'miss';
}

/**
 * Synthesis through the cache: a replica's memory (LRU by bytes), then the shared table,
 * then the engine. Identical requests in flight share one synthesis.
 */
export class SpeechService {
  private readonly memory = new Map<string, Uint8Array>();
  private memoryBytes = 0;
  private readonly inflight = new Map<string, Promise<Uint8Array>>();
  /** Syntheses performed by the engine (the cache tests and the admin overview read it). */
  synthesized = 0;

  constructor(
    readonly engine: SpeechEngine,
    private readonly repo: SpeechRepository,
    private readonly maxMemoryBytes: number,
  ) {}

  /** The cache key: engine, voice, side of the call and exact text (never a cache buster). */
  keyOf(text: string, voice: VoiceEntry, speaker: Speaker): string {
    return createHash('sha256')
      .update(`${this.engine.name}\u0000${voice.id}\u0000${speaker}\u0000${text}`)
      .digest('hex');
  }

  async speak(text: string, voice: VoiceEntry, speaker: Speaker): Promise<SpeechResult> {
    const key = this.keyOf(text, voice, speaker);
    const hot = this.memory.get(key);
    if (hot) {
      // Refresh its place in the LRU order.
      this.memory.delete(key);
      this.memory.set(key, hot);
      return { mp3: hot, cache: 'memory' };
    }
    const stored = await this.repo.find(key);
    if (stored) {
      this.remember(key, stored);
      return { mp3: stored, cache: 'database' };
    }
    let job = this.inflight.get(key);
    if (!job) {
      job = (async () => {
        const mp3 = await this.engine.synthesize(text, voice, speaker);
        this.synthesized++;
        await this.repo.save(key, this.engine.name, voice.id, mp3);
        this.remember(key, mp3);
        return mp3;
      })().finally(() => this.inflight.delete(key));
      this.inflight.set(key, job);
    }
    return { mp3: await job, cache: 'miss' };
  }

  private remember(key: string, mp3: Uint8Array) {
    if (mp3.length > this.maxMemoryBytes) return;
    while (this.memoryBytes + mp3.length > this.maxMemoryBytes && this.memory.size) {
      const oldest = this.memory.keys().next().value as string;
      this.memoryBytes -= this.memory.get(oldest)?.length ?? 0;
      this.memory.delete(oldest);
    }
    this.memory.set(key, mp3);
    this.memoryBytes += mp3.length;
  }
}
