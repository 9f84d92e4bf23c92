import type { CallStatus, Conversation } from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { ChevronDown, ChevronRight, Loader2, PhoneCall, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { formatShortDateTime } from '../../lib/time.ts';
import {
  Badge,
  cardClass,
  EmptyState,
  ErrorState,
  LoadingState,
  secondaryButton,
} from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import {
  CALL_STATUS_BADGE,
  CALL_STATUS_LABELS,
  formatDuration,
  isFinalStatus,
  useConversations,
} from './api.ts';

export function CallStatusBadge({ status }: { status: CallStatus }) {
  return (
    <Badge className={CALL_STATUS_BADGE[status]}>
      {isFinalStatus(status) ? null : (
        <Loader2 className="mr-1 h-3 w-3 animate-spin motion-reduce:animate-none" aria-hidden="true" />
      )}
      {CALL_STATUS_LABELS[status]}
    </Badge>
  );
}

function CallRow({ call }: { call: Conversation }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const lines = call.transcript.length;
  return (
    <li className="py-4" data-testid="voice-call" data-call-sid={call.callSid ?? undefined}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-medium text-white tabular-nums">{call.phone}</p>
            <CallStatusBadge status={call.status} />
            <Badge>{call.kind === 'demo' ? 'Demo call' : 'Admin call'}</Badge>
            {call.simulated ? (
              <Badge className="border-violet-400/40 bg-violet-400/10 text-violet-200">Simulated</Badge>
            ) : null}
          </div>
          <p className="mt-1 text-xs text-slate-500">
            {formatShortDateTime(call.createdAt)} ·{' '}
            <span className="font-mono">{call.callSid ?? 'not placed'}</span>
          </p>
          {call.placeError ? <p className="mt-1 text-xs text-red-300">{call.placeError}</p> : null}
        </div>
        <p className="text-sm text-slate-300 tabular-nums">
          <span className="text-slate-500">Duration </span>
          {/* The provider reports the duration when the call ends. */}
          {isFinalStatus(call.status) ? formatDuration(call.duration) : '—'}
        </p>
      </div>
      {lines > 0 ? (
        <div className="mt-2">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={`${id}-transcript`}
            onClick={() => setOpen((o) => !o)}
            className="inline-flex items-center gap-1 text-sm text-brand underline-offset-2 hover:underline"
          >
            {open ? (
              <ChevronDown className="h-4 w-4" aria-hidden="true" />
            ) : (
              <ChevronRight className="h-4 w-4" aria-hidden="true" />
            )}
            Transcript ({plural(lines, 'line')})
          </button>
          {open ? (
            <ol
              id={`${id}-transcript`}
              aria-label={`Transcript of the call to ${call.phone}`}
              className="mt-2 space-y-1 rounded-xl border border-navy-700 bg-navy-950/60 p-3 text-sm text-slate-300"
            >
              {call.transcript.map((line, i) => (
                // Lines only ever get appended, so the index is a stable key.
                // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
                <li key={i}>{line}</li>
              ))}
            </ol>
          ) : null}
        </div>
      ) : (
        <p className="mt-2 text-xs text-slate-500">
          {isFinalStatus(call.status)
            ? 'No transcript recorded.'
            : 'The transcript appears once the call is answered.'}
        </p>
      )}
    </li>
  );
}

/**
 * Call History (spec §2): every call, newest first, with its status, duration, transcript
 * and whether it was simulated. While a call is under way the list refreshes on its own.
 */
export function CallHistoryTab() {
  const calls = useConversations();
  const live = calls.data?.some((c) => !isFinalStatus(c.status)) ?? false;
  // The live polling is shown by its own marker; the button only spins for a manual refresh.
  const refreshing = calls.isFetching && !live;
  return (
    <div className={`${cardClass} p-4 sm:p-5`}>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-white">
          Call History{calls.data ? ` (${calls.data.length})` : ''}
        </h2>
        <div className="flex items-center gap-3">
          {live ? (
            <span className="inline-flex items-center gap-1.5 text-xs text-cyan-200" role="status">
              <span className="h-2 w-2 animate-pulse rounded-full bg-cyan-300" aria-hidden="true" />
              Updating live
            </span>
          ) : null}
          <button
            type="button"
            className={secondaryButton}
            onClick={() => void calls.refetch()}
            disabled={refreshing}
          >
            <RefreshCw className={`h-4 w-4 ${refreshing ? 'animate-spin' : ''}`} aria-hidden="true" />
            Refresh
          </button>
        </div>
      </div>
      {calls.isPending ? (
        <LoadingState label="Loading call history..." />
      ) : calls.isError && !calls.data ? (
        <ErrorState
          title="Failed to load call history"
          message={messageOr(calls.error, '')}
          onRetry={() => void calls.refetch()}
        />
      ) : calls.data.length === 0 ? (
        <EmptyState icon={PhoneCall} title="No calls yet">
          Calls placed from Make Calls and demo calls from the website appear here.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-navy-700">
          {calls.data.map((c) => (
            <CallRow key={c.id} call={c} />
          ))}
        </ul>
      )}
    </div>
  );
}
