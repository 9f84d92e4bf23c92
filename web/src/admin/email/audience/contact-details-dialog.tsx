import type { AddressBook, Contact } from '@parley/contracts';
import { Check, Pencil, Send } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { formatDate } from '../../../lib/time.ts';
import { Badge, primaryButton, secondaryButton } from '../../components/ui.tsx';
import { contactName, STATUS_BADGE, STATUS_LABELS } from './api.ts';
import { AudienceDialog } from './audience-dialog.tsx';
import { ContactEditForm } from './contact-edit-form.tsx';

/**
 * A contact's details (email marketing §2 Contact search: status, email, phone, company,
 * category, added date), plus what an import may have brought (address, website, rating,
 * reviews, description, book), its tags and attributes, with Add to Campaign and Edit.
 */
export function ContactDetailsDialog({
  contact: c,
  books,
  open,
  onOpenChange,
  added,
  onAddToCampaign,
  onSaved,
  onCloseAutoFocus,
}: {
  contact: Contact | null;
  books: AddressBook[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  added: boolean;
  onAddToCampaign: (c: Contact) => void;
  /** The contact as saved by an edit. */
  onSaved: (c: Contact) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const book = c ? books.find((b) => b.id === c.addressBookId) : undefined;
  const [editing, setEditing] = useState(false);
  const attributes = c ? Object.entries(c.attributes) : [];
  return (
    <AudienceDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) setEditing(false);
        onOpenChange(o);
      }}
      title={c ? contactName(c) || c.email : 'Contact'}
      description={editing ? 'Edit contact' : 'Contact details'}
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      {c && editing ? (
        <ContactEditForm
          contact={c}
          onCancel={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            onSaved(saved);
          }}
        />
      ) : c ? (
        <>
          <dl
            className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 gap-y-2 text-sm"
            data-testid="contact-details"
          >
            <Row label="Status">
              <Badge className={STATUS_BADGE[c.status]}>{STATUS_LABELS[c.status]}</Badge>
            </Row>
            <Row label="Email">{c.email}</Row>
            <Row label="Phone">{c.phone}</Row>
            <Row label="Company">{c.company}</Row>
            <Row label="Category">{c.category}</Row>
            <Row label="Added">{formatDate(c.createdAt)}</Row>
            {c.unsubscribedAt ? (
              <Row label={c.status === 'bounced' ? 'Bounced' : 'Unsubscribed'}>
                {formatDate(c.unsubscribedAt)}
              </Row>
            ) : null}
            {c.address ? <Row label="Address">{c.address}</Row> : null}
            {c.website ? <Row label="Website">{c.website}</Row> : null}
            {c.rating !== null ? (
              <Row label="Rating">
                {c.rating} / 5{c.reviewCount !== null ? ` (${c.reviewCount} reviews)` : ''}
              </Row>
            ) : null}
            {c.description ? <Row label="Description">{c.description}</Row> : null}
            {book ? <Row label="Address book">{book.name}</Row> : null}
            {c.tags.length ? <Row label="Tags">{c.tags.join(', ')}</Row> : null}
            {attributes.map(([key, value]) => (
              <Row key={key} label={key}>
                {typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value)}
              </Row>
            ))}
          </dl>
          <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button type="button" className={secondaryButton} onClick={() => onOpenChange(false)}>
              Close
            </button>
            <button type="button" className={secondaryButton} onClick={() => setEditing(true)}>
              <Pencil className="h-4 w-4" aria-hidden="true" />
              Edit
            </button>
            <button
              type="button"
              className={primaryButton}
              disabled={added || c.status !== 'active'}
              title={c.status !== 'active' ? 'Only active contacts receive campaigns' : undefined}
              onClick={() => onAddToCampaign(c)}
            >
              {added ? (
                <Check className="h-4 w-4" aria-hidden="true" />
              ) : (
                <Send className="h-4 w-4" aria-hidden="true" />
              )}
              {added ? 'Added to Campaign' : 'Add to Campaign'}
            </button>
          </div>
        </>
      ) : null}
    </AudienceDialog>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-400">{label}</dt>
      <dd className="break-words text-slate-100">{children || <span className="text-slate-500">—</span>}</dd>
    </>
  );
}
