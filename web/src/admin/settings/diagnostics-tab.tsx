import type { ServiceName } from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { useQueryClient } from '@tanstack/react-query';
import { Activity, Download, Inbox, Loader2, Play, PlayCircle, RefreshCw, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { sleep } from '../../lib/sleep.ts';
import { formatShortDateTime, formatTimeOfDay } from '../../lib/time.ts';
import {
  Badge,
  cardClass,
  ErrorState,
  LoadingState,
  primaryButton,
  secondaryButton,
} from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import {
  DEAD_LETTERS_PATH,
  runDiagnostic,
  STATUS_PATH,
  useDeadLetters,
  useReplayDeadLetters,
} from './api.ts';
import {
  answeredItem,
  countStatuses,
  type DiagnosticItem,
  failedItem,
  healthReport,
  healthReportName,
  initialItems,
  RUN_ALL_STAGGER_MS,
  type TestStatus,
} from './diagnostics.ts';

const STATUS_LABEL: Record<TestStatus, string> = {
  pending: 'Pending',
  running: 'Running',
  success: 'Success',
  warning: 'Warning',
  error: 'Error',
};
const STATUS_BADGE: Record<TestStatus, string> = {
  pending: 'border-slate-400/40 bg-slate-400/10 text-slate-200',
  running: 'border-cyan-400/40 bg-cyan-400/10 text-cyan-200',
  success: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200',
  warning: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  error: 'border-red-400/40 bg-red-400/10 text-red-200',
};

function TestCard({ item, onRun }: { item: DiagnosticItem; onRun: () => void }) {
  const running = item.status === 'running';
  return (
    <article
      className={`${cardClass} flex flex-col gap-2 p-4`}
      aria-labelledby={`diag-${item.id}-title`}
      data-testid={`diagnostic-${item.id}`}
      aria-busy={running}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={`diag-${item.id}-title`} className="font-semibold text-white">
            {item.name}
          </h3>
          <p className="text-xs text-slate-400">{item.category}</p>
        </div>
        <Badge className={STATUS_BADGE[item.status]}>
          <span data-testid="diagnostic-status">{STATUS_LABEL[item.status]}</span>
        </Badge>
      </div>
      <p className="text-sm text-slate-400">{item.description}</p>
      <p className="text-sm font-medium text-slate-100" data-testid="diagnostic-result">
        {item.result}
      </p>
      {item.details ? (
        <p className="text-xs break-words text-slate-300" data-testid="diagnostic-details">
          {item.details}
        </p>
      ) : null}
      <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-2">
        <p className="text-xs text-slate-400">
          {item.duration !== null ? `${item.duration} ms` : '—'}
          {item.lastRun ? ` · last run ${formatTimeOfDay(item.lastRun)}` : ''}
        </p>
        <button
          type="button"
          className={secondaryButton}
          onClick={onRun}
          disabled={running}
          aria-describedby={`diag-${item.id}-title`}
        >
          {running ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <Play className="h-4 w-4" aria-hidden="true" />
          )}
          {running ? 'Running...' : 'Run Test'}
        </button>
      </div>
    </article>
  );
}

