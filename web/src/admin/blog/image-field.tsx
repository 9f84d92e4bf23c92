import { BLOG_LIMITS } from '@parley/contracts/blog';
import { ImageIcon, Loader2, Sparkles, Trash2, Upload } from 'lucide-react';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { inputClass, labelClass, secondaryButton } from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { generateImage, imageMakerName, uploadImage } from './api.ts';

/**
 * The post's featured image (spec §2 "Post form"): upload a file (with a percentage while it
 * travels), generate one with AI from a prompt, or enter a URL; Remove clears it.
 */
export function FeaturedImageField({
  value,
  onChange,
  onBusyChange,
}: {
  value: string;
  onChange: (url: string) => void;
  /** The form keeps Save disabled while an image is on its way. */
  onBusyChange: (busy: boolean) => void;
}) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [prompt, setPrompt] = useState('');
  const [uploadPercent, setUploadPercent] = useState<number | null>(null);
  const [generating, setGenerating] = useState(false);
  const busy = uploadPercent !== null || generating;

  useEffect(() => onBusyChange(busy), [busy, onBusyChange]);
  // A closed dialog cancels an upload still in flight.
  useEffect(() => () => abortRef.current?.abort(), []);

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast({ variant: 'destructive', title: 'Error', description: 'Please choose an image file.' });
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setUploadPercent(0);
    try {
      const res = await uploadImage(file, setUploadPercent, controller.signal);
      onChange(res.imageUrl);
      toast({ title: 'Success', description: 'Image uploaded successfully!' });
    } catch (err) {
      if (!(err instanceof DOMException && err.name === 'AbortError')) {
        toast({
          variant: 'destructive',
          title: 'Failed to upload image',
          description: messageOr(err, 'Please try again.'),
        });
      }
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      setUploadPercent(null);
    }
  };

  const onGenerate = async () => {
    // Spec: a non-empty trimmed prompt is needed (the button is disabled otherwise).
    if (!prompt.trim() || busy) return;
    setGenerating(true);
    try {
      const res = await generateImage(prompt.trim());
      if (!res?.imageUrl) throw new Error('Failed to generate image');
      onChange(res.imageUrl);
      toast({
        title: 'Success',
        description: `AI image generated successfully using ${imageMakerName(res.provider)}`,
      });
    } catch (err) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: messageOr(err, 'Failed to generate image'),
      });
    } finally {
      setGenerating(false);
    }
  };

  return (
    <fieldset className="space-y-3 rounded-xl border border-navy-700 p-4">
      <legend className="px-1 text-sm font-medium text-slate-300">Featured Image</legend>

      {value ? (
        <div className="flex flex-wrap items-start gap-3">
          <img
            src={value}
            alt="Current featured visual"
            className="h-28 w-48 rounded-lg border border-navy-700 object-cover"
          />
          <button
            type="button"
            className={`${secondaryButton} hover:border-red-400/60 hover:text-red-200`}
            onClick={() => onChange('')}
            disabled={busy}
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            Remove Image
          </button>
        </div>
      ) : (
        <p className="flex items-center gap-2 text-sm text-slate-500">
          <ImageIcon className="h-4 w-4" aria-hidden="true" />
          No featured image
        </p>
      )}

      <div className="flex flex-wrap items-center gap-3">
        <input
          ref={fileRef}
          id={`${id}-file`}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          className="sr-only"
          tabIndex={-1}
          aria-label="Image file"
          onChange={(e) => void onFile(e)}
        />
        <button
          type="button"
          className={secondaryButton}
          disabled={busy}
          onClick={() => fileRef.current?.click()}
        >
          <Upload className="h-4 w-4" aria-hidden="true" />
          Upload Image
        </button>
        {uploadPercent !== null ? (
          <div role="status" className="flex min-w-48 flex-1 items-center gap-3 text-sm text-slate-300">
            <Loader2 className="h-4 w-4 animate-spin text-brand" aria-hidden="true" />
            <span>Uploading... {uploadPercent}%</span>
            <progress
              max={100}
              value={uploadPercent}
              aria-label="Upload progress"
              className="h-2 flex-1 overflow-hidden rounded-full accent-cyan-400"
            />
          </div>
        ) : null}
      </div>

      <div>
        <label htmlFor={`${id}-prompt`} className={labelClass}>
          Generate with AI
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id={`${id}-prompt`}
            className={inputClass}
            value={prompt}
            maxLength={BLOG_LIMITS.prompt}
            placeholder="Describe the image, e.g. a receptionist with a headset at a clinic desk"
            onChange={(e) => setPrompt(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void onGenerate();
              }
            }}
          />
          <button
            type="button"
            className={`${secondaryButton} shrink-0`}
            disabled={!prompt.trim() || busy}
            aria-busy={generating}
            onClick={() => void onGenerate()}
          >
            {generating ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : (
              <Sparkles className="h-4 w-4" aria-hidden="true" />
            )}
            {generating ? 'Generating image...' : 'Generate Image'}
          </button>
        </div>
        {generating ? (
          <p role="status" className="mt-2 text-xs text-slate-400">
            Creating the image from your prompt. Please keep this dialog open.
          </p>
        ) : null}
      </div>

      <div>
        <label htmlFor={`${id}-url`} className={labelClass}>
          Image URL
        </label>
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          className={inputClass}
          value={value}
          maxLength={2048}
          placeholder="https://..."
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
    </fieldset>
  );
}
