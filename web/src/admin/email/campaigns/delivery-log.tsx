import {
  DELIVERY_STATUSES,
  type DeliveryLogPage as DeliveryLogAnswer,
  type DeliveryLogSend,
  type DeliveryStatus,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { ArrowLeft, Download, ListChecks, Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
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
import { adminQueryRetry, messageOr } from '../../lib/api.ts';
import { formatCount } from '../audience/api.ts';

/**
 * A campaign's delivery log (/admin/email/campaigns/{id}/delivery; a newsletter's campaign
 * too): each recipient of a send with its outcome, opens, clicks and unsubscribe; filtered by
 * outcome, engagement and address; paged by the service's keyset (a stack of cursors for
 * Previous); exported as CSV with the same filters.
 */

const PAGE_SIZE = 50;
export const deliveryLogPath = (campaignId: number) => `/admin/email/campaigns/${campaignId}/delivery`;
const apiPath = (campaignId: number) => `/api/admin/email/campaigns/${campaignId}/delivery-log`;

const STATUS_LABELS: Record<DeliveryStatus, string> = {
  queued: 'Queued',
  sent: 'Sent',
  failed: 'Failed',
  unknown: 'Unknown',
  bounced: 'Bounced',
  complained: 'Complained',
};
const STATUS_BADGE: Record<DeliveryStatus, string> = {
  queued: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  sent: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200',
  failed: 'border-red-400/40 bg-red-400/10 text-red-200',
  unknown: 'border-slate-400/40 bg-slate-400/10 text-slate-200',
  bounced: 'border-red-400/40 bg-red-400/10 text-red-200',
  complained: 'border-fuchsia-400/40 bg-fuchsia-400/10 text-fuchsia-200',
};

type YesNo = '' | 'true' | 'false';
interface Filters {
  sendId: number | null;
  status: DeliveryStatus | '';
  opened: YesNo;
  clicked: YesNo;
  unsubscribed: YesNo;
  q: string;
}

function query(filters: Filters, after: string | null, forExport = false): string {
  const p = new URLSearchParams();
  if (!forExport) p.set('limit', String(PAGE_SIZE));
  if (filters.sendId !== null) p.set('sendId', String(filters.sendId));
  if (filters.status) p.set('status', filters.status);
  for (const k of ['opened', 'clicked', 'unsubscribed'] as const) if (filters[k]) p.set(k, filters[k]);
  if (filters.q.trim()) p.set('q', filters.q.trim());
  if (after) p.set('after', after);
  const s = p.toString();
  return s ? `?${s}` : '';
}

const sendLabel = (s: DeliveryLogSend) =>
  `${s.kind === 'resend' ? 'Resend' : 'Send'}${s.startedAt ? ` of ${formatShortDateTime(s.startedAt)}` : ''} · ${plural(s.total, 'recipient')}${s.testMode ? ' (test mode)' : ''}`;

export default function DeliveryLogScreen() {
  const id = Number(useParams().id);
  const ids = { q: useId(), send: useId(), opened: useId(), clicked: useId(), unsub: useId() };
  const [filters, setFilters] = useState<Filters>({
    sendId: null,
    status: '',
    opened: '',
    clicked: '',
    unsubscribed: '',
    q: '',
  });
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const after = cursors.at(-1) ?? null;
  const log = useQuery<DeliveryLogAnswer>({
    queryKey: [`${apiPath(id)}${query(filters, after)}`],
    enabled: Number.isInteger(id) && id > 0,
    staleTime: 0,
    placeholderData: keepPreviousData,
    ...adminQueryRetry,
  });
  // The whole send's figures come with its first page; kept while paging on.
  const [counts, setCounts] = useState<DeliveryLogAnswer['counts']>(null);
  const fresh = log.data?.counts;
  useEffect(() => {
    if (fresh) setCounts(fresh);
  }, [fresh]);
  const change = (next: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setCursors([null]);
  };
  const page = log.data;
  const yesNo = (key: 'opened' | 'clicked' | 'unsubscribed', label: string, fieldId: string) => (
    <div>
      <label htmlFor={fieldId} className={labelClass}>
        {label}
      </label>
      <select
        id={fieldId}
        className={selectClass}
        value={filters[key]}
        onChange={(e) => change({ [key]: e.target.value as YesNo })}
      >
        <option value="">Either</option>
        <option value="true">Yes</option>
        <option value="false">No</option>
      </select>
    </div>
  );
  return (
    <section data-testid="delivery-log-page">
      <title>Delivery log · Parley Admin</title>
      <PageHeader
        title={page ? `Delivery log: ${page.name}` : 'Delivery log'}
        description="Each recipient of a send: its outcome, opens, clicks and unsubscribe."
        actions={
          <>
            <Link
              to={page?.kind === 'newsletter' ? '/admin/newsletters' : '/admin/email'}
              className={secondaryButton}
            >
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              Back
            </Link>
            {page?.send ? (
              <a
                href={`${apiPath(id)}/export${query({ ...filters, sendId: page.send.id }, null, true)}`}
                download
                className={secondaryButton}
              >
                <Download className="h-4 w-4" aria-hidden="true" />
                Export CSV
              </a>
            ) : null}
          </>
        }
      />
      {log.isPending ? (
        <LoadingState label="Loading the delivery log…" />
      ) : log.isError ? (
        <ErrorState
          title="Failed to load the delivery log"
          message={messageOr(log.error, 'Please try again.')}
          onRetry={() => void log.refetch()}
        />
      ) : !page?.send ? (
        <EmptyState icon={ListChecks} title="Not sent yet">
          The delivery log lists each recipient once the campaign has been sent.
        </EmptyState>
      ) : (
        <>
          {page.sends.length > 1 ? (
            <div className="mb-4 max-w-md">
              <label htmlFor={ids.send} className={labelClass}>
                Send
              </label>
              <select
                id={ids.send}
                className={selectClass}
                value={page.send.id}
                onChange={(e) => {
                  // Another send: its figures come with its unfiltered first page.
                  setCounts(null);
                  change({
                    sendId: Number(e.target.value),
                    status: '',
                    opened: '',
                    clicked: '',
                    unsubscribed: '',
                    q: '',
                  });
                }}
              >
                {page.sends.map((s) => (
                  <option key={s.id} value={s.id}>
                    {sendLabel(s)}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <p className="mb-4 text-sm text-slate-400">{sendLabel(page.send)}</p>
          )}
          <fieldset className="mb-4">
            <legend className="sr-only">Outcome</legend>
            <div className="flex flex-wrap gap-2" data-testid="delivery-status-filter">
              {(['', ...DELIVERY_STATUSES] as const).map((s) => (
                <label
                  key={s || 'all'}
                  className="cursor-pointer rounded-full border border-navy-700 px-3 py-1 text-sm text-slate-300 has-[:checked]:border-brand/60 has-[:checked]:bg-navy-800 has-[:checked]:text-white has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand/60"
                >
                  <input
                    type="radio"
                    name="delivery-status"
                    className="sr-only"
                    checked={filters.status === s}
                    onChange={() => change({ status: s })}
                  />
                  {s ? STATUS_LABELS[s] : 'All'}
                  {counts ? (
                    <span className="ml-1 text-slate-400 tabular-nums">
                      {formatCount(s ? counts[s] : counts.total)}
                    </span>
                  ) : null}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="mb-4 grid gap-3 sm:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]">
            <div>
              <label htmlFor={ids.q} className={labelClass}>
                Recipient
              </label>
              <div className="relative">
                <Search
                  className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-500"
                  aria-hidden="true"
                />
                <input
                  id={ids.q}
                  type="search"
                  value={filters.q}
                  onChange={(e) => change({ q: e.target.value })}
                  placeholder="An address or its beginning…"
                  className={clsx(inputClass, 'pl-9')}
                />
              </div>
            </div>
            {yesNo('opened', 'Opened', ids.opened)}
            {yesNo('clicked', 'Clicked', ids.clicked)}
            {yesNo('unsubscribed', 'Unsubscribed', ids.unsub)}
          </div>
          {counts ? (
            <p className="mb-3 text-sm text-slate-400" data-testid="delivery-engagement">
              {formatCount(counts.opened)} opened · {formatCount(counts.clicked)} clicked ·{' '}
              {formatCount(counts.unsubscribed)} unsubscribed, of {plural(counts.total, 'recipient')}.
            </p>
          ) : null}
          <div className={clsx(cardClass, 'overflow-x-auto')}>
            <table className="w-full min-w-[48rem] text-left text-sm" data-testid="delivery-log">
              <caption className="sr-only">Recipients of this send</caption>
              <thead className="border-b border-navy-800 text-xs text-slate-400">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Recipient
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Outcome
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Sent
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Opens
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Clicks
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Unsubscribed
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-navy-800">
                {page.items.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="px-3 py-8 text-center text-slate-400">
                      No recipient matches.
                    </td>
                  </tr>
                ) : (
                  page.items.map((r) => (
                    <tr key={r.email} data-testid="delivery-row" className="align-top">
                      <td className="px-3 py-2 break-all text-slate-100">{r.email}</td>
                      <td className="px-3 py-2">
                        <Badge className={STATUS_BADGE[r.status]}>{STATUS_LABELS[r.status]}</Badge>
                        {r.lastError ? (
                          <span className="mt-1 block text-xs break-words text-slate-400">{r.lastError}</span>
                        ) : null}
                      </td>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-300">
                        {r.sentAt ? formatShortDateTime(r.sentAt) : '—'}
                      </td>
                      <td className="px-3 py-2 text-right text-slate-300 tabular-nums">
                        {formatCount(r.opens)}
                        {r.proxyOpens ? (
                          <span className="block text-xs text-slate-500">
                            +{formatCount(r.proxyOpens)} proxy
                          </span>
                        ) : null}
                      </td>
                      <td className="px-3 py-2 text-right text-slate-300 tabular-nums">
                        {formatCount(r.clicks)}
                      </td>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-300">
                        {r.unsubscribedAt ? formatShortDateTime(r.unsubscribedAt) : '—'}
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
          <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-3">
            <button
              type="button"
              className={secondaryButton}
              disabled={cursors.length === 1 || log.isFetching}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              Previous
            </button>
            <span className="text-sm text-slate-400" aria-live="polite">
              Page {cursors.length}
            </span>
            <button
              type="button"
              className={secondaryButton}
              disabled={!page.nextCursor || log.isFetching}
              onClick={() => page.nextCursor && setCursors((c) => [...c, page.nextCursor])}
            >
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
