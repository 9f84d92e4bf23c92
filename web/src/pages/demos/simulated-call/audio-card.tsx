import clsx from 'clsx';
import { Headphones, Volume2, VolumeX } from 'lucide-react';
import { useId } from 'react';
import * as ui from '../shared/ui.ts';

/** Whether the call is spoken, and the 'Test Audio' button (see use-test-audio.ts). */
export function AudioCard({
  audioEnabled,
  muted,
  testing,
  onTestAudio,
}: {
  audioEnabled: boolean;
  muted: boolean;
  testing: boolean;
  onTestAudio: () => void;
}) {
  const id = useId();
  return (
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
        onClick={onTestAudio}
        disabled={testing}
        className={clsx(ui.secondaryButton, 'mt-4')}
      >
        <Headphones className="h-4 w-4" aria-hidden="true" />
        {testing ? 'Testing...' : 'Test Audio'}
      </button>
    </section>
  );
}
