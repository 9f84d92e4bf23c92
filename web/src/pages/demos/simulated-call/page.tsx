import { useState } from 'react';
import { PageMeta } from '../../../components/seo/page-meta.tsx';
import { toast } from '../../../components/toast/index.ts';
import { useScriptPlayback } from '../../../lib/use-script-playback.ts';
import * as ui from '../shared/ui.ts';
import { AudioCard } from './audio-card.tsx';
import { CallPanel, CurrentStep } from './call-screen.tsx';
import { callState } from './call-state.ts';
import { CallStats } from './call-stats.tsx';
import { Capabilities } from './capabilities.tsx';
import { ScenarioChoices, ScenarioHeader, ScenarioSelect } from './scenario-picker.tsx';
import { type CallStep, findScenario } from './scenarios.ts';
import { Transcript } from './transcript.tsx';
import { useTestAudio } from './use-test-audio.ts';

const DESCRIPTION =
  'Listen to an AI voice agent handle a real business call from start to finish: pick an industry scenario and hear every turn spoken, with live status, statistics and transcript.';

const NO_STEPS: readonly CallStep[] = [];

/**
 * The simulated call demo (spec §2 "Simulated call demo", §3, §4, §8): pick one of six
 * industry scenarios and play its nine-step call with speech from the voice service, a
 * visualizer and status, the current step, statistics and a transcript.
 *
 * This file holds the page's state and wiring; the parts are beside it: scenario-picker
 * (choose a call), call-screen (status, visualizer, controls, the current line), audio-card
 * and use-test-audio (sound on, off, tested), call-stats, transcript, capabilities. The
 * playback itself is the shared script player (lib/use-script-playback.ts).
 */
export default function SimulatedCallDemoPage() {
  const [scenarioId, setScenarioId] = useState('');
  const scenario = findScenario(scenarioId);
  // Audio is off until the first call or a working Test Audio; muted, lines are text only.
  const [audioEnabled, setAudioEnabled] = useState(false);
  const [muted, setMuted] = useState(false);
  const steps = scenario?.callSteps ?? NO_STEPS;
  // Spec §4 "Simulated call": each line spoken to its end, then the next at once; a line
  // without audio (muted, or speech failed) lasts its scripted time; muting or unmuting says
  // the current line again, with or without speech.
  const playback = useScriptPlayback({
    useCase: scenario?.id ?? '',
    steps,
    muted: !(audioEnabled && !muted),
    onMuteChange: 'restart-line',
    report: (message, err) => console.warn(`Simulated call: ${message}`, err),
  });
  const call = callState(playback, steps.length);
  const step = steps[call.stepIndex];
  const testAudio = useTestAudio((audio) => {
    setAudioEnabled(audio.enabled);
    setMuted(audio.muted);
  });

  const choose = (next: string) => {
    playback.reset();
    setScenarioId(next);
  };

  const enableAudio = () => {
    if (audioEnabled) return;
    setAudioEnabled(true);
    toast({ title: 'Audio Enabled', description: 'Voice playback is now active for call demonstrations.' });
  };

  /** Start Call (the first one turns audio on), Pause Call, Restart Call. */
  const onPrimary = () => {
    if (call.playing) return playback.pause();
    testAudio.stop();
    enableAudio();
    playback.play();
  };

  return (
    <section aria-labelledby="call-title" className={ui.pageSection}>
      <PageMeta title="Simulated Call Demo" description={DESCRIPTION} path="/simulated-call-demo" />
      <div className={ui.container}>
        <header className="max-w-3xl">
          <p className={ui.eyebrow}>Simulated Call Demo</p>
          <h1 id="call-title" className={ui.pageTitle}>
            Hear an AI agent take a real call
          </h1>
          <p className={ui.lead}>{DESCRIPTION}</p>
        </header>

        <ScenarioSelect value={scenarioId} onChoose={choose} />

        {!scenario ? (
          <ScenarioChoices onChoose={choose} />
        ) : (
          <div className="mt-6 grid gap-6 lg:grid-cols-3">
            <div className="min-w-0 space-y-6 lg:col-span-2">
              <ScenarioHeader scenario={scenario} />
              <CallPanel
                call={call}
                step={step}
                audioEnabled={audioEnabled}
                muted={muted}
                onPrimary={onPrimary}
                onReset={playback.reset}
                onToggleMute={() => setMuted((m) => !m)}
              />
              {step ? <CurrentStep step={step} call={call} stepCount={steps.length} /> : null}
            </div>

            <div className="min-w-0 space-y-6">
              <AudioCard
                audioEnabled={audioEnabled}
                muted={muted}
                testing={testAudio.testing}
                onTestAudio={() => void testAudio.test()}
              />
              <CallStats scenario={scenario} call={call} />
            </div>

            <Transcript steps={steps} call={call} />
          </div>
        )}

        <Capabilities />
      </div>
    </section>
  );
}
