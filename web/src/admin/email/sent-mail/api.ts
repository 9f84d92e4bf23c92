import type { OutboxPage, SentMailDetail } from '@parley/contracts';
import { useQuery } from '@tanstack/react-query';
import { adminQueryRetry } from '../../lib/api.ts';

/** The Sent mail view's reads (paths as in the gateway's route table). */

export const OUTBOX_PATH = '/api/admin/email/outbox';
export const PAGE_SIZE = 50;

/** Sent mail's filters (all indexed by the service): recipient (an address or its beginning), campaign, kind. */
export interface OutboxFilters {
  /** Recipient or subject, anywhere in them. */
  q: string;
  to: string;
  campaignId: number | null;
  kind: string;
}

/** A page of Sent mail: `before` is the cursor of the page above it (null: the newest). */
export function useOutbox(filters: OutboxFilters, before: string | null) {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.to.trim()) params.set('to', filters.to.trim());
  if (filters.campaignId !== null) params.set('campaignId', String(filters.campaignId));
  if (filters.kind) params.set('kind', filters.kind);
  if (before) params.set('before', before);
  return useQuery<OutboxPage>({
    queryKey: [`${OUTBOX_PATH}?${params}`],
    // Mail arrives from events at any time: read again when the view is shown or asked.
    staleTime: 0,
    ...adminQueryRetry,
  });
}

export function useSentMail(id: string | null) {
  return useQuery<SentMailDetail>({
    queryKey: [OUTBOX_PATH, id ?? ''],
    enabled: Boolean(id),
    ...adminQueryRetry,
  });
}

export const KIND_LABELS: Record<string, string> = {
  booking_confirmation: 'Booking confirmation',
  booking_cancellation: 'Booking cancellation',
  booking_notification: 'Booking notification',
  contact_notification: 'Contact notification',
  admin_invitation: 'Admin invitation',
  test: 'Test email',
  test_tracking: 'Tracking test',
  campaign: 'Campaign',
  newsletter: 'Newsletter',
  campaign_test: 'Campaign test',
};

export const kindLabel = (kind: string) => KIND_LABELS[kind] ?? kind.replace(/_/g, ' ');

export const STATUS_BADGE: Record<string, string> = {
  sent: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200',
  pending: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  sending: 'border-cyan-400/40 bg-cyan-400/10 text-cyan-200',
  failed: 'border-red-400/40 bg-red-400/10 text-red-200',
  unknown: 'border-slate-400/40 bg-slate-400/10 text-slate-200',
};

export const TRANSPORT_LABELS: Record<string, string> = {
  local: 'Local mailbox',
  smtp: 'SMTP',
  ses: 'Amazon SES',
};

/** Offers text as a file download (the .eml and .ics of a message). */
export function download(filename: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
