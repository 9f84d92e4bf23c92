import { fileURLToPath } from 'node:url';
import { defineService, type ServiceDeps } from '@parley/kit';
import { settingsFrom, VoiceEnv, type VoiceSettings } from './config.ts';
import { createDb } from './db.ts';
import { registerDiagnostics } from './diagnostics.ts';
import { CONSUMES, PUBLISHES } from './events.ts';
import { callSimulator } from './providers/calls/simulator.ts';
import type { CallProvider } from './providers/calls/types.ts';
import { elevenLabsEngine } from './providers/speech/elevenlabs.ts';
import { localSpeechEngine } from './providers/speech/local.ts';
import { CallsRepository } from './repo/calls.repository.ts';
import { SpeechRepository } from './repo/speech.repository.ts';
import { SpeechBudgetRepository } from './repo/speech-budget.repository.ts';
import { callRoutes } from './routes/calls.ts';
import { speechRoutes } from './routes/speech.ts';
import { SpeechService } from './speech.service.ts';
import { SpeechBudget } from './speech-budget.ts';

/**
 * The speech cache's retention job, on one replica at a time (the repository also lets one
 * prune at a time): at start, then periodically. It also drops the paid budget's old buckets.
 */
function scheduleSpeechCachePruning(
  repo: SpeechRepository,
  budgetRepo: SpeechBudgetRepository,
  limits: VoiceSettings['speechCache'],
  deps: Pick<ServiceDeps, 'logger' | 'job' | 'now'>,
) {
  deps.job({
    name: 'speech-cache-retention',
    scope: 'one',
    everyMs: limits.pruneEveryMs,
    firstAfterMs: 0,
    run: async () => {
      const result = await repo.prune(limits);
      if (result.expired || result.evicted) deps.logger.info({ ...result, limits }, 'speech cache pruned');
      await budgetRepo.prune(deps.now());
    },
  });
}

/** Composition root of the voice service: speech with a cache, calls and conversations. */
export const voiceService = defineService({
  name: 'voice',
  envSchema: VoiceEnv,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  events: { publishes: PUBLISHES, consumes: CONSUMES },
  async register(app, deps) {
    const settings = settingsFrom(deps.config);
    const engine = deps.config.ELEVENLABS_API_KEY
      ? elevenLabsEngine({
          apiKey: deps.config.ELEVENLABS_API_KEY,
          model: deps.config.ELEVENLABS_MODEL ?? 'eleven_turbo_v2_5',
          ...(deps.config.ELEVENLABS_API_URL ? { baseUrl: deps.config.ELEVENLABS_API_URL } : {}),
        })
      : localSpeechEngine({ workers: deps.config.TTS_WORKERS, logger: deps.logger });
    deps.onShutdown(() => engine.close());
    deps.logger.info({ engine: engine.name, model: engine.model }, 'speech engine ready');
    const speechRepo = new SpeechRepository(deps.pool);
    const budgetRepo = new SpeechBudgetRepository(deps.pool);
    // Only a paid engine has a budget: the local one costs CPU (bounded per IP), not money.
    const budget = engine.paid
      ? new SpeechBudget(budgetRepo, settings.paidBudget, engine.name, deps.now, deps.metrics)
      : null;
    const speech = new SpeechService(engine, speechRepo, settings.memoryCacheBytes, budget);
    await speechRoutes(app, { speech, settings, deps });
    scheduleSpeechCachePruning(speechRepo, budgetRepo, settings.speechCache, deps);

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
      // Twilio's SDK loads only when configured: module loading is start-up time.
      const { twilioProvider } = await import('./providers/calls/twilio.ts');
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
    registerDiagnostics(deps, {
      engine,
      provider,
      voice: settings.defaultVoice,
      ...(deps.config.TWILIO_API_URL ? { twilioApiBase: deps.config.TWILIO_API_URL } : {}),
    });
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
