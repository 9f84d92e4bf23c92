import type { SpeechEngine } from './types.ts';

/** ElevenLabs REST (text-to-speech, MP3), used when ELEVENLABS_API_KEY is set. */
export function elevenLabsEngine(opts: { apiKey: string; model: string; baseUrl?: string }): SpeechEngine {
  const base = opts.baseUrl ?? 'https://api.elevenlabs.io';
  return {
    name: 'elevenlabs',
    model: opts.model,
    paid: true,
    async synthesize(text, voice) {
      const res = await fetch(
        `${base}/v1/text-to-speech/${encodeURIComponent(voice.id)}?output_format=mp3_44100_64`,
        {
          method: 'POST',
          headers: { 'xi-api-key': opts.apiKey, 'content-type': 'application/json', accept: 'audio/mpeg' },
          body: JSON.stringify({ text, model_id: opts.model }),
          signal: AbortSignal.timeout(30_000),
        },
      );
      if (!res.ok) throw new Error(`ElevenLabs answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      return new Uint8Array(await res.arrayBuffer());
    },
    async close() {},
  };
}
