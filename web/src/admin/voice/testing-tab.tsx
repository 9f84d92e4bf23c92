import { TTS_MAX_CHARS } from '@parley/contracts/voice';
import { useMutation } from '@tanstack/react-query';
import { Loader2, Volume2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { AdminForm } from '../components/form-feedback.tsx';
import {
  Badge,
  cardClass,
  FieldError,
  inputClass,
  labelClass,
  primaryButton,
  selectClass,
} from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { ENGINE_LABELS, type Synthesis, synthesize, useVoices } from './api.ts';
import { useObjectUrl } from './use-object-url.ts';

export const SAMPLE_TEXT =
  "Hello! Thanks for calling Parley. I'm your AI assistant: I can answer your questions or book an appointment with our team. How can I help you today?";

function audioFailed(audio: HTMLAudioElement | null) {
  audio?.pause();
  toast({
    variant: 'destructive',
    title: 'Audio Error',
    description: 'Unable to play audio. Please try again.',
  });
}

/**
 * Voice Testing (spec §2, §5, §8): a text (prefilled sample), a voice, Test Voice (disabled
 * while the text is empty); the returned MP3 plays in an audio element, with the engine that
 * spoke it.
 */
export function VoiceTestingTab() {
  const id = useId();
  const voices = useVoices();
  const [text, setText] = useState(SAMPLE_TEXT);
  const [textError, setTextError] = useState<string | undefined>(undefined);
  const [picked, setPicked] = useState<string | null>(null);
  const [result, setResult] = useState<Synthesis | null>(null);
  const url = useObjectUrl(result?.audio ?? null);
  const audioRef = useRef<HTMLAudioElement>(null);
  const voiceId = picked ?? voices.data?.defaultVoiceId ?? '';

  const test = useMutation({
    mutationFn: synthesize,
    onSuccess: (res, body) => {
      setResult(res);
      const voiceName = voices.data?.voices.find((v) => v.id === body.voiceId)?.name;
      toast({
        title: 'Voice Test Successful',
        description: `${voiceName ?? 'The default voice'} spoke through ${res.engine ? ENGINE_LABELS[res.engine] : 'the speech service'}.`,
      });
    },
    onError: (err) => {
      toast({
        variant: 'destructive',
        title: 'Voice Test Failed',
        description: messageOr(err, 'Voice synthesis failed'),
      });
    },
  });

  // Play each new synthesis once its element has the source. A browser that refuses to start
  // sound on its own (autoplay policy) is no failure: the controls let the admin start it.
  useEffect(() => {
    const audio = audioRef.current;
    if (!url || !audio) return;
    audio.play().catch((err: unknown) => {
      const name = err instanceof DOMException ? err.name : '';
      if (name === 'NotAllowedError' || name === 'AbortError') return;
      audioFailed(audio);
    });
  }, [url]);

  const submit = () => {
    if (test.isPending) return;
    const clean = text.trim();
    if (!clean) {
      setTextError('Please enter some text to speak');
      return ['Please enter some text to speak'];
    }
    test.mutate({ text: clean, ...(voiceId ? { voiceId } : {}) });
  };

  return (
    <AdminForm
      onSubmit={submit}
      className={`${cardClass} space-y-4 p-4 sm:p-5`}
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        Test Voice Synthesis
      </h2>
      <div>
        <label htmlFor={`${id}-text`} className={labelClass}>
          Text to speak
        </label>
        <textarea
          id={`${id}-text`}
          rows={4}
          maxLength={TTS_MAX_CHARS}
          className={inputClass}
          value={text}
          aria-invalid={textError ? true : undefined}
          aria-describedby={`${id}-count${textError ? ` ${id}-text-error` : ''}`}
          onChange={(e) => {
            setText(e.target.value);
            setTextError(undefined);
          }}
        />
        <FieldError id={`${id}-text-error`} message={textError} />
        <p id={`${id}-count`} className="mt-1 text-right text-xs text-slate-500 tabular-nums">
          {text.length}/{TTS_MAX_CHARS}
        </p>
      </div>
      <div>
        <label htmlFor={`${id}-voice`} className={labelClass}>
          Voice
        </label>
        <select
          id={`${id}-voice`}
          className={selectClass}
          value={voiceId}
          disabled={!voices.data}
          aria-describedby={`${id}-voice-hint`}
          onChange={(e) => setPicked(e.target.value)}
        >
          {voices.data ? (
            voices.data.voices.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
                {v.id === voices.data.defaultVoiceId ? ' (default)' : ''}
              </option>
            ))
          ) : (
            <option value="">{voices.isError ? 'Default voice' : 'Loading voices...'}</option>
          )}
        </select>
        <p id={`${id}-voice-hint`} className="mt-1 text-xs text-slate-500">
          {voices.isError
            ? `The voice list could not be loaded (${messageOr(voices.error, 'unknown error')}); the default voice speaks.`
            : voices.data?.engine === 'local'
              ? 'ElevenLabs is not configured: the local engine gives each name its own espeak-ng voice.'
              : voices.data
                ? `Voices of ElevenLabs (${voices.data.model}).`
                : '\u00a0'}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          className={primaryButton}
          disabled={!text.trim() || test.isPending}
          aria-busy={test.isPending}
        >
          {test.isPending ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <Volume2 className="h-4 w-4" aria-hidden="true" />
          )}
          {test.isPending ? 'Synthesizing...' : 'Test Voice'}
        </button>
      </div>
      {url && result ? (
        <div className="space-y-2 rounded-xl border border-navy-700 bg-navy-950/60 p-3">
          <div
            className="flex flex-wrap items-center gap-2 text-sm text-slate-300"
            data-testid="voice-test-engine"
          >
            <span>Engine used:</span>
            <Badge className="border-cyan-400/40 bg-cyan-400/10 text-cyan-200">
              {result.engine ? ENGINE_LABELS[result.engine] : 'Not reported'}
            </Badge>
            {result.cached ? <Badge>From cache</Badge> : null}
          </div>
          {/* A new element per synthesis: the previous one stops with it. */}
          {/* biome-ignore lint/a11y/useMediaCaption: the spoken text is the form's text, shown above; an audio element renders no captions */}
          <audio
            key={url}
            ref={audioRef}
            src={url}
            controls
            preload="auto"
            data-testid="voice-test-audio"
            aria-label="Synthesized speech"
            className="w-full"
            onError={(e) => audioFailed(e.currentTarget)}
          />
        </div>
      ) : null}
    </AdminForm>
  );
}
