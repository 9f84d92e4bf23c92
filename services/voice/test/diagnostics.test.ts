import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSpeech, checkTwilio, registerDiagnostics, VOICE_CHECK_PHRASE } from '../src/diagnostics.ts';
import type { CallProvider } from '../src/providers/calls/types.ts';
import type { SpeechEngine } from '../src/providers/speech/types.ts';

const voice = { id: 'v1', name: 'Rachel' };
const mp3 = Uint8Array.from([0xff, 0xfb, 0x90, 0x64, ...new Array(400).fill(0)]);
const engine = (synthesize: SpeechEngine['synthesize']): SpeechEngine => ({
  name: 'local',
  model: 'espeak-ng',
  paid: false,
  synthesize,
  close: async () => {},
});
const simulator: CallProvider = {
  name: 'simulator',
  simulated: true,
  place: async () => ({ callSid: 'SIM' }),
};
const twilio: CallProvider = { name: 'twilio', simulated: false, place: async () => ({ callSid: 'CA1' }) };
const SID = `AC${'1'.repeat(32)}`;
const config = {
  TWILIO_ACCOUNT_SID: SID,
  TWILIO_AUTH_TOKEN: 'token-0123456789ab',
  TWILIO_FROM_NUMBER: '+16175550142',
};

describe('voice-api', () => {
  it('succeeds when the engine really speaks the phrase as MP3', async () => {
    const spoken: string[] = [];
    const r = await checkSpeech(
      engine(async (text, v, speaker) => {
        spoken.push(`${text}|${v.name}|${speaker}`);
        return mp3;
      }),
      voice,
    );
    expect(spoken).toEqual([`${VOICE_CHECK_PHRASE}|Rachel|ai`]);
    expect(r.status).toBe('success');
    expect(r.details).toMatch(
      /^The local engine \(espeak-ng\) spoke "Parley diagnostics check\." as Rachel: 0\.4 kB of MP3 in \d+ ms$/,
    );
  });

  it('fails when the engine throws or answers something that is not audio', async () => {
    const thrown = await checkSpeech(
      engine(async () => {
        throw new Error('ElevenLabs answered 401: invalid key');
      }),
      voice,
    );
    expect(thrown).toMatchObject({ status: 'error', result: 'Synthesis failed' });
    expect(thrown.details).toContain('ElevenLabs answered 401: invalid key');
    const junk = await checkSpeech(
      engine(async () => new TextEncoder().encode('<html>error</html>')),
      voice,
    );
    expect(junk).toMatchObject({ status: 'error', result: 'No audio' });
  });
});

describe('twilio-integration', () => {
  let server: Server;
  let base: string;
  let account = { status: 200, body: { status: 'active', friendly_name: 'Parley Sales' } as object };
  let numbers: unknown[] = [{ phone_number: '+16175550142' }];
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization ?? ''}`);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url?.includes('/IncomingPhoneNumbers.json'))
        return json(200, { incoming_phone_numbers: numbers });
      return json(account.status, account.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is a warning while calls go to the simulator', async () => {
    const r = await checkTwilio(simulator, {});
    expect(r).toMatchObject({ status: 'warning', result: 'Simulator' });
    expect(r.details).toContain('local simulator');
  });

  it('succeeds for an active account that owns the from number, with basic auth', async () => {
    const r = await checkTwilio(twilio, config, { apiBase: base });
    expect(r).toEqual({
      status: 'success',
      result: 'Connected',
      details: 'Twilio account Parley Sales is active and calls from +16175550142',
    });
    const auth = `Basic ${Buffer.from(`${SID}:token-0123456789ab`).toString('base64')}`;
    expect(seen).toContain(`/2010-04-01/Accounts/${SID}.json ${auth}`);
    expect(seen).toContain(
      `/2010-04-01/Accounts/${SID}/IncomingPhoneNumbers.json?PhoneNumber=%2B16175550142 ${auth}`,
    );
  });

  it('warns when the number is not the account’s, fails on bad credentials or a suspended account', async () => {
    numbers = [];
    expect(await checkTwilio(twilio, config, { apiBase: base })).toMatchObject({
      status: 'warning',
      result: 'Number not found',
    });
    account = { status: 401, body: { code: 20003, message: 'Authenticate' } };
    expect(await checkTwilio(twilio, config, { apiBase: base })).toMatchObject({
      status: 'error',
      result: 'Authentication failed',
    });
    account = { status: 200, body: { status: 'suspended', friendly_name: 'Parley Sales' } };
    expect(await checkTwilio(twilio, config, { apiBase: base })).toEqual({
      status: 'error',
      result: 'Account not active',
      details: 'Twilio account Parley Sales is suspended',
    });
  });

  it('fails, naming why, when Twilio cannot be reached', async () => {
    const r = await checkTwilio(twilio, config, { apiBase: 'http://127.0.0.1:1' });
    expect(r).toMatchObject({ status: 'error', result: 'Unreachable' });
    expect(r.details).toMatch(/^Twilio could not be reached: /);
  });
});

describe('registerDiagnostics', () => {
  it('registers voice-api and twilio-integration', async () => {
    const checks = new Map<string, () => Promise<unknown>>();
    registerDiagnostics(
      { diagnostic: (name, run) => void checks.set(name, run), config: {} },
      { engine: engine(async () => mp3), provider: simulator, voice },
    );
    expect([...checks.keys()]).toEqual(['voice-api', 'twilio-integration']);
    expect(await checks.get('voice-api')?.()).toMatchObject({ status: 'success' });
    expect(await checks.get('twilio-integration')?.()).toMatchObject({ status: 'warning' });
  });
});
