import { createHash } from 'node:crypto';
import type { Speaker } from '@parley/contracts';
import type { SpeechEngine, VoiceEntry } from './providers/speech/types.ts';
import type { SpeechRepository } from './repo/speech.repository.ts';
import type { SpeechBudget } from './speech-budget.ts';

export interface SpeechResult {
  mp3: Uint8Array;
  cache: 'memory' | 'database' | 'miss';
}

/**
 * Synthesis through the cache: a replica's memory (LRU by bytes), then the shared table,
 * then the engine. Identical requests in flight share one synthesis. With a paid engine, what
 * reaches it is taken from the global character budget first (SpeechBudgetExceeded when it is
 * spent); cache hits cost nothing and are always answered.
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
    private readonly budget: SpeechBudget | null = null,
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
        const settle = await this.budget?.take(text.length);
        let mp3: Uint8Array;
        try {
          mp3 = await this.engine.synthesize(text, voice, speaker);
        } catch (err) {
          // A failed refund leaves the characters spent: the budget errs on the safe side.
          await settle?.(false).catch(() => {});
          throw err;
        }
        await settle?.(true);
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
