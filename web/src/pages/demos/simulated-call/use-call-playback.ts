import { useCallback, useEffect, useState } from 'react';
import { sleep } from '../../../lib/sleep.ts';
import { fetchSpeech, playSpeech, SPEECH_VOLUME } from '../../../lib/speech.ts';
import type { CallScenario, CallStep } from './scenarios.ts';

/**
 * Speaks one step: fetches its speech and plays it to the end. Returns false when there was
 * nothing to hear (the request or the playback failed: logged, spec §8), so the caller can
 * give the line its scripted time instead.
 */
async function speakStep(
  scenarioId: string,
  step: CallStep,
  signal: AbortSignal,
  setGenerating: (on: boolean) => void,
): Promise<boolean> {
  let blob: Blob;
  setGenerating(true);
  try {
    blob = await fetchSpeech({ text: step.text, speaker: step.speaker, useCase: scenarioId }, signal);
  } catch (err) {
    if (!signal.aborted) console.warn(`Simulated call: no speech for step ${step.id}`, err);
    return false;
  } finally {
    if (!signal.aborted) setGenerating(false);
  }
  if (signal.aborted) return false;
  try {
    await playSpeech(blob, { volume: SPEECH_VOLUME, signal });
    return true;
  } catch (err) {
    console.warn(`Simulated call: could not play step ${step.id}`, err);
    return false;
  }
}

export interface CallPlayback {
  stepIndex: number;
  /** Share of steps completed, 0–100. */
  progress: number;
  playing: boolean;
  /** Speech for the current step is being fetched. */
  generating: boolean;
  ended: boolean;
  /** Played since the last reset or scenario change (so a stop mid-call reads as paused). */
  started: boolean;
  /** Start (or resume) the call; from the end, restart it from step 1. */
  play: () => void;
  pause: () => void;
  /** Stop and return to step 1. */
  reset: () => void;
}

/**
 * The simulated call's state machine (spec §4 "Simulated call"): while playing, each step's
 * speech is fetched and played to its end (or, muted or without audio, the step waits its
 * scripted duration), progress becomes the completed share, then the next step follows;
 * after the last step playing stops and the call has ended. Pausing, resetting, muting and
 * unmounting abort the speech in flight (fetch and audio).
 */
export function useCallPlayback(scenario: CallScenario | undefined, speechOn: boolean): CallPlayback {
  const [stepIndex, setStepIndex] = useState(0);
  const [progress, setProgress] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [ended, setEnded] = useState(false);
  const [started, setStarted] = useState(false);

  useEffect(() => {
    if (!playing || !scenario) return;
    const steps = scenario.callSteps;
    const step = steps[stepIndex];
    if (!step) return;
    const controller = new AbortController();
    const { signal } = controller;
    void (async () => {
      const heard = speechOn && (await speakStep(scenario.id, step, signal, setGenerating));
      if (!heard) await sleep(step.duration * 1000, signal);
      if (signal.aborted) return;
      const completed = stepIndex + 1;
      setProgress((completed / steps.length) * 100);
      if (completed >= steps.length) {
        setPlaying(false);
        setEnded(true);
      } else {
        setStepIndex(completed);
      }
    })();
    return () => {
      controller.abort();
      setGenerating(false);
    };
  }, [playing, scenario, stepIndex, speechOn]);

  const play = useCallback(() => {
    if (ended) {
      setStepIndex(0);
      setProgress(0);
      setEnded(false);
    }
    setStarted(true);
    setPlaying(true);
  }, [ended]);

  const pause = useCallback(() => setPlaying(false), []);

  const reset = useCallback(() => {
    setPlaying(false);
    setStepIndex(0);
    setProgress(0);
    setEnded(false);
    setStarted(false);
  }, []);

  return { stepIndex, progress, playing, generating, ended, started, play, pause, reset };
}
