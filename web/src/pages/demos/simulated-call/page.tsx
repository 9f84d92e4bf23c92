import clsx from 'clsx';
import {
  BarChart3,
  Bot,
  Car,
  ChevronDown,
  ChevronUp,
  Clock,
  Gauge,
  Headphones,
  House,
  Landmark,
  Languages,
  type LucideIcon,
  Pause,
  Phone,
  PhoneOff,
  Play,
  RotateCcw,
  Scale,
  ShieldCheck,
  Stethoscope,
  User,
  UtensilsCrossed,
  Volume2,
  VolumeX,
  Workflow,
} from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { PageMeta } from '../../../components/seo/page-meta.tsx';
import { toast } from '../../../components/toast/index.ts';
import { fetchSpeech, playSpeech, TEST_AUDIO_VOLUME } from '../../../lib/speech.ts';
import { useScriptPlayback } from '../../../lib/use-script-playback.ts';
import * as ui from '../shared/ui.ts';
import { VoiceWave } from '../voice-wave/voice-wave.tsx';
import {
  CALL_SCENARIOS,
  type CallScenario,
  type CallStep,
  type Emotion,
  findScenario,
  type ScenarioIcon,
  scenarioSeconds,
} from './scenarios.ts';

const DESCRIPTION =
  'Listen to an AI voice agent handle a real business call from start to finish: pick an industry scenario and hear every turn spoken, with live status, statistics and transcript.';

const TEST_AUDIO_TEXT = 'Audio test. If you can hear this, voice playback is working.';

const ICONS: Record<ScenarioIcon, LucideIcon> = {
  stethoscope: Stethoscope,
  utensils: UtensilsCrossed,
  home: House,
  landmark: Landmark,
  scale: Scale,
  car: Car,
};

const EMOTION_STYLES: Record<Emotion, string> = {
  professional: 'bg-sky-400/15 text-sky-200',
  friendly: 'bg-emerald-400/15 text-emerald-200',
  neutral: 'bg-slate-400/15 text-slate-200',
  excited: 'bg-fuchsia-400/15 text-fuchsia-200',
  concerned: 'bg-amber-400/15 text-amber-200',
  interested: 'bg-cyan-400/15 text-cyan-200',
  relieved: 'bg-teal-400/15 text-teal-200',
};

/** Visualizer intensity per state (spec §4). */
const INTENSITY = { generating: 0.9, playing: 0.7, idle: 0.2 };

const CAPABILITIES = [
  {
    icon: Headphones,
    title: 'Natural voices',
    text: 'Human-sounding speech with distinct voices for each side.',
  },
  {
    icon: Workflow,
    title: 'Industry scripts',
    text: 'Flows tuned for scheduling, reservations, sales and more.',
  },
  { icon: Languages, title: '50+ languages', text: 'Callers are answered in the language they speak.' },
  {
    icon: ShieldCheck,
    title: 'Compliance built in',
    text: 'Disclosures and guardrails for regulated industries.',
  },
  { icon: Gauge, title: 'Fast responses', text: 'Sub-second replies keep the conversation flowing.' },
  { icon: BarChart3, title: 'Call analytics', text: 'Every call is transcribed, summarised and measured.' },
];

const NO_STEPS: readonly CallStep[] = [];

