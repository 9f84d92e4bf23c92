import { type Static, Type } from 'typebox';
import { literalUnion } from './schema.ts';

/** API contracts of the voice service: speech synthesis (calls follow in the voice issue). */

export const SPEAKERS = ['ai', 'customer'] as const;
export type Speaker = (typeof SPEAKERS)[number];
export const SPEECH_ENGINES = ['elevenlabs', 'local'] as const;
export type SpeechEngineName = (typeof SPEECH_ENGINES)[number];

/** Longest text one synthesis accepts (characters); longer answers 400. */
export const TTS_MAX_CHARS = 600;

/**
 * ElevenLabs' nine named voices of the original product. ElevenLabs is retiring these legacy
 * voices, so the service reads its list from configuration (VOICE_CATALOG) with these as
 * defaults; Rachel is the default voice.
 */
export const DEFAULT_VOICES = [
  { id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel' },
  { id: 'AZnzlk1XvdvUeBnXmlld', name: 'Domi' },
  { id: 'EXAVITQu4vr4xnSDxMaL', name: 'Bella' },
  { id: 'ErXwobaYiN019PkySvjV', name: 'Antoni' },
  { id: 'MF3mGyEYCl7XYWbV9V6O', name: 'Elli' },
  { id: 'TxGEqnHWrfWFTfGW9XjX', name: 'Josh' },
  { id: 'VR6AewLTigWG4xSOukaG', name: 'Arnold' },
  { id: 'pNInz6obpgDQGcFmaJgB', name: 'Adam' },
  { id: 'yoZ06aMxZJJ28mfd3POQ', name: 'Sam' },
] as const;

export const TextToSpeechBody = Type.Object({
  text: Type.String({ maxLength: 10_000 }),
  speaker: Type.Optional(literalUnion(SPEAKERS)),
  useCase: Type.Optional(Type.String({ maxLength: 100 })),
  /** Sent by the original client to defeat caches; ignored (it must not defeat ours). */
  cacheBuster: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Number()])),
});
export type TextToSpeechBody = Static<typeof TextToSpeechBody>;

export const TestSynthesisBody = Type.Object({
  text: Type.String({ maxLength: 10_000 }),
  voiceId: Type.Optional(Type.String({ maxLength: 100 })),
});
export type TestSynthesisBody = Static<typeof TestSynthesisBody>;

export const Voice = Type.Object({ id: Type.String(), name: Type.String() });
export type Voice = Static<typeof Voice>;
export const VoicesResponse = Type.Object({
  engine: literalUnion(SPEECH_ENGINES),
  model: Type.String(),
  defaultVoiceId: Type.String(),
  voices: Type.Array(Voice),
});
export type VoicesResponse = Static<typeof VoicesResponse>;

/** Response headers of a synthesis: which engine spoke, and whether it came from the cache. */
export const SPEECH_ENGINE_HEADER = 'x-speech-engine';
export const SPEECH_CACHE_HEADER = 'x-speech-cache';

// ── calls ─────────────────────────────────────────────────────────────────────

/** Twilio's call statuses; the last four are final. */
export const CALL_STATUSES = [
  'queued',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const FINAL_CALL_STATUSES: readonly CallStatus[] = [
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
];
export const CALL_KINDS = ['admin', 'demo'] as const;

export const CallBody = Type.Object({
  phoneNumber: Type.Optional(Type.String({ maxLength: 40 })),
  message: Type.Optional(Type.String({ maxLength: 1000 })),
});
export type CallBody = Static<typeof CallBody>;
export const CallResponse = Type.Object({ callSid: Type.String() });
export type CallResponse = Static<typeof CallResponse>;

export const Conversation = Type.Object({
  id: Type.String(),
  /** The provider's call id; null until it answered (or when it refused the call). */
  callSid: Type.Union([Type.String(), Type.Null()]),
  /** Why the provider refused to place the call (status failed), or null. */
  placeError: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  phone: Type.String(),
  status: literalUnion(CALL_STATUSES),
  /** Seconds. */
  duration: Type.Integer(),
  transcript: Type.Array(Type.String()),
  kind: literalUnion(CALL_KINDS),
  /** True when the local simulator placed it (no Twilio configured). */
  simulated: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type Conversation = Static<typeof Conversation>;
export const ConversationsResponse = Type.Object({ conversations: Type.Array(Conversation) });
export type ConversationsResponse = Static<typeof ConversationsResponse>;

/** The Try AI Agent widget's call (field names of the original external API). */
export const DemoCallBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  phone_number: Type.Optional(Type.String({ maxLength: 40 })),
});
export type DemoCallBody = Static<typeof DemoCallBody>;
export const DemoCallResponse = Type.Object({ status: Type.String(), callSid: Type.Optional(Type.String()) });
export type DemoCallResponse = Static<typeof DemoCallResponse>;

export const CallEvent = Type.Object({ conversation: Conversation });

/** A US number in E.164 (+1, area code and exchange not starting with 0 or 1), or null. */
export function usE164(input: string): string | null {
  let d = input.replace(/\D/g, '');
  if (d.length === 11 && d.startsWith('1')) d = d.slice(1);
  if (d.length !== 10 || !/^[2-9]\d{2}[2-9]\d{6}$/.test(d)) return null;
  return `+1${d}`;
}

/** GET /api/voice/overview: the engines in use and live call figures (calls today = last 24 hours). */
export const VoiceOverview = Type.Object({
  speechEngine: Type.String(),
  speechModel: Type.String(),
  callProvider: Type.String(),
  simulatedCalls: Type.Boolean(),
  activeCalls: Type.Integer(),
  callsToday: Type.Integer(),
  synthesesSinceStart: Type.Integer(),
});
export type VoiceOverview = Static<typeof VoiceOverview>;
