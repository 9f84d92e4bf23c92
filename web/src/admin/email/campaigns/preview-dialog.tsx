import type { Campaign, Contact } from '@parley/contracts';
import clsx from 'clsx';
import { Monitor, Smartphone, Tablet } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { type TabDef, Tabs } from '../../../components/tabs.tsx';
import { inputClass, labelClass, secondaryButton, selectClass } from '../../components/ui.tsx';
import { contactName, useContacts } from '../audience-api.ts';
import { AudienceDialog } from '../audience-dialog.tsx';
import { formatSize, type PreviewContact, personalize, SAMPLE, wordCount } from './personalize.ts';
import { sanitizeHtml } from './sanitize.ts';

type Device = 'desktop' | 'tablet' | 'mobile';
type Part = 'html' | 'text';

/** Spec §9: the preview's widths, and mobile first below a 768 px window. */
const WIDTH: Record<Device, number | null> = { desktop: null, tablet: 768, mobile: 375 };
const DEVICES: Array<{ key: Device; label: string; icon: typeof Monitor }> = [
  { key: 'desktop', label: 'Desktop', icon: Monitor },
  { key: 'tablet', label: 'Tablet (768px)', icon: Tablet },
  { key: 'mobile', label: 'Mobile (375px)', icon: Smartphone },
];

const initialDevice = (): Device =>
  typeof window !== 'undefined' && window.innerWidth < 768 ? 'mobile' : 'desktop';

/**
 * The campaign preview (email marketing §2): Desktop, Tablet 768px and Mobile 375px; HTML and
 * Text tabs; {{firstName}}, {{lastName}} and {{company}} filled from the chosen contact or the
 * sample contact; HTML size, text size and word count. The HTML is sanitised and shown in a
 * sandboxed frame (no script, no same-origin access); the campaign keeps what was written.
 */
export function PreviewDialog({
  campaign,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  campaign: Campaign | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const id = useId();
  const [device, setDevice] = useState<Device>(initialDevice);
  const [part, setPart] = useState<Part>('html');
  const [q, setQ] = useState('');
  const [contact, setContact] = useState<Contact | null>(null);
  const contacts = useContacts({ limit: 50, offset: 0, q, status: 'active' }, open);

  useEffect(() => {
    if (!open) return;
    setDevice(initialDevice());
    setPart('html');
    setContact(null);
    setQ('');
  }, [open]);

  const who: PreviewContact = contact ?? SAMPLE;
  const html = campaign?.htmlContent ?? '';
  const text = campaign?.textContent ?? '';
  const rendered = useMemo(() => sanitizeHtml(personalize(html, who, true)), [html, who]);
  const width = WIDTH[device];
  const tabs: TabDef<Part>[] = [
    { key: 'html', label: 'HTML' },
    { key: 'text', label: 'Text' },
  ];
  const options = contacts.data?.contacts ?? [];

  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title={campaign ? `Preview: ${campaign.name}` : 'Preview'}
      description={campaign ? `Subject: ${personalize(campaign.subject, who)}` : ''}
      wide="xl"
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-48">
          <label htmlFor={`${id}-q`} className={labelClass}>
            Find a preview contact
          </label>
          <input
            id={`${id}-q`}
            type="search"
            className={inputClass}
            value={q}
            placeholder="Name, email or company"
            onChange={(e) => setQ(e.target.value)}
          />
        </div>
        <div className="min-w-0 flex-1 basis-48">
          <label htmlFor={`${id}-contact`} className={labelClass}>
            Preview contact
          </label>
          <select
            id={`${id}-contact`}
            className={selectClass}
            value={contact?.id ?? ''}
            onChange={(e) => setContact(options.find((c) => c.id === Number(e.target.value)) ?? null)}
          >
            <option value="">{`Sample contact (${SAMPLE.firstName} ${SAMPLE.lastName}, ${SAMPLE.company})`}</option>
            {contact && !options.some((c) => c.id === contact.id) ? (
              <option value={contact.id}>{contact.email}</option>
            ) : null}
            {options.map((c) => (
              <option key={c.id} value={c.id}>
                {contactName(c) ? `${contactName(c)} <${c.email}>` : c.email}
              </option>
            ))}
          </select>
        </div>
      </div>

      <fieldset className="mt-3 flex flex-wrap items-center gap-2">
        <legend className="sr-only">Device</legend>
        {DEVICES.map(({ key, label, icon: Icon }) => (
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

      <dl className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-xs text-slate-400" data-testid="preview-stats">
        <div className="flex gap-1">
          <dt>HTML size:</dt>
          <dd className="text-slate-200">{formatSize(html)}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Text size:</dt>
          <dd className="text-slate-200">{formatSize(text)}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Words:</dt>
          <dd className="text-slate-200" data-testid="preview-words">
            {wordCount(text, html)}
          </dd>
        </div>
      </dl>

      <div className="mt-3">
        <Tabs<Part> label="Preview format" tabs={tabs} selected={part} onSelect={setPart}>
          <div className="overflow-x-auto rounded-lg border border-navy-700 bg-navy-950/40 p-2">
            {part === 'html' ? (
              html.trim() ? (
                // sandbox="": no script, no same-origin access, no navigation out of the frame.
                <iframe
                  title={`HTML preview of ${campaign?.name ?? 'the campaign'}`}
                  sandbox=""
                  srcDoc={rendered}
                  data-testid="preview-frame"
                  data-device={device}
                  className="mx-auto block h-[28rem] max-w-none rounded bg-white"
                  style={{ width: width ? `${width}px` : '100%' }}
                />
              ) : (
                <p className="p-4 text-sm text-slate-400">This campaign has no HTML content yet.</p>
              )
            ) : (
              <pre
                className="mx-auto max-w-none p-3 font-mono text-xs whitespace-pre-wrap text-slate-200"
                style={{ width: width ? `${width}px` : '100%' }}
                data-testid="preview-text"
              >
                {text
                  ? personalize(text, who)
                  : 'No text version: the service makes one from the HTML when it sends.'}
              </pre>
            )}
          </div>
        </Tabs>
      </div>
    </AudienceDialog>
  );
}
