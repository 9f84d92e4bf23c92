import type { DiagnosticResult } from '@parley/contracts';
import type { ServiceDeps } from '@parley/kit';
import type { VoiceConfig } from './config.ts';
import type { CallProvider } from './providers/calls/types.ts';
import type { SpeechEngine, VoiceEntry } from './providers/speech/types.ts';

/**
 * The voice service's own diagnostics (answered over request/reply for the settings
 * screen): `voice-api` makes the speech engine really speak a short phrase; and
 * `twilio-integration` checks the Twilio account and number when Twilio is configured (the
 * simulator is a warning: calls are not real).
 */

export const VOICE_CHECK_PHRASE = 'Parley diagnostics check.';

type Check = Omit<DiagnosticResult, 'duration'>;

export interface VoiceDiagnosticsOptions {
  engine: SpeechEngine;
  provider: CallProvider;
  /** The voice that speaks the check (the default voice). */
  voice: VoiceEntry;
  /** Twilio's REST origin (tests point it at a local fake). */
  twilioApiBase?: string;
  timeoutMs?: number;
}

const ENGINE_NAMES: Record<string, string> = {
  elevenlabs: 'ElevenLabs',
  local: 'The local engine',
};

/** MP3 bytes start with an ID3v2 tag or an MPEG audio frame sync. */
const looksLikeMp3 = (b: Uint8Array) =>
  b.length >= 4 &&
  ((b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x33) || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0));

export async function checkSpeech(engine: SpeechEngine, voice: VoiceEntry): Promise<Check> {
  const name = ENGINE_NAMES[engine.name] ?? engine.name;
  const t0 = performance.now();
  let audio: Uint8Array;
  try {
    audio = await engine.synthesize(VOICE_CHECK_PHRASE, voice, 'ai');
  } catch (err) {
    return {
      status: 'error',
      result: 'Synthesis failed',
      details: `${name} (${engine.model}) could not speak: ${(err as Error).message}`,
    };
  }
  const ms = Math.round(performance.now() - t0);
  if (!looksLikeMp3(audio))
    return {
      status: 'error',
      result: 'No audio',
      details: `${name} (${engine.model}) answered ${audio.length} bytes that are not MP3 audio`,
    };
  return {
    status: 'success',
    result: 'Speaking',
    details: `${name} (${engine.model}) spoke "${VOICE_CHECK_PHRASE}" as ${voice.name}: ${(audio.length / 1024).toFixed(1)} kB of MP3 in ${ms} ms`,
  };
}

export async function checkTwilio(
  provider: CallProvider,
  config: Pick<VoiceConfig, 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_FROM_NUMBER'>,
  opts: { apiBase?: string; timeoutMs?: number } = {},
): Promise<Check> {
  const { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: token, TWILIO_FROM_NUMBER: from } = config;
  if (provider.simulated || !sid || !token || !from)
    return {
      status: 'warning',
      result: 'Simulator',
      details:
        'Twilio is not configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER): calls go to the local simulator and reach no phone',
    };
  const base = opts.apiBase ?? 'https://api.twilio.com';
  const auth = `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, {
      headers: { authorization: auth, accept: 'application/json' },
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
    });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: res.status, body };
  };
  try {
    const account = await get(`/2010-04-01/Accounts/${encodeURIComponent(sid)}.json`);
    if (account.status === 401 || account.status === 403)
      return {
        status: 'error',
        result: 'Authentication failed',
        details: `Twilio refused the account SID and auth token (HTTP ${account.status})`,
      };
    if (account.status !== 200)
      return { status: 'error', result: 'Check failed', details: `Twilio answered HTTP ${account.status}` };
    const state = String(account.body.status ?? 'unknown');
    const label = String(account.body.friendly_name ?? sid);
    if (state !== 'active')
      return {
        status: 'error',
        result: 'Account not active',
        details: `Twilio account ${label} is ${state}`,
      };
    const numbers = await get(
      `/2010-04-01/Accounts/${encodeURIComponent(sid)}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(from)}`,
    );
    const owned =
      Array.isArray(numbers.body.incoming_phone_numbers) && numbers.body.incoming_phone_numbers.length > 0;
    if (numbers.status !== 200 || !owned)
      return {
        status: 'warning',
        result: 'Number not found',
        details: `Twilio account ${label} is active, but ${from} is not one of its phone numbers (a verified caller ID still works)`,
      };
    return {
      status: 'success',
      result: 'Connected',
      details: `Twilio account ${label} is active and calls from ${from}`,
    };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return {
      status: 'error',
      result: 'Unreachable',
      details: `Twilio could not be reached: ${e.name === 'TimeoutError' ? 'no answer in time' : (e.cause?.code ?? e.message)}`,
    };
  }
}

/**
 * Registers the checks. In services/voice/src/service.ts, once `engine`, `provider` and
 * `settings` exist: `registerDiagnostics(deps, { engine, provider, voice: settings.defaultVoice });`
 */
export function registerDiagnostics(
  deps: Pick<ServiceDeps, 'diagnostic'> & {
    config: Pick<VoiceConfig, 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_FROM_NUMBER'>;
  },
  opts: VoiceDiagnosticsOptions,
): void {
  deps.diagnostic('voice-api', () => checkSpeech(opts.engine, opts.voice));
  deps.diagnostic('twilio-integration', () =>
    checkTwilio(opts.provider, deps.config, {
      ...(opts.twilioApiBase ? { apiBase: opts.twilioApiBase } : {}),
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    }),
  );
}
