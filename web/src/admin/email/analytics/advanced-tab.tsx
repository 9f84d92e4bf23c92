import {
  type AdvancedAnalyticsResponse,
  ANALYTICS_PERIODS,
  type AnalyticsPeriod,
  type ChangeMetric,
  type MetricChange,
  type TrendPoint,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import clsx from 'clsx';
import { ArrowDownRight, ArrowUpRight, Minus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { type TabDef, Tabs } from '../../../components/tabs.tsx';
import { cardClass, ErrorState, LoadingState } from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { formatCount } from '../audience/api.ts';
import { formatRate } from '../campaigns/api.ts';
import { AudienceSection, CampaignsSection, DeliverabilitySection } from './advanced-sections.tsx';
import { formatDay, PERIOD_LABELS, TREND_SERIES, useAdvancedAnalytics } from './api.ts';
import { IncludeTestToggle, mailCounted } from './include-test-toggle.tsx';
import { changeText, changeTrend, type Trend } from './rates.ts';

/** Recharts (~100 KB gzipped) is loaded with this tab only, never with the site or the rest of the admin. */
const TrendChart = lazy(() => import('./trend-chart.tsx'));

type Section = 'overview' | 'campaigns' | 'audience' | 'deliverability';

const SECTIONS: TabDef<Section>[] = [
  { key: 'overview', label: 'Overview' },
  { key: 'campaigns', label: 'Campaigns' },
  { key: 'audience', label: 'Audience' },
  { key: 'deliverability', label: 'Deliverability' },
];

/**
 * Advanced analytics (email marketing §2): a period (7d, 30d, 90d, 1y) and four sections.
 * The original showed a placeholder chart and fixed text; here the trend, the changes against
 * the previous period of equal length and the engagement rate are counted from the mails.
 */
export function AdvancedAnalyticsTab() {
  const [period, setPeriod] = useState<AnalyticsPeriod>('30d');
  const [section, setSection] = useState<Section>('overview');
  const [includeTest, setIncludeTest] = useState(false);
  const advanced = useAdvancedAnalytics(period, includeTest);
  const a = advanced.data;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-white">Advanced analytics</h2>
          {a ? (
            <p className="text-xs text-slate-400" data-testid="period-range">
              {rangeText(a)} · {mailCounted(a.includesTestMail)}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <IncludeTestToggle checked={includeTest} onChange={setIncludeTest} />
          <PeriodPicker period={period} onChange={setPeriod} busy={advanced.isFetching} />
        </div>
      </div>
      {advanced.isPending ? (
        <LoadingState label="Loading advanced analytics…" />
      ) : !a ? (
        <ErrorState
          title="Failed to load advanced analytics"
          message={messageOr(advanced.error, '')}
          onRetry={() => void advanced.refetch()}
        />
      ) : (
        <Tabs<Section>
          label="Advanced analytics sections"
          tabs={SECTIONS}
          selected={section}
          onSelect={setSection}
        >
          {section === 'overview' ? (
            <Overview a={a} />
          ) : section === 'campaigns' ? (
            <CampaignsSection a={a} period={period} includeTest={includeTest} />
          ) : section === 'audience' ? (
            <AudienceSection a={a} />
          ) : (
            <DeliverabilitySection a={a} />
          )}
        </Tabs>
      )}
    </div>
  );
}

function rangeText(a: AdvancedAnalyticsResponse): string {
  const day = (iso: string) =>
    new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: a.timeZone });
  const lastPrev = new Date(Date.parse(a.previousTo) - 1).toISOString();
  return `${day(a.from)} – today, compared with ${day(a.previousFrom)} – ${day(lastPrev)} (${a.timeZone})`;
}

function PeriodPicker({
  period,
  onChange,
  busy,
}: {
  period: AnalyticsPeriod;
  onChange: (p: AnalyticsPeriod) => void;
  busy: boolean;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-2" aria-busy={busy}>
      <legend className="sr-only">Period</legend>
      <div className="flex rounded-xl border border-navy-700 bg-navy-900 p-1">
        {ANALYTICS_PERIODS.map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={p === period}
            aria-label={`${p}: ${PERIOD_LABELS[p]}`}
            onClick={() => onChange(p)}
            className={clsx(
              'rounded-lg px-3 py-1.5 text-sm font-medium transition',
              p === period ? 'bg-brand text-navy-950' : 'text-slate-300 hover:bg-navy-800 hover:text-white',
            )}
          >
            {p}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

const TREND_CLASS: Record<Trend, string> = {
  better: 'text-emerald-300',
  worse: 'text-red-300',
  same: 'text-slate-400',
  none: 'text-slate-400',
};
const TREND_WORD: Record<Trend, string> = {
  better: 'better',
  worse: 'worse',
  same: 'unchanged',
  none: 'nothing to compare with',
};

function ChangeFigure({
  metric,
  label,
  change,
  rate,
  previousSent,
}: {
  metric: ChangeMetric;
  label: string;
  change: MetricChange;
  rate?: boolean;
  /** Mails sent in the previous period: without any, its rates are no measurement. */
  previousSent: number;
}) {
  const trend = changeTrend(metric, change);
  const delta = change.pointChange ?? change.change ?? 0;
  const Icon = trend === 'none' || delta === 0 ? Minus : delta > 0 ? ArrowUpRight : ArrowDownRight;
  const value = (n: number) => (rate ? formatRate(n) : formatCount(n));
  return (
    <div className={clsx(cardClass, 'p-4')} data-testid={`change-${metric}`}>
      <p className="text-sm font-medium text-slate-400">{label}</p>
      <p className="mt-1 text-2xl font-bold text-white tabular-nums">{value(change.current)}</p>
      <p
        className={clsx('mt-1 flex items-center gap-1 text-xs font-medium', TREND_CLASS[trend])}
        data-trend={trend}
      >
        <Icon className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
        <span data-testid="change-text">{changeText(change, Boolean(rate))}</span>
        <span className="sr-only">({TREND_WORD[trend]})</span>
      </p>
      <p className="mt-0.5 text-xs text-slate-400">
        previous period: {rate && !previousSent ? 'no mail sent' : value(change.previous)}
      </p>
    </div>
  );
}

function Overview({ a }: { a: AdvancedAnalyticsResponse }) {
  const c = a.changes;
  const prev = a.previousPerformance.totalSent;
  const nothing = a.campaignPerformance.totalSent === 0 && a.trend.every((p) => p.opens + p.clicks === 0);
  return (
    <div className="space-y-4">
      <section
        aria-label="Changes against the previous period"
        className="grid grid-cols-2 gap-3 lg:grid-cols-4"
      >
        <ChangeFigure metric="sent" label="Emails sent" change={c.sent} previousSent={prev} />
        <ChangeFigure metric="opened" label="Opens" change={c.opened} previousSent={prev} />
        <ChangeFigure metric="clicked" label="Clicks" change={c.clicked} previousSent={prev} />
        <ChangeFigure
          metric="engagementRate"
          label="Engagement rate"
          change={c.engagementRate}
          previousSent={prev}
          rate
        />
        <ChangeFigure metric="openRate" label="Open rate" change={c.openRate} previousSent={prev} rate />
        <ChangeFigure metric="clickRate" label="Click rate" change={c.clickRate} previousSent={prev} rate />
        <ChangeFigure
          metric="bounceRate"
          label="Bounce rate"
          change={c.bounceRate}
          previousSent={prev}
          rate
        />
        <ChangeFigure
          metric="unsubscribed"
          label="Unsubscribes"
          change={c.unsubscribed}
          previousSent={prev}
        />
      </section>
      <p className="text-xs text-slate-400">
        Figures are for the mails sent in the period, whenever they were opened. Engagement rate: mails opened
        by a person or clicked, out of those delivered ({formatCount(a.campaignPerformance.totalEngaged)} of{' '}
        {formatCount(a.campaignPerformance.totalDelivered)}). Opens by mail-privacy proxies (
        {formatCount(a.campaignPerformance.totalProxyOpened)}) are not counted as opens.
      </p>
      <section className={clsx(cardClass, 'p-4 sm:p-5')} aria-labelledby="trend-title">
        <h3 id="trend-title" className="text-base font-semibold text-white">
          {a.bucket === 'week' ? 'Weekly' : 'Daily'} activity
        </h3>
        <p className="mt-1 text-sm text-slate-300" data-testid="trend-summary">
          {trendSummary(a)}
        </p>
        <p className="mt-1 text-xs text-slate-400">
          Each mail counts once per kind, on the {a.bucket === 'week' ? 'week' : 'day'} it first did it.
        </p>
        {nothing ? (
          <p className="mt-1 text-sm text-slate-400">No campaign mail was sent or opened in this period.</p>
        ) : null}
        <div className="mt-3">
          <Suspense fallback={<LoadingState label="Loading chart…" />}>
            <TrendChart trend={a.trend} />
          </Suspense>
        </div>
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-brand">Show the figures as a table</summary>
          <TrendTable trend={a.trend} week={a.bucket === 'week'} />
        </details>
      </section>
    </div>
  );
}

function trendSummary(a: AdvancedAnalyticsResponse): string {
  const sum = (k: keyof Omit<TrendPoint, 'date'>) => a.trend.reduce((n, p) => n + p[k], 0);
  const busiest = a.trend.reduce<TrendPoint | null>((b, p) => (p.opens > (b?.opens ?? 0) ? p : b), null);
  const parts = [
    `${count(sum('sent'), 'mail', 'mails')} sent`,
    count(sum('opens'), 'open', 'opens'),
    count(sum('clicks'), 'click', 'clicks'),
    count(sum('bounces'), 'bounce', 'bounces'),
    count(sum('unsubscribes'), 'unsubscribe', 'unsubscribes'),
  ];
  const when = busiest ? `${a.bucket === 'week' ? 'the week of ' : ''}${formatDay(busiest.date)}` : '';
  return `${PERIOD_LABELS[a.period]}: ${parts.join(', ')}.${
    busiest ? ` Most opens: ${when} (${formatCount(busiest.opens)}).` : ''
  }`;
}

const count = plural;

function TrendTable({ trend, week }: { trend: TrendPoint[]; week: boolean }) {
  return (
    <section
      className="relative mt-2 max-h-80 overflow-auto rounded-lg border border-navy-700"
      aria-label="Activity by day"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1).
      tabIndex={0}
    >
      <table className="w-full text-xs" data-testid="trend-table">
        <thead className="sticky top-0 bg-navy-900 text-slate-400">
          <tr>
            <th scope="col" className="px-2 py-1.5 text-left font-medium">
              {week ? 'Week of' : 'Day'}
            </th>
            <th scope="col" className="px-2 py-1.5 text-right font-medium">
              Sent
            </th>
            {TREND_SERIES.map((s) => (
              <th key={s.key} scope="col" className="px-2 py-1.5 text-right font-medium">
                {s.label}
              </th>
            ))}
            <th scope="col" className="px-2 py-1.5 text-right font-medium">
              Proxy opens
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-navy-800 text-slate-200">
          {trend.map((p) => (
            <tr key={p.date}>
              <th scope="row" className="px-2 py-1 text-left font-normal">
                {formatDay(p.date)}
              </th>
              <td className="px-2 py-1 text-right tabular-nums">{formatCount(p.sent)}</td>
              {TREND_SERIES.map((s) => (
                <td key={s.key} className="px-2 py-1 text-right tabular-nums">
                  {formatCount(p[s.key])}
                </td>
              ))}
              <td className="px-2 py-1 text-right tabular-nums">{formatCount(p.proxyOpens)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
