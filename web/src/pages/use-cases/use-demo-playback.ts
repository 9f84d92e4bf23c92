import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { sleep } from '../../lib/sleep.ts';
import { fetchSpeech, playSpeech, SPEECH_VOLUME } from '../../lib/speech.ts';
import { type DemoScenario, type DemoStep, STEP_GAP_MS } from './scenarios.ts';

/**
 * The clock of the line being said, for the word-by-word highlighting: it started at
 * `startedAt` (performance.now()) and lasts `ms`. With speech it is the clip's real length,
 * so the highlighting keeps pace with the voice even when it is longer or shorter than scripted.
 */
export interface StepClock {
  startedAt: number;
  ms: number;
}

export type DemoPhase = 'idle' | 'playing' | 'stopped' | 'ended';

export interface DemoPlayback {
  phase: DemoPhase;
  /** Index of the step being (or last) played; 0 before the start. */
  index: number;
  /** The current line's clock; null while its speech is being fetched or before the start. */
  clock: StepClock | null;
  /** Speech for the current step is being fetched. */
  fetching: boolean;
  muted: boolean;
  toggleMute: () => void;
  /** Start Demo: from step 1, or after an audio error from the step that failed. */
  start: () => void;
  /** Restart: stops any audio and plays from step 1. */
  restart: () => void;
}

type StepOutcome = 'done' | 'failed' | 'aborted';

/**
 * Playback of a use-case demo (spec §4 "Use-case demo playback", §8): each step's speech is
 * fetched from the voice service and played to its end, then the next step starts after
 * 600 ms, until the last step. A non-OK speech answer is logged and the step runs on its
 * scripted duration, silently; a clip the browser cannot play stops playback with the toast
 * 'Audio Error'. Muted, nothing is fetched and each step lasts its duration; muting mid-line
 * silences the clip at once and lets the line finish on its clock. Unmounting (closing the
 * dialog) stops everything.
 */
export function useDemoPlayback(scenario: DemoScenario): DemoPlayback {
  const [phase, setPhase] = useState<DemoPhase>('idle');
  const [index, setIndex] = useState(0);
  const [clock, setClock] = useState<StepClock | null>(null);
  const [fetching, setFetching] = useState(false);
  const [muted, setMuted] = useState(false);
  const mutedRef = useRef(false);
  const run = useRef<AbortController | null>(null);
  // The speech of the current line alone, so muting can silence it without ending the run.
  const clip = useRef<AbortController | null>(null);

  /** Says one line; resolves when it is over, or 'failed' when its audio could not play. */
  const playStep = useCallback(
    async (step: DemoStep, signal: AbortSignal): Promise<StepOutcome> => {
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
            blob = await fetchSpeech(
              { text: step.text, speaker: step.speaker, useCase: scenario.id },
              line.signal,
            );
          } catch (err) {
            // A failed request is logged and the line goes on without audio (spec §8).
            if (!line.signal.aborted) console.error(`Use-case demo: no speech for step ${step.id}`, err);
          } finally {
            if (!signal.aborted) setFetching(false);
          }
          if (signal.aborted) return 'aborted';
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
            } catch (err) {
              if (signal.aborted) return 'aborted';
              console.error(`Use-case demo: could not play step ${step.id}`, err);
              toast({
                variant: 'destructive',
                title: 'Audio Error',
                description: 'Unable to play audio. Please try again.',
              });
              return 'failed';
            }
            if (signal.aborted) return 'aborted';
            if (!line.signal.aborted) return 'done';
            // Muted mid-line: the line finishes silently on the clock it was following.
            const current = started as StepClock | null;
            if (current) {
              await sleep(Math.max(0, current.startedAt + current.ms - performance.now()), signal);
              return signal.aborted ? 'aborted' : 'done';
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
      return signal.aborted ? 'aborted' : 'done';
    },
    [scenario.id],
  );

  const playFrom = useCallback(
    async (from: number) => {
      // One run at a time: a new one (Restart) stops the old one and its audio first.
      run.current?.abort();
      const controller = new AbortController();
      run.current = controller;
      const { signal } = controller;
      setFetching(false);
      setPhase('playing');
      const { steps } = scenario;
      for (let i = from; i < steps.length; i++) {
        const step = steps[i];
        // Spec §5: a line is spoken only if its step exists.
        if (!step) break;
        setIndex(i);
        setClock(null);
        const outcome = await playStep(step, signal);
        if (outcome === 'aborted' || signal.aborted) return;
        if (outcome === 'failed') {
          setClock(null);
          setPhase('stopped');
          return;
        }
        if (i < steps.length - 1) {
          await sleep(STEP_GAP_MS, signal);
          if (signal.aborted) return;
        }
      }
      setPhase('ended');
    },
    [scenario, playStep],
  );

  // Closing the dialog unmounts the player: stop the run and its audio.
  useEffect(() => () => run.current?.abort(), []);

  const start = useCallback(() => {
    if (phase === 'playing') return;
    void playFrom(phase === 'stopped' ? index : 0);
  }, [phase, index, playFrom]);

  const restart = useCallback(() => void playFrom(0), [playFrom]);

  const toggleMute = useCallback(() => {
    const next = !mutedRef.current;
    mutedRef.current = next;
    setMuted(next);
    if (next) clip.current?.abort();
  }, []);

  return { phase, index, clock, fetching, muted, toggleMute, start, restart };
}
