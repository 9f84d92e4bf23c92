import type { Newsletter } from '@parley/contracts';
import clsx from 'clsx';
import { Monitor, Smartphone } from 'lucide-react';
import { useEffect, useState } from 'react';
import { type TabDef, Tabs } from '../../components/tabs.tsx';
import { ErrorState, LoadingState, secondaryButton } from '../components/ui.tsx';
import { AudienceDialog } from '../email/audience-dialog.tsx';
import { messageOr } from '../lib/api.ts';
import { useNewsletterPreview } from './api.ts';

type Device = 'desktop' | 'mobile';
type Part = 'html' | 'text';

/** Spec §9: the mobile preview is 375 px wide, and first below a 768 px window. */
const MOBILE_WIDTH = 375;
const initialDevice = (): Device =>
  typeof window !== 'undefined' && window.innerWidth < 768 ? 'mobile' : 'desktop';

/**
 * Newsletter Preview (email marketing §2): the mail as the server renders it for its sample
 * contact (already sanitised), in a sandboxed frame (no script, no same-origin access), at
 * desktop or mobile width; its text part in a second tab.
 */
export function NewsletterPreviewDialog({
  newsletter,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  newsletter: Newsletter | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const preview = useNewsletterPreview(newsletter?.id ?? null, open);
  const [device, setDevice] = useState<Device>(initialDevice);
  const [part, setPart] = useState<Part>('html');
  useEffect(() => {
    if (!open) return;
    setDevice(initialDevice());
    setPart('html');
  }, [open]);

  const p = preview.data;
  const tabs: TabDef<Part>[] = [
    { key: 'html', label: 'HTML' },
    { key: 'text', label: 'Text' },
  ];
  const width = device === 'mobile' ? `${MOBILE_WIDTH}px` : '100%';
  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Newsletter Preview"
      description={newsletter ? `${newsletter.name}: as a recipient sees it.` : ''}
      wide="xl"
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      {preview.isPending ? (
        <LoadingState label="Rendering preview…" />
      ) : !p ? (
        <ErrorState
          title="Failed to load the preview"
          message={messageOr(preview.error, '')}
          onRetry={() => void preview.refetch()}
        />
      ) : (
        <div className="space-y-3">
          <dl className="space-y-1 text-sm" data-testid="preview-headers">
            <div className="flex flex-wrap gap-x-2">
              <dt className="text-slate-400">Subject:</dt>
              <dd className="min-w-0 break-words text-white">{p.subject}</dd>
            </div>
            {p.preheader ? (
              <div className="flex flex-wrap gap-x-2">
                <dt className="text-slate-400">Preheader:</dt>
                <dd className="min-w-0 break-words text-slate-200">{p.preheader}</dd>
              </div>
            ) : null}
          </dl>
          <fieldset className="flex flex-wrap items-center gap-2">
            <legend className="sr-only">Device</legend>
            {(
              [
                ['desktop', 'Desktop', Monitor],
                ['mobile', 'Mobile (375px)', Smartphone],
              ] as const
            ).map(([key, label, Icon]) => (
              <button
                key={key}
                type="button"
                aria-pressed={device === key}
                className={clsx(
                  secondaryButton,
                  'px-2.5 py-1.5 text-xs aria-pressed:border-brand aria-pressed:text-white',
                )}
                onClick={() => setDevice(key)}
              >
                <Icon className="h-3.5 w-3.5" aria-hidden="true" />
                {label}
              </button>
            ))}
          </fieldset>
          <Tabs<Part> label="Preview format" tabs={tabs} selected={part} onSelect={setPart}>
            <div className="overflow-x-auto rounded-lg border border-navy-700 bg-navy-950/40 p-2">
              {part === 'html' ? (
                // sandbox="": no script, no same-origin access, no navigation out of the frame.
                <iframe
                  title={`Newsletter preview of ${newsletter?.name ?? 'the newsletter'}`}
                  sandbox=""
                  srcDoc={p.html}
                  data-testid="newsletter-preview-frame"
                  data-device={device}
                  className="mx-auto block h-[32rem] max-w-none rounded bg-white"
                  style={{ width }}
                />
              ) : (
                <pre
                  className="mx-auto max-w-none p-3 font-mono text-xs break-words whitespace-pre-wrap text-slate-200"
                  style={{ width }}
                  data-testid="newsletter-preview-text"
                >
                  {p.text || 'No text part.'}
                </pre>
              )}
            </div>
          </Tabs>
        </div>
      )}
    </AudienceDialog>
  );
}