function DeadLettersPanel() {
  const letters = useDeadLetters();
  const replay = useReplayDeadLetters();
  const ask = (service: ServiceName, ids: string[] | 'all') =>
    replay.mutate(
      { service, ids },
      {
        onSuccess: (res) =>
          toast({
            title: 'Replay requested',
            description: `${plural(res.queued, 'dead letter')} of ${res.service} queued for replay.`,
          }),
        onError: (err) =>
          toast({
            variant: 'destructive',
            title: 'Replay failed',
            description: messageOr(err, 'Failed to replay'),
          }),
      },
    );
  const data = letters.data;
  return (
    <section aria-labelledby="dead-letters-title" className={`${cardClass} space-y-3 p-4 sm:p-5`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="dead-letters-title" className="flex items-center gap-2 text-lg font-semibold text-white">
          <Inbox className="h-5 w-5 text-brand" aria-hidden="true" />
          Dead Letters
          {data ? <Badge>{data.total}</Badge> : null}
        </h2>
        <button
          type="button"
          className={secondaryButton}
          onClick={() => void letters.refetch()}
          disabled={letters.isFetching}
          aria-busy={letters.isFetching}
        >
          <RefreshCw className={`h-4 w-4 ${letters.isFetching ? 'animate-spin' : ''}`} aria-hidden="true" />
          Refresh
        </button>
      </div>
      <p className="text-sm text-slate-400">
        Events a service could not handle after retrying for hours, or could not publish. Replay sends them
        again.
      </p>
      {letters.isPending ? (
        <LoadingState label="Asking every service..." />
      ) : letters.isError ? (
        <ErrorState
          title="Dead letters could not be read"
          message={messageOr(letters.error, 'The settings service did not answer')}
          onRetry={() => void letters.refetch()}
        />
      ) : data ? (
        <ul className="divide-y divide-navy-700" aria-label="Dead letters by service">
          {data.services.map((s) => (
            <li key={s.service} className="py-2" data-testid={`dead-letters-${s.service}`}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm text-white">
                  <span className="font-medium capitalize">{s.service}</span>{' '}
                  <span className="text-slate-400">
                    {s.reachable ? plural(s.deadLetters.length, 'dead letter') : s.error}
                  </span>
                </p>
                {s.reachable && s.deadLetters.length > 0 ? (
                  <button
                    type="button"
                    className={secondaryButton}
                    disabled={replay.isPending}
                    onClick={() => ask(s.service, 'all')}
                  >
                    <RotateCcw className="h-4 w-4" aria-hidden="true" />
                    Replay all
                  </button>
                ) : null}
              </div>
              {s.deadLetters.length > 0 ? (
                <ul className="mt-2 space-y-2">
                  {s.deadLetters.map((d) => (
                    <li key={d.id} className="rounded-lg border border-navy-700 bg-navy-950/60 p-2 text-xs">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <span className="font-mono text-slate-200">{d.subject}</span>
                        {d.replayRequested ? (
                          <Badge>Replay requested</Badge>
                        ) : (
                          <button
                            type="button"
                            className="text-brand underline-offset-2 hover:underline disabled:opacity-50"
                            disabled={replay.isPending}
                            onClick={() => ask(s.service, [d.id])}
                          >
                            Replay
                          </button>
                        )}
                      </div>
                      <p className="mt-1 break-words text-slate-400">
                        {d.kind === 'outbox' ? 'Could not be published' : `Consumer ${d.consumer}`} ·{' '}
                        {d.deliveries} attempts · {formatShortDateTime(d.createdAt)}
                      </p>
                      <p className="mt-1 break-words text-red-200/90">{d.error}</p>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * Diagnostics (spec §2, §4): the six test cards, Run All Tests (one test every 500 ms), the
 * health report as JSON named with the date, and every service's dead letters.
 */
export function DiagnosticsTab() {
  const queryClient = useQueryClient();
  const [items, setItems] = useState(initialItems);
  const [runningAll, setRunningAll] = useState(false);
  const unmounted = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    unmounted.current = controller;
    return () => controller.abort();
  }, []);

  const update = (id: string, f: (item: DiagnosticItem) => DiagnosticItem) =>
    setItems((list) => list.map((i) => (i.id === id ? f(i) : i)));

  const run = async (id: string) => {
    update(id, (i) => ({ ...i, status: 'running', result: 'Running...', details: '' }));
    try {
      const answer = await runDiagnostic(id);
      update(id, (i) => answeredItem(i, answer, new Date()));
    } catch (err) {
      const message = messageOr(err, 'Diagnostic test failed');
      update(id, (i) => failedItem(i, message, new Date()));
      toast({ variant: 'destructive', title: 'Diagnostic test failed', description: message });
    }
  };

  const runAll = async () => {
    if (runningAll) return;
    setRunningAll(true);
    const signal = unmounted.current.signal;
    const started: Promise<void>[] = [];
    for (const [index, item] of items.entries()) {
      if (signal.aborted) break;
      if (index > 0) await sleep(RUN_ALL_STAGGER_MS, signal);
      started.push(run(item.id));
    }
    await Promise.all(started);
    if (!signal.aborted) setRunningAll(false);
  };

  const download = () => {
    const at = new Date();
    const report = healthReport(
      items,
      queryClient.getQueryData([STATUS_PATH]) ?? null,
      queryClient.getQueryData([DEAD_LETTERS_PATH]) ?? null,
      at,
    );
    const url = URL.createObjectURL(
      new Blob([`${JSON.stringify(report, null, 2)}\n`], { type: 'application/json' }),
    );
    const a = document.createElement('a');
    a.href = url;
    a.download = healthReportName(at);
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  const counts = countStatuses(items);

  return (
    <div className="space-y-6">
      <section aria-labelledby="diagnostics-title" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="diagnostics-title" className="flex items-center gap-2 text-lg font-semibold text-white">
              <Activity className="h-5 w-5 text-brand" aria-hidden="true" />
              System Diagnostics
            </h2>
            <p className="text-sm text-slate-400" data-testid="diagnostics-summary" aria-live="polite">
              {counts.success} passed · {counts.warning} warnings · {counts.error} failed · {counts.pending}{' '}
              not run
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={primaryButton}
              onClick={() => void runAll()}
              disabled={runningAll}
              aria-busy={runningAll}
            >
              {runningAll ? (
                <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
              ) : (
                <PlayCircle className="h-4 w-4" aria-hidden="true" />
              )}
              {runningAll ? 'Running Tests...' : 'Run All Tests'}
            </button>
            <button type="button" className={secondaryButton} onClick={download}>
              <Download className="h-4 w-4" aria-hidden="true" />
              Download Health Report
            </button>
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {items.map((item) => (
            <TestCard key={item.id} item={item} onRun={() => void run(item.id)} />
          ))}
        </div>
      </section>
      <DeadLettersPanel />
    </div>
  );
}