const formatSeconds = (total: number) => `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
const speakerName = (speaker: string) => (speaker === 'ai' ? 'AI Agent' : 'Customer');

function ScenarioHeader({ scenario }: { scenario: CallScenario }) {
  const Icon = ICONS[scenario.icon];
  return (
    <div className={clsx(ui.card, 'flex flex-col gap-4 sm:flex-row sm:items-start')}>
      <span className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-brand/15 text-brand">
        <Icon className="h-6 w-6" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-xl font-semibold text-white">{scenario.title}</h2>
          <span className={clsx(ui.badge, 'bg-brand/15 text-cyan-200')}>{scenario.industry}</span>
        </div>
        <p className="mt-1 text-sm text-slate-300">{scenario.description}</p>
        <p className="mt-2 text-sm text-slate-200">
          <span className="font-semibold">Scenario:</span> {scenario.scenario}
        </p>
      </div>
    </div>
  );
}

/**
 * The simulated call demo (spec §2 "Simulated call demo", §3, §4, §8): pick one of six
 * industry scenarios and play its nine-step call with speech from the voice service, a
 * visualizer and status, the current step, statistics and a transcript.
 */
export default function SimulatedCallDemoPage() {
  const id = useId();
  const [scenarioId, setScenarioId] = useState('');
  const scenario = findScenario(scenarioId);
  const [audioEnabled, setAudioEnabled] = useState(false);
  const [muted, setMuted] = useState(false);
  const [testing, setTesting] = useState(false);
  const [showTranscript, setShowTranscript] = useState(false);
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
  const call = {
    stepIndex: playback.index,
    playing: playback.phase === 'playing',
    generating: playback.fetching,
    ended: playback.phase === 'ended',
    /** Played since the last reset or scenario change (so a stop mid-call reads as paused). */
    started: playback.phase !== 'idle',
  };
  const testAudio = useRef<AbortController | null>(null);

  // Test Audio's clip stops with the page.
  useEffect(() => () => testAudio.current?.abort(), []);

  const choose = (next: string) => {
    playback.reset();
    setScenarioId(next);
  };

  const enableAudio = () => {
    if (audioEnabled) return;
    setAudioEnabled(true);
    toast({ title: 'Audio Enabled', description: 'Voice playback is now active for call demonstrations.' });
  };

  const onPrimary = () => {
    if (call.playing) return playback.pause();
    testAudio.current?.abort();
    enableAudio();
    playback.play();
  };

  const onTestAudio = async () => {
    testAudio.current?.abort();
    const controller = new AbortController();
    testAudio.current = controller;
    const { signal } = controller;
    let started = false;
    setTesting(true);
    try {
      const blob = await fetchSpeech({ text: TEST_AUDIO_TEXT, speaker: 'ai' }, signal);
      await playSpeech(blob, {
        volume: TEST_AUDIO_VOLUME,
        signal,
        onStart: () => {
          started = true;
          setAudioEnabled(true);
          setMuted(false);
          toast({ title: 'Audio Working', description: 'Voice synthesis is now active' });
        },
      });
    } catch (err) {
      if (signal.aborted || started) return;
      console.warn('Test Audio failed', err);
      // Text-only mode: the call still runs, each line shown for its scripted time.
      setAudioEnabled(true);
      setMuted(true);
      toast({ variant: 'destructive', title: 'Audio Test Failed', description: 'Using text-only mode' });
    } finally {
      if (testAudio.current === controller) {
        testAudio.current = null;
        setTesting(false);
      }
    }
  };

  const step = steps[call.stepIndex];
  const statusLabel = call.ended
    ? 'Call Ended'
    : call.generating
      ? 'Generating Voice'
      : call.playing
        ? 'Call Active'
        : call.started
          ? 'Call Paused'
          : 'Ready to Call';
  const statsStatus = call.ended ? 'Complete' : call.playing ? 'Active' : call.started ? 'Paused' : 'Ready';
  const intensity = call.generating
    ? INTENSITY.generating
    : call.playing
      ? INTENSITY.playing
      : INTENSITY.idle;
  // The share of steps said to their end.
  const progress = steps.length ? Math.round((playback.completed / steps.length) * 100) : 0;

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

        <div className="mt-8 max-w-md">
          <label htmlFor={`${id}-scenario`} className={ui.label}>
            Industry scenario
          </label>
          <div className="relative mt-1.5">
            <select
              id={`${id}-scenario`}
              value={scenarioId}
              onChange={(e) => choose(e.target.value)}
              className="block w-full appearance-none rounded-xl border border-navy-600 bg-navy-800 py-2.5 pr-10 pl-3 text-sm text-slate-100 focus:border-brand"
            >
              <option value="" disabled>
                Select an industry scenario...
              </option>
              {CALL_SCENARIOS.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.industry}: {s.title}
                </option>
              ))}
            </select>
            <ChevronDown
              className="pointer-events-none absolute top-1/2 right-3 h-4 w-4 -translate-y-1/2 text-slate-300"
              aria-hidden="true"
            />
          </div>
        </div>

        {!scenario ? (
          <div className={clsx(ui.card, 'mt-6')}>
            <h2 className={ui.cardTitle}>Choose a scenario to place the call</h2>
            <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {CALL_SCENARIOS.map((s) => {
                const Icon = ICONS[s.icon];
                return (
                  <li key={s.id}>
                    <button
                      type="button"
                      onClick={() => choose(s.id)}
                      className="flex h-full w-full gap-3 rounded-xl border border-navy-600 bg-navy-800 p-4 text-left transition hover:border-brand"
                    >
                      <Icon className="mt-0.5 h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
                      <span>
                        <span className="block text-xs font-semibold tracking-wide text-cyan-200 uppercase">
                          {s.industry}
                        </span>
                        <span className="block font-medium text-white">{s.title}</span>
                        <span className="mt-1 block text-sm text-slate-300">{s.description}</span>
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>
        ) : (
          <div className="mt-6 grid gap-6 lg:grid-cols-3">
            <div className="min-w-0 space-y-6 lg:col-span-2">
              <ScenarioHeader scenario={scenario} />

              <div className={ui.card}>
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <p
                    data-testid="call-status"
                    className={clsx(
                      ui.badge,
                      'px-3 py-1 text-sm',
                      call.ended
                        ? 'bg-navy-700 text-slate-100'
                        : call.playing
                          ? 'bg-emerald-400/15 text-emerald-200'
                          : 'bg-brand/15 text-cyan-200',
                    )}
                  >
                    {call.ended ? (
                      <PhoneOff className="h-4 w-4" aria-hidden="true" />
                    ) : (
                      <Phone className="h-4 w-4" aria-hidden="true" />
                    )}
                    {statusLabel}
                  </p>
                  {muted && audioEnabled ? (
                    <p className={clsx(ui.badge, 'bg-amber-400/15 text-amber-200')}>
                      <VolumeX className="h-3.5 w-3.5" aria-hidden="true" />
                      Muted: text only
                    </p>
                  ) : null}
                </div>
                <div className="my-6 rounded-xl border border-navy-700 bg-navy-950 px-4 py-6">
                  <VoiceWave
                    active={call.playing}
                    intensity={intensity}
                    size="md"
                    restProfile
                    variant={
                      call.playing && steps[call.stepIndex]?.speaker === 'customer' ? 'accent' : 'primary'
                    }
                    label={`Call visualizer: ${statusLabel}`}
                  />
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  <button type="button" onClick={onPrimary} className={ui.primaryButton}>
                    {call.playing ? (
                      <Pause className="h-4 w-4" aria-hidden="true" />
                    ) : call.ended ? (
                      <RotateCcw className="h-4 w-4" aria-hidden="true" />
                    ) : (
                      <Play className="h-4 w-4" aria-hidden="true" />
                    )}
                    {call.playing ? 'Pause Call' : call.ended ? 'Restart Call' : 'Start Call'}
                  </button>
                  <button
                    type="button"
                    onClick={playback.reset}
                    aria-label="Reset call"
                    title="Reset call"
                    className={ui.iconButton}
                  >
                    <RotateCcw className="h-4 w-4" aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    onClick={() => setMuted((m) => !m)}
                    disabled={!audioEnabled}
                    aria-pressed={muted}
                    aria-label="Mute voice"
                    title={audioEnabled ? (muted ? 'Unmute voice' : 'Mute voice') : 'Enable audio first'}
                    className={ui.iconButton}
                  >
                    {muted ? (
                      <VolumeX className="h-4 w-4" aria-hidden="true" />
                    ) : (
                      <Volume2 className="h-4 w-4" aria-hidden="true" />
                    )}
                  </button>
                </div>
              </div>

              {step ? (
                <section aria-labelledby={`${id}-step`} className={ui.card} data-testid="current-step">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h2 id={`${id}-step`} className="flex items-center gap-2 font-semibold text-white">
                      {step.speaker === 'ai' ? (
                        <Bot className="h-5 w-5 text-brand" aria-hidden="true" />
                      ) : (
                        <User className="h-5 w-5 text-fuchsia-300" aria-hidden="true" />
                      )}
                      {speakerName(step.speaker)}
                    </h2>
                    <div className="flex items-center gap-2">
                      <span className={clsx(ui.badge, EMOTION_STYLES[step.emotion])}>{step.emotion}</span>
                      <span className="text-sm text-slate-300">
                        Step {call.stepIndex + 1} of {steps.length}
                      </span>
                    </div>
                  </div>
                  <p className="mt-4 text-lg text-slate-100">“{step.text}”</p>
                  <div
                    role="progressbar"
                    aria-label="Call progress"
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={progress}
                    className="mt-5 h-2 overflow-hidden rounded-full bg-navy-700"
                  >
                    <div
                      className="h-full rounded-full bg-brand transition-[width] duration-500"
                      style={{ width: `${progress}%` }}
                    />
                  </div>
                </section>
              ) : null}
            </div>

            <div className="min-w-0 space-y-6">
              <section aria-labelledby={`${id}-audio`} className={ui.card}>
                <h2 id={`${id}-audio`} className="flex items-center gap-2 font-semibold text-white">
                  {audioEnabled && !muted ? (
                    <Volume2 className="h-5 w-5 text-brand" aria-hidden="true" />
                  ) : (
                    <VolumeX className="h-5 w-5 text-amber-300" aria-hidden="true" />
                  )}
                  {audioEnabled ? (muted ? 'Text-only mode' : 'Voice playback on') : 'Turn on voice playback'}
                </h2>
                <p className="mt-2 text-sm text-slate-300">
                  {audioEnabled
                    ? muted
                      ? 'Lines are shown for their scripted time without speech. Unmute to hear the call.'
                      : 'Each turn of the call is spoken aloud. Use the mute button for text only.'
                    : 'Sound starts with your first call. Check your speakers first with a short test clip.'}
                </p>
                <button
                  type="button"
                  onClick={() => void onTestAudio()}
                  disabled={testing}
                  className={clsx(ui.secondaryButton, 'mt-4')}
                >
                  <Headphones className="h-4 w-4" aria-hidden="true" />
                  {testing ? 'Testing...' : 'Test Audio'}
                </button>
              </section>

              <section aria-labelledby={`${id}-stats`} className={ui.card}>
                <h2 id={`${id}-stats`} className="font-semibold text-white">
                  Call Statistics
                </h2>
                <dl className="mt-4 grid grid-cols-2 gap-3" data-testid="call-stats">
                  {[
                    { label: 'Duration', value: formatSeconds(scenarioSeconds(scenario)), icon: Clock },
                    { label: 'Steps', value: `${call.stepIndex + 1}/${steps.length}`, icon: Workflow },
                    { label: 'Progress', value: `${progress}%`, icon: BarChart3 },
                    { label: 'Status', value: statsStatus, icon: Phone },
                  ].map((s) => (
                    <div key={s.label} className="rounded-xl border border-navy-700 bg-navy-800/60 p-3">
                      <dt className="flex items-center gap-1.5 text-xs text-slate-300">
                        <s.icon className="h-3.5 w-3.5" aria-hidden="true" />
                        {s.label}
                      </dt>
                      <dd className="mt-1 text-lg font-semibold text-white tabular-nums">{s.value}</dd>
                    </div>
                  ))}
                </dl>
              </section>
            </div>

            <section aria-labelledby={`${id}-transcript`} className={clsx(ui.card, 'lg:col-span-3')}>
              <div className="flex items-center justify-between gap-3">
                <h2 id={`${id}-transcript`} className="font-semibold text-white">
                  Call Transcript
                </h2>
                <button
                  type="button"
                  aria-expanded={showTranscript}
                  aria-controls={`${id}-transcript-list`}
                  onClick={() => setShowTranscript((s) => !s)}
                  className={ui.secondaryButton}
                >
                  {showTranscript ? (
                    <ChevronUp className="h-4 w-4" aria-hidden="true" />
                  ) : (
                    <ChevronDown className="h-4 w-4" aria-hidden="true" />
                  )}
                  {showTranscript ? 'Hide' : 'Show'}
                  <span className="sr-only"> transcript</span>
                </button>
              </div>
              <ol id={`${id}-transcript-list`} hidden={!showTranscript} className="mt-4 space-y-2">
                {steps.map((s, i) => {
                  const current = i === call.stepIndex && !call.ended;
                  return (
                    <li
                      key={s.id}
                      aria-current={current ? 'step' : undefined}
                      className={clsx(
                        'rounded-xl border p-3 transition',
                        current ? 'border-brand bg-brand/10' : 'border-navy-700 bg-navy-800/40',
                      )}
                    >
                      <p className="flex items-center gap-2 text-xs font-semibold text-slate-300">
                        {s.speaker === 'ai' ? (
                          <Bot className="h-3.5 w-3.5 text-brand" aria-hidden="true" />
                        ) : (
                          <User className="h-3.5 w-3.5 text-fuchsia-300" aria-hidden="true" />
                        )}
                        {speakerName(s.speaker)} · {s.duration}s
                      </p>
                      <p className="mt-1 text-sm text-slate-100">{s.text}</p>
                    </li>
                  );
                })}
              </ol>
            </section>
          </div>
        )}

        <section aria-labelledby={`${id}-capabilities`} className="mt-12">
          <h2 id={`${id}-capabilities`} className="text-2xl font-bold text-white">
            What the agent can do on your calls
          </h2>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {CAPABILITIES.map((c) => (
              <li key={c.title} className={ui.card}>
                <c.icon className="h-6 w-6 text-brand" aria-hidden="true" />
                <h3 className="mt-3 font-semibold text-white">{c.title}</h3>
                <p className="mt-1 text-sm text-slate-300">{c.text}</p>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </section>
  );
}
