import type { ContactRequestPage } from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Building2, ChevronLeft, ChevronRight, Inbox, Mail, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { formatShortDateTime } from '../../lib/time.ts';
import {
  Badge,
  cardClass,
  EmptyState,
  ErrorState,
  LoadingState,
  secondaryButton,
} from '../components/ui.tsx';
import { adminQueryRetry, CONTACT_REQUESTS_PATH, messageOr } from '../lib/api.ts';

export const CONTACT_PAGE_SIZE = 20;

/** The contact form's submissions, newest first as the server lists them, a page at a time. */
export function ContactRequests() {
  const [offset, setOffset] = useState(0);
  const query = useQuery<ContactRequestPage>({
    queryKey: [`${CONTACT_REQUESTS_PATH}?limit=${CONTACT_PAGE_SIZE}&offset=${offset}`],
    placeholderData: keepPreviousData,
    ...adminQueryRetry,
  });

  if (query.isPending) return <LoadingState label="Loading contact requests..." />;
  if (query.isError) {
    return (
      <ErrorState
        title="Failed to fetch contact requests"
        message={messageOr(query.error, '')}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const { items, total } = query.data;
  if (total === 0) {
    return (
      <EmptyState icon={Inbox} title="No contact requests yet">
        Messages sent through the website's contact form appear here.
      </EmptyState>
    );
  }
  const from = Math.min(offset + 1, total);
  const to = Math.min(offset + items.length, total);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-400" aria-live="polite">
          Showing {from}–{to} of {plural(total, 'contact request')}
        </p>
        <button
          type="button"
          className={secondaryButton}
          onClick={() => void query.refetch()}
          disabled={query.isFetching}
        >
          <RefreshCw className={`h-4 w-4 ${query.isFetching ? 'animate-spin' : ''}`} aria-hidden="true" />
          Refresh
        </button>
      </div>
      <ul className="space-y-3" aria-busy={query.isPlaceholderData}>
        {items.map((c) => (
          <li key={c.id} className={`${cardClass} p-4 sm:p-5`} data-testid="contact-request">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <h2 className="font-semibold text-white">
                  {c.firstName} {c.lastName}
                </h2>
                <p className="mt-0.5 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
                  <a
                    href={`mailto:${c.email}`}
                    className="inline-flex items-center gap-1.5 text-brand underline-offset-2 hover:underline"
                  >
                    <Mail className="h-4 w-4" aria-hidden="true" />
                    {c.email}
                  </a>
                  <span className="inline-flex items-center gap-1.5 text-slate-300">
                    <Building2 className="h-4 w-4 text-slate-500" aria-hidden="true" />
                    {c.company}
                  </span>
                  {c.companySize ? <Badge>{c.companySize} employees</Badge> : null}
                </p>
              </div>
              <time dateTime={c.createdAt} className="text-xs text-slate-500">
                {formatShortDateTime(c.createdAt)}
              </time>
            </div>
            {c.message ? (
              <p className="mt-3 text-sm whitespace-pre-line break-words text-slate-300">{c.message}</p>
            ) : null}
          </li>
        ))}
      </ul>
      {total > CONTACT_PAGE_SIZE ? (
        <nav aria-label="Contact requests pages" className="flex items-center justify-between gap-3">
          <button
            type="button"
            className={secondaryButton}
            disabled={offset === 0 || query.isFetching}
            onClick={() => setOffset((o) => Math.max(0, o - CONTACT_PAGE_SIZE))}
          >
            <ChevronLeft className="h-4 w-4" aria-hidden="true" />
            Previous
          </button>
          <button
            type="button"
            className={secondaryButton}
            disabled={offset + CONTACT_PAGE_SIZE >= total || query.isFetching}
            onClick={() => setOffset((o) => o + CONTACT_PAGE_SIZE)}
          >
            Next
            <ChevronRight className="h-4 w-4" aria-hidden="true" />
          </button>
        </nav>
      ) : null}
    </div>
  );
}
