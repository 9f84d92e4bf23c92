import type { Speaker } from '@parley/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { sleep } from './sleep.ts';
import { fetchSpeech, playSpeech, SPEECH_VOLUME } from './speech.ts';

/** One line of a scripted conversation. */
export interface ScriptStep {
  id: number;
  speaker: Speaker;
  text: string;
  /** Seconds the line takes to say: its length when muted or without audio. */
  duration: number;
}

/**
 * The clock of the line being said, for word-by-word highlighting: it started at `startedAt`
 * (performance.now()) and lasts `ms`. With speech it is the clip's real length, so the
 * highlighting keeps pace with the voice even when it is longer or shorter than scripted.
 */
export interface StepClock {
  startedAt: number;
  ms: number;
}

/** idle: not started (or reset); stopped: paused, or halted by an audio error; ended: all said. */
export type PlaybackPhase = 'idle' | 'playing' | 'stopped' | 'ended';

export interface ScriptPlaybackOptions {
  /** The scenario's id, sent with each speech request. */
  useCase: string;
  steps: readonly ScriptStep[];
  /** No speech: each line lasts its scripted duration. */
  muted: boolean;
  /**
   * What muting or unmuting mid-line does: 'finish-line' silences the clip at once and lets
   * the line end on its clock (unmuting waits for the next line); 'restart-line' says the
   * current line again from its start, with or without speech.
   */
  onMuteChange: 'finish-line' | 'restart-line';
  /** Pause between two lines. */
  gapMs?: number;
  /**
   * A clip the browser cannot play: given, playback stops on that line and this is called
   * (Start resumes from it); without it, the line lasts its scripted duration instead.
   */
  onPlayError?: () => void;
  /** Where a line without speech is reported (logged; spec §8: the line goes on silently). */
  report: (message: string, err: unknown) => void;
}

export interface ScriptPlayback {
  phase: PlaybackPhase;
  /** Index of the step being (or last) played; 0 before the start. */
  index: number;
  /** Steps said to their end since the start. */
  completed: number;
  /** The current line's clock; null while its speech is being fetched or before the start. */
  clock: StepClock | null;
  /** Speech for the current step is being fetched. */
  fetching: boolean;
  /** Start; after a stop, go on from the step it stopped at; from the end, again from step 1. */
  play: () => void;
  /** Stop where it is (the current line starts again on play). */
  pause: () => void;
  /** Stop and go back to step 1, not started. */
  reset: () => void;
  /** Stop any audio and play from step 1. */
  restart: () => void;
}

type LineOutcome = 'done' | 'failed';

/**
 * Plays a scripted conversation with synthesised speech, step by step (the use-case demos and
 * the simulated call): each line's speech is fetched from the voice service and played to its
 * end, then, after `gapMs`, the next line, until the last. A failed speech request is reported
 * and the line lasts its scripted duration; muted, nothing is fetched. Stopping, resetting,
 * restarting and unmounting abort the speech in flight (fetch and audio).
 */
