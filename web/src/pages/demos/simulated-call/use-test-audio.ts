import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../../components/toast/index.ts';
import { fetchSpeech, playSpeech, TEST_AUDIO_VOLUME } from '../../../lib/speech.ts';

const TEST_AUDIO_TEXT = 'Audio test. If you can hear this, voice playback is working.';

/**
 * 'Test Audio' (spec §4, §8): says a short clip. When it plays, audio is on and unmuted
 * ('Audio Working'); when it cannot, the call runs in text-only mode ('Audio Test Failed').
 * `stop` ends the clip (a call starting, or the page closing).
 */
export function useTestAudio(setAudio: (audio: { enabled: true; muted: boolean }) => void) {
  const [testing, setTesting] = useState(false);
  const clip = useRef<AbortController | null>(null);
  const stop = useCallback(() => clip.current?.abort(), []);

  // The clip stops with the page.
  useEffect(() => stop, [stop]);

  const test = async () => {
    clip.current?.abort();
    const controller = new AbortController();
    clip.current = controller;
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
          setAudio({ enabled: true, muted: false });
          toast({ title: 'Audio Working', description: 'Voice synthesis is now active' });
        },
      });
    } catch (err) {
      if (signal.aborted || started) return;
      console.warn('Test Audio failed', err);
      // Text-only mode: the call still runs, each line shown for its scripted time.
      setAudio({ enabled: true, muted: true });
      toast({ variant: 'destructive', title: 'Audio Test Failed', description: 'Using text-only mode' });
    } finally {
      if (clip.current === controller) {
        clip.current = null;
        setTesting(false);
      }
    }
  };

  return { testing, test, stop };
}
