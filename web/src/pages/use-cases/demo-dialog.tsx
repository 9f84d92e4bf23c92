import clsx from 'clsx';
import { Bot, Clock, LoaderCircle, Play, RotateCcw, User, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { DialogFrame, DialogHeader } from '../../components/dialog.tsx';
import { returnFocusTo as returnFocus } from '../../components/dialog-focus.ts';
import { toast } from '../../components/toast/index.ts';
import { trackEvent } from '../../lib/analytics.ts';
import { type ScriptPlayback, type StepClock, useScriptPlayback } from '../../lib/use-script-playback.ts';
import * as ui from '../demos/shared/ui.ts';
import { type DemoScenario, SCENARIOS, STEP_GAP_MS, scenarioSeconds } from './scenarios.ts';
import type { UseCase } from './use-cases.ts';

const formatSeconds = (total: number) => `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
const speakerName = (speaker: string) => (speaker === 'ai' ? 'AI Agent' : 'Customer');

/**
 * A line with word-by-word highlighting (spec §2): a word lights up once the line's clock
 * reaches it. Words are weighted by length, which follows speech more closely than an even
 * split; the clock is the clip's real length when there is audio, so a longer or shorter
 * voice than scripted keeps the highlighting in step.
 */
function SpokenText({ text, clock }: { text: string; clock: StepClock | null }) {
  const words = useMemo(() => {
    const list = text.split(/\s+/).filter(Boolean);
    const total = list.reduce((sum, w) => sum + w.length + 1, 0);
    let before = 0;
    return list.map((word, id) => {
      const start = before / total;
      before += word.length + 1;
      return { id, word, start };
    });
  }, [text]);
  const [spoken, setSpoken] = useState(0);

  useEffect(() => {
    if (!clock) {
      setSpoken(0);
      return;
    }
    let frame = 0;
    const tick = () => {
      const share = Math.min(1, (performance.now() - clock.startedAt) / clock.ms);
      let n = 0;
      while (n < words.length && (words[n]?.start ?? 1) <= share) n++;
      setSpoken(n);
      if (share < 1) frame = requestAnimationFrame(tick);
    };
    tick();
    return () => cancelAnimationFrame(frame);
  }, [clock, words]);

  return (
    <p data-testid="spoken-text" className="text-base leading-relaxed">
      {words.map(({ id, word }) => (
        <span key={id}>
          {id > 0 ? ' ' : null}
          <span
            data-spoken={id < spoken}
            className={clsx(
              'rounded-sm transition-colors duration-150',
              id < spoken ? 'text-white' : 'text-slate-300',
              id === spoken - 1 && 'bg-brand/25',
            )}
          >
            {word}
          </span>
        </span>
      ))}
    </p>
  );
}

function statusText(p: ScriptPlayback, scenario: DemoScenario): string {
  switch (p.phase) {
    case 'idle':
      return 'Ready to start';
    case 'stopped':
      return 'Playback stopped';
    case 'ended':
      return 'Demo complete';
    default: {
      if (p.fetching) return 'Generating voice...';
      const step = scenario.steps[p.index];
      return step ? `${speakerName(step.speaker)} speaking` : 'Playing';
    }
  }
}

/** The player inside the dialog; it unmounts with the dialog's content, which stops playback. */
function DemoPlayer({ scenario, useCaseId }: { scenario: DemoScenario; useCaseId: string }) {
  const [muted, setMuted] = useState(false);
  // Spec §4 "Use-case demo playback", §8: 600 ms between lines; a clip the browser cannot play
  // stops playback with 'Audio Error' (Start goes on from that line); muting mid-line silences
  // the clip and lets the line finish on its clock. Closing the dialog stops everything.
  const playback = useScriptPlayback({
    useCase: scenario.id,
    steps: scenario.steps,
    muted,
    onMuteChange: 'finish-line',
    gapMs: STEP_GAP_MS,
    onPlayError: () =>
      toast({
        variant: 'destructive',
        title: 'Audio Error',
        description: 'Unable to play audio. Please try again.',
      }),
    report: (message, err) => console.error(`Use-case demo: ${message}`, err),
  });
  const { phase, index, clock } = playback;
  const total = scenario.steps.length;
  const current = phase === 'idle' ? 0 : index + 1;
  const shown = phase === 'idle' ? [] : scenario.steps.slice(0, index + 1);
  const transcript = useRef<HTMLDivElement>(null);

  // Keep the line being said in view as the conversation grows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a new line appears.
  useEffect(() => {
    const el = transcript.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [index, phase]);

  const onStart = () => {
    trackEvent('navigation', { category: 'use_cases', label: `demo_start:${useCaseId}` });
    playback.play();
  };

  return (
    <>
      <div className="grid grid-cols-3 gap-3 border-b border-navy-700 px-5 py-4 sm:px-6">
        <div>
          <p className="text-xs font-medium tracking-wide text-slate-300 uppercase">Call Progress</p>
          <p data-testid="call-progress" className="mt-0.5 text-lg font-semibold text-white tabular-nums">
            {current}/{total}
          </p>
        </div>
        <div>
          <p className="text-xs font-medium tracking-wide text-slate-300 uppercase">Total Duration</p>
          <p data-testid="total-duration" className="mt-0.5 text-lg font-semibold text-white tabular-nums">
            {formatSeconds(scenarioSeconds(scenario))}
          </p>
        </div>
        <div>
          <p className="text-xs font-medium tracking-wide text-slate-300 uppercase">Status</p>
          <p
            role="status"
            data-testid="demo-status"
            className="mt-0.5 flex items-center gap-1.5 text-sm font-medium text-cyan-100"
          >
            {phase === 'playing' && playback.fetching ? (
              <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : null}
            {statusText(playback, scenario)}
          </p>
        </div>
        <div
          role="progressbar"
          aria-label="Call progress"
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={current}
          aria-valuetext={`Step ${current} of ${total}`}
          className="col-span-3 h-1.5 overflow-hidden rounded-full bg-navy-700"
        >
          <div
            className="h-full rounded-full bg-brand transition-[width] duration-300"
            style={{ width: `${(current / total) * 100}%` }}
          />
        </div>
      </div>

      <section
        ref={transcript}
        // The transcript scrolls on its own, so it must be reachable by keyboard.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs focus for keyboard scrolling.
        tabIndex={0}
        aria-label="Conversation"
        className="min-h-48 flex-1 overflow-y-auto px-5 py-4 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand/60 sm:px-6"
      >
        {shown.length === 0 ? (
          <div className="flex h-full flex-col items-center justify-center gap-2 py-8 text-center">
            <p className="text-sm text-slate-200">
              Press <span className="font-semibold text-white">Start Demo</span> to hear the call, spoken by
              our voice engine, with each word highlighted as it is said.
            </p>
            <p className="text-xs text-slate-300">Use the speaker button to follow the text without sound.</p>
          </div>
        ) : (
          <ol className="space-y-3">
            {shown.map((step, i) => {
              const isAi = step.speaker === 'ai';
              const isCurrent = i === index && phase !== 'ended';
              return (
                <li
                  key={step.id}
                  data-testid={isCurrent ? 'current-line' : undefined}
                  className={clsx('flex gap-3', isAi ? 'flex-row' : 'flex-row-reverse')}
                >
                  <span
                    className={clsx(
                      'mt-1 inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full',
                      isAi ? 'bg-brand/15 text-brand' : 'bg-violet-400/15 text-violet-200',
                    )}
                    aria-hidden="true"
                  >
                    {isAi ? <Bot className="h-4 w-4" /> : <User className="h-4 w-4" />}
                  </span>
                  <div
                    className={clsx(
                      'max-w-[85%] rounded-2xl border px-4 py-2.5',
                      isAi ? 'border-navy-600 bg-navy-800' : 'border-violet-400/30 bg-violet-950/40',
                      isCurrent && 'ring-1 ring-brand/50',
                    )}
                  >
                    <p className="mb-1 text-xs font-semibold text-slate-300">
                      {speakerName(step.speaker)}
                      <span className="sr-only">, step {step.id}:</span>
                    </p>
                    {isCurrent ? (
                      <SpokenText text={step.text} clock={clock} />
                    ) : (
                      <p className="text-base leading-relaxed text-slate-100">{step.text}</p>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </section>

      <div className="flex flex-wrap items-center gap-3 border-t border-navy-700 px-5 py-4 sm:px-6">
        <button
          type="button"
          data-autofocus
          onClick={onStart}
          disabled={phase === 'playing'}
          className={ui.primaryButton}
        >
          <Play className="h-4 w-4" aria-hidden="true" />
          Start Demo
        </button>
        <button type="button" onClick={playback.restart} className={ui.secondaryButton}>
          <RotateCcw className="h-4 w-4" aria-hidden="true" />
          Restart
        </button>
        <button
          type="button"
          aria-label="Mute voice"
          aria-pressed={muted}
          onClick={() => setMuted((m) => !m)}
          className={clsx(ui.iconButton, muted && 'border-amber-300/60 text-amber-200')}
        >
          {muted ? (
            <VolumeX className="h-5 w-5" aria-hidden="true" />
          ) : (
            <Volume2 className="h-5 w-5" aria-hidden="true" />
          )}
        </button>
        <span className="text-xs text-slate-300">{muted ? 'Muted: text only' : 'Sound on'}</span>
      </div>
    </>
  );
}

/**
 * The 'Check It' dialog of a use-case card (spec §2 "Use Cases page", §4, §8): plays the
 * card's scripted nine-step conversation with speech from the voice service. A separate
 * chunk with the scripts, loaded when the page is idle or at the first 'Check It'.
 */
export default function DemoDialog({
  useCase,
  open,
  onOpenChange,
  returnFocusTo,
}: {
  useCase: UseCase;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened it, which gets focus back on close (there is no Dialog.Trigger). */
  returnFocusTo?: HTMLElement | null;
}) {
  const scenario = useCase.demoScenario ? SCENARIOS[useCase.demoScenario] : undefined;
  const Icon = useCase.icon;
  const description = scenario ? scenario.setting : 'This use case has no scripted demo yet.';
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={useCase.title}
      description={description}
      size="lg"
      variant="custom"
      testId="use-case-demo"
      onCloseAutoFocus={returnFocus(returnFocusTo)}
      onOpenAutoFocus={(e) => {
        // Start Demo is what the visitor came for.
        const target = (e.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>(
          '[data-autofocus]',
        );
        if (target) {
          e.preventDefault();
          target.focus();
        }
      }}
    >
      <DialogHeader
        className="sm:px-6"
        title={useCase.title}
        description={description}
        eyebrow={useCase.industry}
        icon={<Icon className="h-5 w-5" aria-hidden="true" />}
        note={
          scenario ? (
            <p className="mt-1 inline-flex items-center gap-1 text-xs text-slate-300">
              <Clock className="h-3.5 w-3.5" aria-hidden="true" />A {scenario.steps.length}-step call between
              the AI agent and a customer
            </p>
          ) : null
        }
      />
      {scenario ? <DemoPlayer scenario={scenario} useCaseId={useCase.id} /> : null}
    </DialogFrame>
  );
}
