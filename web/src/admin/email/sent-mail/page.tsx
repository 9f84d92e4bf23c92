import { plural } from '@parley/contracts/plural';
import clsx from 'clsx';
import { Clock, Inbox, Paperclip, RefreshCw, Search } from 'lucide-react';
import { useId, useState } from 'react';
import { formatShortDateTime } from '../../../lib/time.ts';
import {
  Badge,
  cardClass,
  EmptyState,
  ErrorState,
  inputClass,
  LoadingState,
  labelClass,
  PageHeader,
  secondaryButton,
  selectClass,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { formatCount } from '../audience/api.ts';
import {
  KIND_LABELS,
  kindLabel,
  type OutboxFilters,
  PAGE_SIZE,
  STATUS_BADGE,
  TRANSPORT_LABELS,
  useOutbox,
} from './api.ts';
import { SentMailDetailPanel } from './detail.tsx';

/**
 * Sent mail (/admin/email/sent): every message the platform sent, whatever the transport,
 * kept for the stated number of days (the retention rule, shown), readable like Mailpit.
 * With the local mailbox this is where mail goes; with SMTP or SES it is the record of what
 * was sent. Filters: recipient (an address or its beginning), campaign and kind; pages go
 * back in time by keyset (a stack of cursors for Newer).
 */
export default function SentMailPage() {
  const searchId = useId();
  const kindId = useId();
  const campaignId = useId();
  const [filters, setFilters] = useState<OutboxFilters>({ q: '', to: '', campaignId: null, kind: '' });
  // Cursors of the pages above the current one (the newest page has none).
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const before = cursors.at(-1) ?? null;
  const [selected, setSelected] = useState<string | null>(null);
  const outbox = useOutbox(filters, before);
  const page = outbox.data;
  const filter = (next: Partial<OutboxFilters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setCursors([null]);
  };
  const filtered = Boolean(
    filters.q.trim() || filters.to.trim() || filters.campaignId !== null || filters.kind,
  );
  const first = (cursors.length - 1) * PAGE_SIZE;
  return (
    <section data-testid="sent-mail-page">
      <title>Sent mail · Parley Admin</title>
      <PageHeader
        title="Sent mail"
        description="Every message the platform sent, campaigns and newsletters included: HTML, text, headers and raw MIME."
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
        <div className="mb-4 space-y-1 text-sm text-slate-400">
          <p data-testid="mail-transport">
            Transport:{' '}
            <span className="text-slate-200">{TRANSPORT_LABELS[page.transport] ?? page.transport}</span> —{' '}
            {page.transportDescription}
          </p>
          <p data-testid="mail-retention" className="flex items-center gap-1.5">
            <Clock className="h-4 w-4 shrink-0" aria-hidden="true" />
            Every message is kept for {plural(page.retentionDays, 'day')}, then deleted. A campaign's delivery
            log keeps each recipient's outcome as long as the campaign.
          </p>
        </div>
      ) : null}
      <div className="relative mb-3">
        <Search
          className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-500"
          aria-hidden="true"
        />
        <input
          type="search"
          aria-label="Search sent mail"
          value={filters.q}
          onChange={(e) => filter({ q: e.target.value })}
          placeholder="Recipient or subject, any part of them…"
          className={clsx(inputClass, 'pl-9')}
        />
      </div>
      <div className="mb-4 grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <div>
          <label htmlFor={searchId} className={labelClass}>
            Recipient
          </label>
          <div className="relative">
            <Search
              className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-500"
              aria-hidden="true"
            />
            <input
              id={searchId}
              type="search"
              value={filters.to}
              onChange={(e) => filter({ to: e.target.value })}
              placeholder="An address or its beginning…"
              className={clsx(inputClass, 'pl-9')}
            />
          </div>
        </div>
        <div>
          <label htmlFor={campaignId} className={labelClass}>
            Campaign
          </label>
          <select
            id={campaignId}
            className={selectClass}
            value={filters.campaignId ?? ''}
            onChange={(e) => filter({ campaignId: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">All campaigns and newsletters</option>
            {(page?.campaigns ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.kind === 'newsletter' ? `Newsletter: ${c.name}` : c.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={kindId} className={labelClass}>
            Kind
          </label>
          <select
            id={kindId}
            className={selectClass}
            value={filters.kind}
            onChange={(e) => filter({ kind: e.target.value })}
          >
            <option value="">All kinds</option>
            {Object.entries(KIND_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
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
        <EmptyState icon={Inbox} title={filtered ? 'No message matches' : 'No mail sent yet'}>
          Booking confirmations, notifications, invitations, test emails, campaigns and newsletters appear
          here as they are sent.
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
                      {m.testMode ? <Badge>test mode</Badge> : null}
                      <span>{formatShortDateTime(m.sentAt ?? m.createdAt)}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            <div className="flex items-center justify-between gap-2 px-2 pt-3 pb-1 text-xs text-slate-400">
              <span data-testid="sent-mail-range">
                {formatCount(first + 1)}–{formatCount(first + page.items.length)} of{' '}
                {page.totalExact ? formatCount(page.total) : `more than ${formatCount(page.total)}`}
              </span>
              <span className="flex gap-2">
                <button
                  type="button"
                  className={secondaryButton}
                  disabled={cursors.length === 1}
                  onClick={() => setCursors((c) => c.slice(0, -1))}
                >
                  Newer
                </button>
                <button
                  type="button"
                  className={secondaryButton}
                  disabled={!page.nextCursor}
                  onClick={() => page.nextCursor && setCursors((c) => [...c, page.nextCursor])}
                >
                  Older
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
