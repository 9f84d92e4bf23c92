import clsx from 'clsx';
import { Inbox, Paperclip, RefreshCw, Search } from 'lucide-react';
import { useId, useState } from 'react';
import { formatShortDateTime } from '../../../lib/time.ts';
import {
  Badge,
  cardClass,
  EmptyState,
  ErrorState,
  inputClass,
  LoadingState,
  PageHeader,
  secondaryButton,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { kindLabel, PAGE_SIZE, STATUS_BADGE, TRANSPORT_LABELS, useOutbox } from './api.ts';
import { SentMailDetailPanel } from './detail.tsx';

/**
 * Sent mail (/admin/email/sent): every message the platform sent, whatever the transport,
 * readable like Mailpit. With the local mailbox (the default of `pnpm start`) this is where
 * mail goes; with SMTP or SES it is the record of what was sent.
 */
export default function SentMailPage() {
  const searchId = useId();
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const outbox = useOutbox(q, offset);
  const page = outbox.data;
  return (
    <section data-testid="sent-mail-page">
      <title>Sent mail · Parley Admin</title>
      <PageHeader
        title="Sent mail"
        description="Every message the platform sent: HTML, text, headers and raw MIME."
        actions={
          <button
            type="button"
            className={secondaryButton}
            onClick={() => void outbox.refetch()}
            disabled={outbox.isFetching}
          >
            <RefreshCw
              className={clsx('h-4 w-4', outbox.isFetching && 'animate-spin motion-reduce:animate-none')}
              aria-hidden="true"
            />
            Refresh
          </button>
        }
      />
      {page ? (
        <p className="mb-4 text-sm text-slate-400" data-testid="mail-transport">
          Transport:{' '}
          <span className="text-slate-200">{TRANSPORT_LABELS[page.transport] ?? page.transport}</span> —{' '}
          {page.transportDescription}
        </p>
      ) : null}
      <div className="mb-4 max-w-md">
        <label htmlFor={searchId} className="sr-only">
          Search sent mail
        </label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-500"
            aria-hidden="true"
          />
          <input
            id={searchId}
            type="search"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setOffset(0);
            }}
            placeholder="Search by recipient, subject or kind…"
            className={clsx(inputClass, 'pl-9')}
          />
        </div>
      </div>
      {outbox.isPending ? (
        <LoadingState label="Loading sent mail…" />
      ) : outbox.isError ? (
        <ErrorState
          title="Failed to load sent mail"
          message={messageOr(outbox.error, 'Please try again.')}
          onRetry={() => void outbox.refetch()}
        />
      ) : !page?.items.length ? (
        <EmptyState icon={Inbox} title={q ? 'No message matches' : 'No mail sent yet'}>
          Booking confirmations, notifications, invitations and test emails appear here as they are sent.
        </EmptyState>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className={clsx(cardClass, 'p-2')}>
            <ul aria-label="Sent messages" className="divide-y divide-navy-800">
              {page.items.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    aria-current={selected === m.id ? 'true' : undefined}
                    onClick={() => setSelected(m.id)}
                    data-testid="sent-mail-row"
                    className={clsx(
                      'w-full rounded-lg px-3 py-2 text-left transition hover:bg-navy-800',
                      selected === m.id && 'bg-navy-800 ring-1 ring-brand/60',
                    )}
                  >
                    <span className="flex items-center justify-between gap-2">
                      <span className="truncate text-sm font-medium text-white">{m.subject}</span>
                      {m.hasCalendar ? (
                        <Paperclip className="h-4 w-4 shrink-0 text-slate-400" aria-label="with invitation" />
                      ) : null}
                    </span>
                    <span className="mt-0.5 block truncate text-xs text-slate-400">To {m.to}</span>
                    <span className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-slate-400">
                      <Badge>{kindLabel(m.kind)}</Badge>
                      <Badge className={STATUS_BADGE[m.status]}>{m.status}</Badge>
                      <span>{formatShortDateTime(m.sentAt ?? m.createdAt)}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            <div className="flex items-center justify-between gap-2 px-2 pt-3 pb-1 text-xs text-slate-400">
              <span>
                {offset + 1}–{offset + page.items.length} of {page.total}
              </span>
              <span className="flex gap-2">
                <button
                  type="button"
                  className={secondaryButton}
                  disabled={offset === 0}
                  onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
                >
                  Previous
                </button>
                <button
                  type="button"
                  className={secondaryButton}
                  disabled={offset + PAGE_SIZE >= page.total}
                  onClick={() => setOffset(offset + PAGE_SIZE)}
                >
                  Next
                </button>
              </span>
            </div>
          </div>
          <div className={clsx(cardClass, 'min-w-0 p-4')}>
            {selected ? (
              <SentMailDetailPanel id={selected} />
            ) : (
              <p className="py-12 text-center text-sm text-slate-400">Choose a message to read it.</p>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
