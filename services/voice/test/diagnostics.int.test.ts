import { DEFAULT_VOICES } from '@parley/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { registerDiagnostics } from '../src/diagnostics.ts';
import { localSpeechEngine } from '../src/providers/speech/local.ts';

/** voice-api against the real local engine (eSpeak NG in a worker, LAME to MP3). */
const engine = localSpeechEngine({ workers: 1 });
afterAll(() => engine.close());

describe('voice-api with the real local engine', () => {
  it('speaks the phrase and reports it', async () => {
    const checks = new Map<string, () => Promise<{ status: string; result: string; details: string }>>();
    registerDiagnostics(
      { diagnostic: (name, run) => void checks.set(name, run), config: {} },
      {
        engine,
        provider: { name: 'simulator', simulated: true, place: async () => ({ callSid: 'x' }) },
        voice: { ...DEFAULT_VOICES[0] },
      },
    );
    const r = await checks.get('voice-api')?.();
    expect(r?.status).toBe('success');
    expect(r?.details).toMatch(/spoke "Parley diagnostics check\." as Rachel: \d+\.\d kB of MP3/);
  });
});
