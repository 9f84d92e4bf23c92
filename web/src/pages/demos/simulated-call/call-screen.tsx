import clsx from 'clsx';
import { Bot, Pause, Phone, PhoneOff, Play, RotateCcw, User, Volume2, VolumeX } from 'lucide-react';
import { useId } from 'react';
import * as ui from '../shared/ui.ts';
import { VoiceWave } from '../voice-wave/voice-wave.tsx';
import { type CallState, intensity, speakerName, statusLabel } from './call-state.ts';
import type { CallStep, Emotion } from './scenarios.ts';

const EMOTION_STYLES: Record<Emotion, string> = {
  professional: 'bg-sky-400/15 text-sky-200',
  friendly: 'bg-emerald-400/15 text-emerald-200',
  neutral: 'bg-slate-400/15 text-slate-200',
  excited: 'bg-fuchsia-400/15 text-fuchsia-200',
  concerned: 'bg-amber-400/15 text-amber-200',
  interested: 'bg-cyan-400/15 text-cyan-200',
  relieved: 'bg-teal-400/15 text-teal-200',
};

/**
 * The phone itself: the call's status, the visualizer (the customer's lines in the accent
 * colour) and the controls: Start / Pause / Restart Call, Reset, Mute.
 */
export function CallPanel({
  call,
  step,
  audioEnabled,
  muted,
  onPrimary,
  onReset,
  onToggleMute,
}: {
  call: CallState;
  step: CallStep | undefined;
  audioEnabled: boolean;
  muted: boolean;
  onPrimary: () => void;
  onReset: () => void;
  onToggleMute: () => void;
}) {
  const status = statusLabel(call);
  return (
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
          {status}
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
          intensity={intensity(call)}
          size="md"
          restProfile
          variant={call.playing && step?.speaker === 'customer' ? 'accent' : 'primary'}
          label={`Call visualizer: ${status}`}
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
          onClick={onReset}
          aria-label="Reset call"
          title="Reset call"
          className={ui.iconButton}
        >
          <RotateCcw className="h-4 w-4" aria-hidden="true" />
        </button>
        <button
          type="button"
          onClick={onToggleMute}
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
  );
}

/** The line being said: who, in what tone, 'Step n of 9', its text and the call's progress bar. */
export function CurrentStep({
  step,
  call,
  stepCount,
}: {
  step: CallStep;
  call: CallState;
  stepCount: number;
}) {
  const id = useId();
  return (
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
            Step {call.stepIndex + 1} of {stepCount}
          </span>
        </div>
      </div>
      <p className="mt-4 text-lg text-slate-100">“{step.text}”</p>
      <div
        role="progressbar"
        aria-label="Call progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={call.progress}
        className="mt-5 h-2 overflow-hidden rounded-full bg-navy-700"
      >
        <div
          className="h-full rounded-full bg-brand transition-[width] duration-500"
          style={{ width: `${call.progress}%` }}
        />
      </div>
    </section>
  );
}
