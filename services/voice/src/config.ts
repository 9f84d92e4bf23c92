import { DEFAULT_VOICES } from '@parley/contracts';
import { publicOriginOf, ServiceEnv } from '@parley/kit/config';
import { type Static, Type } from 'typebox';
import type { VoiceEntry } from './providers/speech/types.ts';

export const VoiceEnv = Type.Object({
  ...ServiceEnv,
  /** ElevenLabs speaks when set; the local eSpeak NG engine otherwise. */
  ELEVENLABS_API_KEY: Type.Optional(Type.String({ minLength: 10 })),
  ELEVENLABS_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  /** Base URL of ElevenLabs' API (default https://api.elevenlabs.io): a proxy, or a local stand-in. */
  ELEVENLABS_API_URL: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+(/[^?#]*)?$' })),
  /**
   * The global budget of a paid speech engine (ElevenLabs), all replicas together: characters
   * per UTC minute (default 5,000) and per UTC day (default 100,000). Past either, syntheses
   * that are not in the cache answer 429. The local engine costs nothing and has no budget.
   */
  TTS_PAID_CHARS_PER_MINUTE: Type.Optional(Type.Integer({ minimum: 1 })),
  TTS_PAID_CHARS_PER_DAY: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Voice list as JSON [{"id","name"}, ...]; the first is the default. Default: the nine legacy voices. */
  VOICE_CATALOG: Type.Optional(Type.String({ minLength: 2 })),
  /** Voice of the customer side of scripted demos (a name or id of the catalog; default Josh). */
  CUSTOMER_VOICE: Type.Optional(Type.String({ minLength: 1 })),
  /** Public syntheses per client IP per minute (default 120; cache hits count too). */
  TTS_RATE_LIMIT: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Memory cache per replica, in MiB (default 64). */
  TTS_MEMORY_CACHE_MB: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
  /** Shared speech cache bounds: total size in MiB (default 256) and days since a clip's last hit (default 30). */
  TTS_CACHE_MAX_MB: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_048_576 })),
  TTS_CACHE_MAX_AGE_DAYS: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
  /** Seconds between two passes of the speech cache's retention job (default 600). */
  TTS_CACHE_PRUNE_SECONDS: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  /** Twilio places real calls when all three are set; the local simulator otherwise. */
  TWILIO_ACCOUNT_SID: Type.Optional(Type.String({ pattern: '^AC[0-9a-fA-F]{32}$' })),
  TWILIO_AUTH_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  TWILIO_FROM_NUMBER: Type.Optional(Type.String({ pattern: '^\\+[1-9]\\d{6,14}$' })),
  /** Base URL of Twilio's REST API (default https://api.twilio.com): a proxy, or a local stand-in. */
  TWILIO_API_URL: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+(/[^?#]*)?$' })),
  /** Demo calls (Try AI Agent): per destination number and per client IP per day, at once. */
  DEMO_CALLS_PER_NUMBER_PER_DAY: Type.Optional(Type.Integer({ minimum: 1 })),
  DEMO_CALLS_PER_IP_PER_DAY: Type.Optional(Type.Integer({ minimum: 1 })),
  DEMO_CALLS_MAX_CONCURRENT: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Local synthesis worker threads (default: the CPU count, at most 4). */
  TTS_WORKERS: Type.Optional(Type.Integer({ minimum: 1, maximum: 16 })),
});
export type VoiceConfig = Static<typeof VoiceEnv>;

export interface VoiceSettings {
  voices: VoiceEntry[];
  defaultVoice: VoiceEntry;
  customerVoice: VoiceEntry;
  ttsRateLimit: number;
  /** Characters a paid engine may speak per UTC minute and per UTC day, all replicas together. */
  paidBudget: { minute: number; day: number };
  memoryCacheBytes: number;
  /** The shared (database) speech cache's bounds and how often they are enforced. */
  speechCache: { maxBytes: number; maxAgeDays: number; pruneEveryMs: number };
  publicBaseUrl: string;
  demo: { perNumberPerDay: number; perIpPerDay: number; maxConcurrent: number };
}

export function settingsFrom(config: VoiceConfig): VoiceSettings {
  let voices: VoiceEntry[] = DEFAULT_VOICES.map((v) => ({ ...v }));
  if (config.VOICE_CATALOG) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(config.VOICE_CATALOG);
    } catch {
      throw new Error('VOICE_CATALOG: not valid JSON');
    }
    const ok =
      Array.isArray(parsed) &&
      parsed.length > 0 &&
      parsed.every((v) => v && typeof v.id === 'string' && v.id && typeof v.name === 'string' && v.name);
    if (!ok) throw new Error('VOICE_CATALOG: expected a non-empty JSON list of {"id","name"}');
    voices = (parsed as VoiceEntry[]).map(({ id, name }) => ({ id, name }));
  }
  const defaultVoice = voices[0] as VoiceEntry;
  const wanted = config.CUSTOMER_VOICE ?? 'Josh';
  const customerVoice =
    voices.find((v) => v.name === wanted || v.id === wanted) ??
    voices.find((v) => v.id !== defaultVoice.id) ??
    defaultVoice;
  return {
    voices,
    defaultVoice,
    customerVoice,
    ttsRateLimit: config.TTS_RATE_LIMIT ?? 120,
    paidBudget: {
      minute: config.TTS_PAID_CHARS_PER_MINUTE ?? 5000,
      day: config.TTS_PAID_CHARS_PER_DAY ?? 100_000,
    },
    memoryCacheBytes: (config.TTS_MEMORY_CACHE_MB ?? 64) * 1024 * 1024,
    speechCache: {
      maxBytes: (config.TTS_CACHE_MAX_MB ?? 256) * 1024 * 1024,
      maxAgeDays: config.TTS_CACHE_MAX_AGE_DAYS ?? 30,
      pruneEveryMs: (config.TTS_CACHE_PRUNE_SECONDS ?? 600) * 1000,
    },
    publicBaseUrl: publicOriginOf(config),
    demo: {
      perNumberPerDay: config.DEMO_CALLS_PER_NUMBER_PER_DAY ?? 2,
      perIpPerDay: config.DEMO_CALLS_PER_IP_PER_DAY ?? 5,
      maxConcurrent: config.DEMO_CALLS_MAX_CONCURRENT ?? 3,
    },
  };
}
