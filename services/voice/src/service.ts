import { fileURLToPath } from 'node:url';
import { defineService } from '@parley/kit';
import { callSimulator } from './calls/simulator.ts';
import { twilioProvider } from './calls/twilio.ts';
import type { CallProvider } from './calls/types.ts';
import { settingsFrom, VoiceEnv } from './config.ts';
import { createDb } from './db.ts';
import { CallsRepository } from './repo/calls.repository.ts';
import { SpeechRepository } from './repo/speech.repository.ts';
import { callRoutes } from './routes/calls.ts';
import { speechRoutes } from './routes/speech.ts';
import { elevenLabsEngine } from './speech/elevenlabs.ts';
import { localSpeechEngine } from './speech/local.ts';
import { SpeechService } from './speech/speech.service.ts';

/** Composition root of the voice service: speech with a cache, calls and conversations. */
export const voiceService = defineService({
  name: 'voice',
  envSchema: VoiceEnv,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  async register(app, deps) {
    const settings = settingsFrom(deps.config);
    const engine = deps.config.ELEVENLABS_API_KEY
      ? elevenLabsEngine({
          apiKey: deps.config.ELEVENLABS_API_KEY,
          model: deps.config.ELEVENLABS_MODEL ?? 'eleven_turbo_v2_5',
        })
      : localSpeechEngine({ workers: deps.config.TTS_WORKERS, logger: deps.logger });
    deps.onShutdown(() => engine.close());
    deps.logger.info({ engine: engine.name, model: engine.model }, 'speech engine ready');
    const speech = new SpeechService(engine, new SpeechRepository(deps.pool), settings.memoryCacheBytes);
    await speechRoutes(app, { speech, settings, deps });

    const db = createDb(deps.pool);
    deps.onShutdown(() => db.$disconnect());
    const repo = new CallsRepository(db);
    const {
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_FROM_NUMBER: from,
    } = deps.config;
    let provider: CallProvider;
    if (accountSid && authToken && from) {
      provider = twilioProvider({
        accountSid,
        authToken,
        from,
        statusCallbackUrl: `${settings.publicBaseUrl}/api/voice/twilio/status`,
        apiBaseUrl: deps.config.TWILIO_API_URL,
      });
    } else {
      const simulator = callSimulator(() => async (call, status, extra) => {
        await repo.updateStatus(call, status, extra);
      });
      deps.onShutdown(async () => simulator.stop());
      provider = simulator;
    }
    deps.logger.info({ provider: provider.name }, 'call provider ready');
    await callRoutes(app, {
      repo,
      provider,
      speech,
      settings,
      twilioAuthToken: authToken,
      deps,
      now: deps.now,
    });
  },
});
