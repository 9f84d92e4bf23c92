import type { ScriptPlayback } from '../../../lib/use-script-playback.ts';

/** What the call's screen shows of the playback (spec §4 "Simulated call"). */
export interface CallState {
  stepIndex: number;
  playing: boolean;
  /** Speech for the current step is being fetched. */
  generating: boolean;
  ended: boolean;
  /** Played since the last reset or scenario change (so a stop mid-call reads as paused). */
  started: boolean;
  /** The share of steps said to their end, 0–100, rounded. */
  progress: number;
}

export function callState(playback: ScriptPlayback, stepCount: number): CallState {
  return {
    stepIndex: playback.index,
    playing: playback.phase === 'playing',
    generating: playback.fetching,
    ended: playback.phase === 'ended',
    started: playback.phase !== 'idle',
    progress: stepCount ? Math.round((playback.completed / stepCount) * 100) : 0,
  };
}

/** The status badge above the visualizer. */
export function statusLabel(call: CallState): string {
  if (call.ended) return 'Call Ended';
  if (call.generating) return 'Generating Voice';
  if (call.playing) return 'Call Active';
  return call.started ? 'Call Paused' : 'Ready to Call';
}

/** The Status figure of the call statistics. */
export function statsStatus(call: CallState): string {
  if (call.ended) return 'Complete';
  if (call.playing) return 'Active';
  return call.started ? 'Paused' : 'Ready';
}

/** Visualizer intensity per state (spec §4). */
const INTENSITY = { generating: 0.9, playing: 0.7, idle: 0.2 };

export function intensity(call: CallState): number {
  if (call.generating) return INTENSITY.generating;
  return call.playing ? INTENSITY.playing : INTENSITY.idle;
}

export const formatSeconds = (total: number) =>
  `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;

export const speakerName = (speaker: string) => (speaker === 'ai' ? 'AI Agent' : 'Customer');
