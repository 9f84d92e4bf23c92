import type { Speaker, SpeechEngineName } from '@parley/contracts';

export interface VoiceEntry {
  id: string;
  name: string;
}

/** Turns text into MP3 audio in a voice; implementations: ElevenLabs, local eSpeak NG. */
export interface SpeechEngine {
  readonly name: SpeechEngineName;
  readonly model: string;
  /** The provider bills per character: syntheses count against the paid budget (speech-budget.ts). */
  readonly paid: boolean;
  synthesize(text: string, voice: VoiceEntry, speaker: Speaker): Promise<Uint8Array>;
  close(): Promise<void>;
}
