import { type Newsletter, SAMPLE_CONTACT } from '@parley/contracts';
import clsx from 'clsx';
import { useEffect, useState } from 'react';
import { ErrorState, LoadingState, selectClass } from '../components/ui.tsx';
import { AudienceDialog } from '../email/audience/audience-dialog.tsx';
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
 * contact, or for a recipient with missing fields (no name or company: the fallbacks, or the
 * blanks), already sanitised, in a sandboxed frame (no script, no same-origin access), at
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
  const [missing, setMissing] = useState(false);
  const preview = useNewsletterPreview(newsletter?.id ?? null, open, missing);
  const [device, setDevice] = useState<PreviewDevice>(initialPreviewDevice);
  useEffect(() => {
    if (!open) return;
    setDevice(initialPreviewDevice());
    setMissing(false);
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
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <DevicePicker devices={['desktop', 'mobile']} device={device} onSelect={setDevice} />
            <label className="flex items-center gap-2 text-sm text-slate-200">
              <span>Preview as</span>
              <select
                className={clsx(selectClass, 'w-auto py-1.5')}
                value={missing ? 'missing' : 'sample'}
                onChange={(e) => setMissing(e.target.value === 'missing')}
              >
                <option value="sample">{`Sample contact (${SAMPLE_CONTACT.firstName} ${SAMPLE_CONTACT.lastName}, ${SAMPLE_CONTACT.company})`}</option>
                <option value="missing">A recipient with missing fields (no name, no company)</option>
              </select>
            </label>
          </div>
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
