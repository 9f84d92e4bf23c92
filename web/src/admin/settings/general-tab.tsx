import type { PlatformStatus, ServiceState } from '@parley/contracts';
import { useQuery } from '@tanstack/react-query';
import { Database, RefreshCw, Server, UserRound } from 'lucide-react';
import { formatTimeOfDay } from '../../lib/time.ts';
import { Badge, cardClass, ErrorState, LoadingState, secondaryButton } from '../components/ui.tsx';
import { meQuery, messageOr } from '../lib/api.ts';
import { usePlatformStatus } from './api.ts';

const STATE_LABEL: Record<ServiceState, string> = {
  ready: 'Ready',
  not_ready: 'Not ready',
  not_running: 'Not running',
};
const STATE_BADGE: Record<ServiceState, string> = {
  ready: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200',
  not_ready: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  not_running: 'border-red-400/40 bg-red-400/10 text-red-200',
};
const SERVICE_LABEL: Record<string, string> = {
  identity: 'Identity',
  booking: 'Booking',
  blog: 'Blog',
  voice: 'Voice',
  email: 'Email',
  settings: 'Settings',
};
const STORAGE_LABEL: Record<PlatformStatus['storage']['mode'], string> = {
  embedded: 'Embedded PostgreSQL',
  external: 'External PostgreSQL',
  unspecified: 'PostgreSQL',
};

function PlatformStatusCard() {
  const status = usePlatformStatus();
  const data = status.data;
  const ready = data?.services.filter((s) => s.state === 'ready').length ?? 0;
  return (
    <section aria-labelledby="platform-status-title" className={`${cardClass} p-4 sm:p-5`}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="platform-status-title" className="flex items-center gap-2 text-lg font-semibold text-white">
          <Server className="h-5 w-5 text-brand" aria-hidden="true" />
          Platform Status
        </h2>
        <button
          type="button"
          className={secondaryButton}
          onClick={() => void status.refetch()}
          disabled={status.isFetching}
          aria-busy={status.isFetching}
        >
          <RefreshCw className={`h-4 w-4 ${status.isFetching ? 'animate-spin' : ''}`} aria-hidden="true" />
          Refresh
        </button>
      </div>
      {status.isPending ? (
        <LoadingState label="Asking every service..." />
      ) : status.isError ? (
        <ErrorState
          title="Platform status could not be read"
          message={messageOr(status.error, 'The settings service did not answer')}
          onRetry={() => void status.refetch()}
        />
      ) : data ? (
        <>
          <p className="mb-3 text-sm text-slate-300" data-testid="platform-summary">
            {ready} of {data.services.length} services ready · event bus{' '}
            {data.bus.kind === 'nats' ? 'NATS JetStream' : 'in-process (embedded)'}{' '}
            {data.bus.connected ? 'connected' : 'disconnected'}
          </p>
          <p className="mb-2 text-xs text-slate-400">
            Each service is asked over the event bus: an answer means it runs and its bus connection works;
            its database is pinged.
          </p>
          <ul className="divide-y divide-navy-700" aria-label="Services">
            {data.services.map((s) => (
              <li
                key={s.service}
                data-testid={`service-${s.service}`}
                className="flex flex-wrap items-start justify-between gap-2 py-2"
              >
                <div className="min-w-0">
                  <p className="font-medium text-white">{SERVICE_LABEL[s.service] ?? s.service}</p>
                  <p className="text-xs break-words text-slate-400">
                    {s.database
                      ? `Database: ${s.database.details}${s.answeredInMs !== null ? ` · bus round trip ${s.answeredInMs} ms` : ''}`
                      : s.error}
                  </p>
                </div>
                <Badge className={STATE_BADGE[s.state]}>{STATE_LABEL[s.state]}</Badge>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-slate-400">Checked {formatTimeOfDay(data.checkedAt)}</p>
        </>
      ) : null}
    </section>
  );
}

function DataStorageCard() {
  const status = usePlatformStatus();
  const storage = status.data?.storage;
  return (
    <section aria-labelledby="data-storage-title" className={`${cardClass} p-4 sm:p-5`}>
      <h2 id="data-storage-title" className="mb-3 flex items-center gap-2 text-lg font-semibold text-white">
        <Database className="h-5 w-5 text-brand" aria-hidden="true" />
        Data Storage
      </h2>
      {storage ? (
        <dl className="space-y-2 text-sm" data-testid="data-storage">
          <div>
            <dt className="text-slate-400">Database</dt>
            <dd className="text-white">{STORAGE_LABEL[storage.mode]}</dd>
          </div>
          <div>
            <dt className="text-slate-400">Where</dt>
            <dd className="break-words text-slate-200">{storage.description}</dd>
          </div>
          <div>
            <dt className="text-slate-400">Server</dt>
            <dd className="font-mono text-slate-200">{storage.server}</dd>
          </div>
        </dl>
      ) : status.isError ? (
        <p className="text-sm text-red-200">Not known: the platform status could not be read.</p>
      ) : (
        <LoadingState label="Loading..." />
      )}
    </section>
  );
}

function CurrentAdminCard() {
  const me = useQuery(meQuery);
  return (
    <section aria-labelledby="current-admin-title" className={`${cardClass} p-4 sm:p-5`}>
      <h2 id="current-admin-title" className="mb-3 flex items-center gap-2 text-lg font-semibold text-white">
        <UserRound className="h-5 w-5 text-brand" aria-hidden="true" />
        Current Admin
      </h2>
      <p className="text-sm text-slate-200" data-testid="current-admin">
        {me.data ? me.data.email : 'Not authenticated'}
      </p>
    </section>
  );
}

/** General (spec §2): real platform status, where data is stored, the signed-in admin. */
export function GeneralTab() {
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
      <PlatformStatusCard />
      <div className="space-y-6">
        <DataStorageCard />
        <CurrentAdminCard />
      </div>
    </div>
  );
}
