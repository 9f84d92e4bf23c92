import type { Newsletter } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { ErrorState, LoadingState } from '../components/ui.tsx';
import { AudienceDialog } from '../email/audience-dialog.tsx';
import {
  DevicePicker,
  initialPreviewDevice,
  MailPreviewTabs,
  type PreviewDevice,
} from '../email/mail-preview.tsx';
import { messageOr } from '../lib/api.ts';
import { useNewsletterPreview } from './api.ts';

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
  const [device, setDevice] = useState<PreviewDevice>(initialPreviewDevice);
  useEffect(() => {
    if (open) setDevice(initialPreviewDevice());
  }, [open]);

  const p = preview.data;
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
          <DevicePicker devices={['desktop', 'mobile']} device={device} onSelect={setDevice} />
          <MailPreviewTabs
            device={device}
            title={`Newsletter preview of ${newsletter?.name ?? 'the newsletter'}`}
            html={p.html}
            text={p.text || 'No text part.'}
            frameTestId="newsletter-preview-frame"
            textTestId="newsletter-preview-text"
            frameHeight={512}
          />
        </div>
      )}
    </AudienceDialog>
  );
}
