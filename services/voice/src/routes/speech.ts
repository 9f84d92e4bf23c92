import {
  ErrorBody,
  SPEECH_CACHE_HEADER,
  SPEECH_ENGINE_HEADER,
  type Speaker,
  TestSynthesisBody,
  TextToSpeechBody,
  TTS_MAX_CHARS,
  VoicesResponse,
} from '@parley/contracts';
import { badRequest, HttpError, type ServiceDeps, type ServiceInstance } from '@parley/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VoiceSettings } from '../config.ts';
import type { VoiceEntry } from '../providers/speech/types.ts';
import type { SpeechService } from '../speech.service.ts';
import { SpeechBudgetExceeded } from '../speech-budget.ts';

/** Seconds the gateway may answer a repeated public line from its edge cache. */
const EDGE_TTL_S = 60;

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody, 502: ErrorBody };

function cleanText(raw: string | undefined): string {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (!text) throw badRequest('Text is required');
  if (text.length > TTS_MAX_CHARS) throw badRequest(`Text is too long (at most ${TTS_MAX_CHARS} characters)`);
  return text;
}

/** Speech: the public demo endpoint, the admin test endpoint and the voice list. */
export async function speechRoutes(
  app: ServiceInstance,
  ctx: { speech: SpeechService; settings: VoiceSettings; deps: ServiceDeps },
) {
  const { speech, settings, deps } = ctx;

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    text: string,
    voice: VoiceEntry,
    speaker: Speaker,
    edgeCacheable = false,
  ) {
    let result: Awaited<ReturnType<SpeechService['speak']>>;
    try {
      result = await speech.speak(text, voice, speaker);
    } catch (err) {
      if (err instanceof SpeechBudgetExceeded) {
        request.log.warn({ period: err.period, engine: speech.engine.name }, 'paid speech budget spent');
        throw new HttpError(429, err.message, { 'retry-after': String(err.retryAfterSeconds) });
      }
      request.log.error({ err, engine: speech.engine.name }, 'speech synthesis failed');
      throw new HttpError(502, 'Speech synthesis is unavailable right now. Please try again.');
    }
    reply.header(SPEECH_ENGINE_HEADER, speech.engine.name);
    reply.header(SPEECH_CACHE_HEADER, result.cache === 'miss' ? 'miss' : 'hit');
    reply.header('cache-control', 'private, max-age=86400');
    // A line asked for again (the scripted demos replay theirs) may be answered by the
    // gateway's edge cache for a minute, keyed by text and speaker (the route table's key).
    if (edgeCacheable && result.cache !== 'miss') reply.header('surrogate-control', `max-age=${EDGE_TTL_S}`);
    return reply
      .type('audio/mpeg')
      .send(Buffer.from(result.mp3.buffer, result.mp3.byteOffset, result.mp3.byteLength));
  }

  /** A spoken line: MP3 bytes (described for the API description; nothing to serialise). */
  const MP3_ANSWER = {
    description: 'The line as MP3 audio',
    content: { 'audio/mpeg': { schema: { type: 'string', format: 'binary' } } },
  } as const;

  app.post(
    '/api/voice/text-to-speech',
    {
      config: { rateLimit: { max: settings.ttsRateLimit, timeWindow: '1 minute' } },
      schema: { body: TextToSpeechBody, response: { 200: MP3_ANSWER, ...errors } },
    },
    async (request, reply) => {
      const text = cleanText(request.body.text);
      const speaker = request.body.speaker ?? 'ai';
      const voice = speaker === 'customer' ? settings.customerVoice : settings.defaultVoice;
      return answer(request, reply, text, voice, speaker, true);
    },
  );

  app.post(
    '/api/voice/test-synthesis',
    {
      onRequest: deps.auth.admin,
      schema: { body: TestSynthesisBody, response: { 200: MP3_ANSWER, ...errors } },
    },
    async (request, reply) => {
      const text = cleanText(request.body.text);
      const id = request.body.voiceId;
      const voice = id ? settings.voices.find((v) => v.id === id || v.name === id) : settings.defaultVoice;
      if (!voice) throw badRequest('Unknown voice');
      return answer(request, reply, text, voice, 'ai');
    },
  );

  app.get(
    '/api/voice/voices',
    { onRequest: deps.auth.admin, schema: { response: { 200: VoicesResponse, ...errors } } },
    async () => ({
      engine: speech.engine.name,
      model: speech.engine.model,
      defaultVoiceId: settings.defaultVoice.id,
      voices: settings.voices,
    }),
  );
}
