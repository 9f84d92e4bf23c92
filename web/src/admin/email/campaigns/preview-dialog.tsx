import { type Campaign, type Contact, MISSING_FIELDS_CONTACT } from '@parley/contracts';
import { useEffect, useId, useMemo, useState } from 'react';
import { inputClass, labelClass, selectClass } from '../../components/ui.tsx';
import { contactName, useAddressBooks, useContacts } from '../audience/api.ts';
import { AudienceDialog } from '../audience/audience-dialog.tsx';
import { DevicePicker, initialPreviewDevice, MailPreviewTabs, type PreviewDevice } from '../mail-preview.tsx';
import { formatSize, type PreviewContact, personalize, SAMPLE, wordCount } from './personalize.ts';
import { sanitizeHtml } from './sanitize.ts';

/**
 * The campaign preview (email marketing §2): Desktop, Tablet 768px and Mobile 375px; HTML and
 * Text tabs; {{firstName}}, {{lastName}} and {{company}} filled from the chosen contact, the
 * sample contact, or "a recipient with missing fields" (no name, no company: the fallbacks, or
 * the blanks a recipient without them would see); HTML size, text size and word count. The HTML is sanitised and shown in a
 * sandboxed frame (no script, no same-origin access); the campaign keeps what was written.
 */
/** The picker's value for "a recipient with missing fields". */
const MISSING = 'missing';

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
  const [device, setDevice] = useState<PreviewDevice>(initialPreviewDevice);
  const [q, setQ] = useState('');
  const [contact, setContact] = useState<Contact | null>(null);
  const [missing, setMissing] = useState(false);
  const contacts = useContacts({ limit: 50, offset: 0, q, status: 'active' }, open);
  const books = useAddressBooks();
  // The same address can be in several books, each a contact of its own: the book tells them apart.
  const bookName = (c: Contact) => books.data?.find((b) => b.id === c.addressBookId)?.name;
  const labelOf = (c: Contact) => {
    const who = contactName(c) ? `${contactName(c)} <${c.email}>` : c.email;
    const book = bookName(c);
    return book ? `${who} · ${book}` : who;
  };

  useEffect(() => {
    if (!open) return;
    setDevice(initialPreviewDevice());
    setContact(null);
    setMissing(false);
    setQ('');
  }, [open]);

  const who: PreviewContact = missing ? MISSING_FIELDS_CONTACT : (contact ?? SAMPLE);
  const html = campaign?.htmlContent ?? '';
  const text = campaign?.textContent ?? '';
  const rendered = useMemo(() => sanitizeHtml(personalize(html, who, true)), [html, who]);
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
            value={missing ? MISSING : (contact?.id ?? '')}
            onChange={(e) => {
              setMissing(e.target.value === MISSING);
              setContact(options.find((c) => c.id === Number(e.target.value)) ?? null);
            }}
          >
            <option value="">{`Sample contact (${SAMPLE.firstName} ${SAMPLE.lastName}, ${SAMPLE.company})`}</option>
            <option value={MISSING}>A recipient with missing fields (no name, no company)</option>
            {contact && !options.some((c) => c.id === contact.id) ? (
              <option value={contact.id}>{labelOf(contact)}</option>
            ) : null}
            {options.map((c) => (
              <option key={c.id} value={c.id}>
                {labelOf(c)}
              </option>
            ))}
          </select>
        </div>
      </div>

      <DevicePicker
        devices={['desktop', 'tablet', 'mobile']}
        device={device}
        onSelect={setDevice}
        className="mt-3"
      />

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
        <MailPreviewTabs
          device={device}
          title={`HTML preview of ${campaign?.name ?? 'the campaign'}`}
          html={rendered}
          emptyHtml="This campaign has no HTML content yet."
          text={
            text
              ? personalize(text, who)
              : 'No text version: the service makes one from the HTML when it sends.'
          }
          frameTestId="preview-frame"
          textTestId="preview-text"
          frameHeight={448}
        />
      </div>
    </AudienceDialog>
  );
}