export function useScriptPlayback({
  useCase,
  steps,
  muted,
  onMuteChange,
  gapMs = 0,
  onPlayError,
  report,
}: ScriptPlaybackOptions): ScriptPlayback {
  const [phase, setPhase] = useState<PlaybackPhase>('idle');
  const [index, setIndex] = useState(0);
  const [completed, setCompleted] = useState(0);
  const [clock, setClock] = useState<StepClock | null>(null);
  const [fetching, setFetching] = useState(false);
  // A new run of the same step (Restart from step 1 while on step 1).
  const [run, setRun] = useState(0);
  const mutedRef = useRef(muted);
  // The speech of the current line alone, so muting can silence it without ending the line.
  const clip = useRef<AbortController | null>(null);
  // Read when a line runs, so callers may pass fresh functions on every render.
  const callbacks = useRef({ onPlayError, report });
  callbacks.current = { onPlayError, report };

  // 'restart-line': the mute state is part of what a line run depends on.
  const restartKey = onMuteChange === 'restart-line' ? muted : false;

  useEffect(() => {
    mutedRef.current = muted;
    if (muted && onMuteChange === 'finish-line') clip.current?.abort();
  }, [muted, onMuteChange]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `run` and `restartKey` start the line again.
  useEffect(() => {
    if (phase !== 'playing') return;
    const step = steps[index];
    if (!step) return;
    const controller = new AbortController();
    const { signal } = controller;

    /** Says the line; resolves when it is over, or 'failed' when its audio could not play. */
    const sayLine = async (): Promise<LineOutcome> => {
      const scheduledMs = step.duration * 1000;
      if (!mutedRef.current) {
        const line = new AbortController();
        clip.current = line;
        const stopLine = () => line.abort();
        signal.addEventListener('abort', stopLine, { once: true });
        try {
          let blob: Blob | null = null;
          setFetching(true);
          try {
            blob = await fetchSpeech({ text: step.text, speaker: step.speaker, useCase }, line.signal);
          } catch (err) {
            // A failed request is reported and the line goes on without audio (spec §8).
            if (!line.signal.aborted) callbacks.current.report(`no speech for step ${step.id}`, err);
          } finally {
            if (!signal.aborted) setFetching(false);
          }
          if (signal.aborted) return 'done';
          if (blob && !line.signal.aborted) {
            let started: StepClock | null = null;
            try {
              await playSpeech(blob, {
                volume: SPEECH_VOLUME,
                signal: line.signal,
                onStart: (seconds) => {
                  const ms = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : scheduledMs;
                  started = { startedAt: performance.now(), ms };
                  setClock(started);
                },
              });
              if (signal.aborted || !line.signal.aborted) return 'done';
              // Muted mid-line: the line finishes silently on the clock it was following.
              const current = started as StepClock | null;
              if (current) {
                await sleep(Math.max(0, current.startedAt + current.ms - performance.now()), signal);
                return 'done';
              }
            } catch (err) {
              if (signal.aborted) return 'done';
              callbacks.current.report(`could not play step ${step.id}`, err);
              if (callbacks.current.onPlayError) return 'failed';
            }
          }
        } finally {
          signal.removeEventListener('abort', stopLine);
          if (clip.current === line) clip.current = null;
        }
      }
      // Muted, or no audio for this line: it lasts its scripted duration.
      setClock({ startedAt: performance.now(), ms: scheduledMs });
      await sleep(scheduledMs, signal);
      return 'done';
    };

    void (async () => {
      setClock(null);
      const outcome = await sayLine();
      if (signal.aborted) return;
      if (outcome === 'failed') {
        setClock(null);
        setPhase('stopped');
        callbacks.current.onPlayError?.();
        return;
      }
      const done = index + 1;
      setCompleted(done);
      if (done >= steps.length) {
        setPhase('ended');
        return;
      }
      if (gapMs > 0) {
        await sleep(gapMs, signal);
        if (signal.aborted) return;
      }
      // The next line's clock starts with it: its words are never drawn on the last line's clock.
      setClock(null);
      setIndex(done);
    })();
    return () => {
      controller.abort();
      setFetching(false);
    };
  }, [phase, index, steps, useCase, gapMs, run, restartKey]);

  const play = useCallback(() => {
    if (phase === 'playing') return;
    if (phase === 'ended' || phase === 'idle') {
      setIndex(0);
      setCompleted(0);
    }
    setClock(null);
    setPhase('playing');
    setRun((n) => n + 1);
  }, [phase]);

  const pause = useCallback(() => {
    setPhase((p) => (p === 'playing' ? 'stopped' : p));
  }, []);

  const reset = useCallback(() => {
    setPhase('idle');
    setIndex(0);
    setCompleted(0);
    setClock(null);
  }, []);

  const restart = useCallback(() => {
    setClock(null);
    setIndex(0);
    setCompleted(0);
    setPhase('playing');
    setRun((n) => n + 1);
  }, []);

  return { phase, index, completed, clock, fetching, play, pause, reset, restart };
}
