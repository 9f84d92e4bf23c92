import type { Contact } from '@parley/contracts';
import clsx from 'clsx';
import { Building2, CalendarPlus, Loader2, Mail, Phone, RotateCcw, Trash2, UserX } from 'lucide-react';
import { useId } from 'react';
import { formatDate } from '../../../lib/time.ts';
import { Badge, cardClass, secondaryButton } from '../../components/ui.tsx';
import { contactName, STATUS_BADGE, STATUS_LABELS } from './api.ts';

/**
 * One contact (email marketing §2 Contacts tab): name, email, phone, status badge, company,
 * added date and, when unsubscribed, the unsubscribed date; Re-subscribe for a contact that is
 * not active (unsubscribed, or bounced), and Delete.
 */
export function ContactCard({
  contact: c,
  resubscribing,
  deleting,
  onResubscribe,
  onDelete,
}: {
  contact: Contact;
  resubscribing: boolean;
  deleting: boolean;
  onResubscribe: () => void;
  onDelete: () => void;
}) {
  const id = useId();
  const name = contactName(c) || c.email;
  return (
    <li>
      <article aria-labelledby={`${id}-name`} className={clsx(cardClass, 'p-4')} data-testid="contact-card">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 id={`${id}-name`} className="text-base font-semibold [overflow-wrap:anywhere] text-white">
              {name}
            </h2>
            <p className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-300">
              <Mail className="h-3.5 w-3.5 shrink-0 text-slate-500" aria-hidden="true" />
              <a
                href={`mailto:${c.email}`}
                className="min-w-0 [overflow-wrap:anywhere] hover:text-white hover:underline"
              >
                {c.email}
              </a>
            </p>
          </div>
          <Badge className={STATUS_BADGE[c.status]}>{STATUS_LABELS[c.status]}</Badge>
        </div>
        <dl className="mt-3 grid gap-1 text-sm text-slate-400 sm:grid-cols-2">
          {c.phone ? (
            <div className="flex items-center gap-1.5">
              <dt className="sr-only">Phone</dt>
              <Phone className="h-3.5 w-3.5 text-slate-500" aria-hidden="true" />
              <dd>{c.phone}</dd>
            </div>
          ) : null}
          {c.company ? (
            <div className="flex min-w-0 items-center gap-1.5">
              <dt className="sr-only">Company</dt>
              <Building2 className="h-3.5 w-3.5 shrink-0 text-slate-500" aria-hidden="true" />
              <dd className="truncate">{c.company}</dd>
            </div>
          ) : null}
          <div className="flex items-center gap-1.5">
            <dt className="sr-only">Added</dt>
            <CalendarPlus className="h-3.5 w-3.5 text-slate-500" aria-hidden="true" />
            <dd>Added {formatDate(c.createdAt)}</dd>
          </div>
          {c.status !== 'active' && c.unsubscribedAt ? (
            <div className="flex items-center gap-1.5">
              <dt className="sr-only">{c.status === 'bounced' ? 'Bounced' : 'Unsubscribed'}</dt>
              <UserX className="h-3.5 w-3.5 text-slate-500" aria-hidden="true" />
              <dd>
                {c.status === 'bounced' ? 'Bounced' : 'Unsubscribed'} {formatDate(c.unsubscribedAt)}
              </dd>
            </div>
          ) : null}
        </dl>
        <div className="mt-3 flex flex-wrap gap-2">
          {c.status !== 'active' ? (
            <button
              type="button"
              className={secondaryButton}
              disabled={resubscribing}
              aria-busy={resubscribing}
              onClick={onResubscribe}
              aria-label={`Re-subscribe ${c.email}`}
            >
              {resubscribing ? (
                <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
              ) : (
                <RotateCcw className="h-4 w-4" aria-hidden="true" />
              )}
              Re-subscribe
            </button>
          ) : null}
          <button
            type="button"
            className={clsx(secondaryButton, 'hover:border-red-400/70 hover:text-red-200')}
            disabled={deleting}
            onClick={onDelete}
            aria-label={`Delete ${c.email}`}
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            Delete
          </button>
        </div>
      </article>
    </li>
  );
}
