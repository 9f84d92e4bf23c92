import {
  FEATURE_PANEL_LIMITS,
  type FeatureInsightsResponse,
  type FeatureRecommendation,
  type FeatureRecommendationsResponse,
  type FeatureStatus,
  type UrgencyLevel,
} from '@parley/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import clsx from 'clsx';
import {
  ArrowRight,
  BookUser,
  CalendarCheck,
  ChartColumn,
  ChartLine,
  Check,
  type LucideIcon,
  Mail,
  Newspaper,
  Palette,
  PenLine,
  PhoneCall,
  Sparkles,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { DialogHeader } from '../../components/dialog.tsx';
import { Badge, cardClass, ErrorState, LoadingState } from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import {
  CATEGORY_FILTERS,
  CATEGORY_LABELS,
  type CategoryFilter,
  timeAgo,
  topRecommendations,
} from './rules.ts';

const ICONS: Record<string, LucideIcon> = {
  mail: Mail,
  newspaper: Newspaper,
  'calendar-check': CalendarCheck,
  'phone-call': PhoneCall,
  palette: Palette,
  'book-user': BookUser,
  'pen-line': PenLine,
  'chart-column': ChartColumn,
  'chart-line': ChartLine,
};

const STATUS: Record<FeatureStatus, { label: string; className: string }> = {
  new: { label: 'New', className: 'border-sky-400/40 bg-sky-400/10 text-sky-200' },
  recommended: { label: 'Recommended', className: 'border-brand/50 bg-brand/10 text-cyan-100' },
  trending: { label: 'Trending', className: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200' },
  underused: { label: 'Underused', className: 'border-amber-400/40 bg-amber-400/10 text-amber-100' },
};

const URGENCY: Record<UrgencyLevel, string> = {
  high: 'High priority',
  medium: 'Medium priority',
  low: 'Low priority',
};

/** Recent actions shown under the suggestions. */
const RECENT_SHOWN = 5;

/**
 * The panel's content (spec §2): category filters, the top 6 recommendations with 2 benefits
 * each, the insights' summary and 2 next steps, and the activity they come from.
 */
export function FeatureDiscoveryPanel({
  recommendations,
  insights,
  onNavigate,
}: {
  recommendations: UseQueryResult<FeatureRecommendationsResponse>;
  insights: UseQueryResult<FeatureInsightsResponse>;
  /** A link inside was followed: the panel closes. */
  onNavigate: () => void;
}) {
  const [filter, setFilter] = useState<CategoryFilter>('all');
  const data = recommendations.data;
  const shown = data ? topRecommendations(data.recommendations, filter) : [];

  return (
    <>
      <DialogHeader
        title={
          <>
            <Sparkles className="h-5 w-5 text-brand" aria-hidden="true" />
            AI Feature Discovery
          </>
        }
        description="Suggestions from what happened on your platform."
      />

      <div className="flex-1 space-y-6 overflow-y-auto px-5 py-5">
        <Insights query={insights} onNavigate={onNavigate} />

        <section aria-labelledby="feature-discovery-suggestions">
          <h3
            id="feature-discovery-suggestions"
            className="text-sm font-semibold tracking-wide text-slate-300 uppercase"
          >
            Suggested features
          </h3>
          <fieldset className="mt-3">
            <legend className="sr-only">Category</legend>
            <div className="flex flex-wrap gap-2">
              {CATEGORY_FILTERS.map((c) => (
                <button
                  key={c}
                  type="button"
                  aria-pressed={filter === c}
                  onClick={() => setFilter(c)}
                  className={clsx(
                    'rounded-full border px-3 py-1 text-sm transition',
                    filter === c
                      ? 'border-brand bg-brand text-navy-950'
                      : 'border-navy-600 text-slate-300 hover:border-brand/70 hover:text-white',
                  )}
                >
                  {CATEGORY_LABELS[c]}
                </button>
              ))}
            </div>
          </fieldset>

          <div className="mt-4">
            {recommendations.isPending ? (
              <LoadingState label="Loading suggestions..." />
            ) : recommendations.isError && !data ? (
              <ErrorState
                title="Suggestions could not be loaded"
                message={messageOr(recommendations.error, 'Failed to load feature recommendations')}
                onRetry={() => void recommendations.refetch()}
              />
            ) : shown.length === 0 ? (
              <p className="rounded-xl border border-navy-700 px-4 py-6 text-center text-sm text-slate-400">
                No {CATEGORY_LABELS[filter].toLowerCase()} suggestions right now.
              </p>
            ) : (
              <ul className="space-y-3" aria-label="Suggested features">
                {shown.map((r) => (
                  <RecommendationCard key={r.id} r={r} onNavigate={onNavigate} />
                ))}
              </ul>
            )}
          </div>
        </section>

        {data ? <Activity activity={data.userActivity} /> : null}
      </div>
    </>
  );
}

function RecommendationCard({ r, onNavigate }: { r: FeatureRecommendation; onNavigate: () => void }) {
  const Icon = ICONS[r.icon] ?? Sparkles;
  const status = STATUS[r.status];
  return (
    <li className={clsx(cardClass, 'p-4')} data-testid="feature-recommendation">
      <div className="flex items-start gap-3">
        <span className="shrink-0 rounded-lg bg-brand/10 p-2">
          <Icon className="h-5 w-5 text-brand" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h4 className="font-semibold text-white">{r.title}</h4>
            <Badge className={status.className}>{status.label}</Badge>
          </div>
          <p className="mt-0.5 text-xs text-slate-400">
            {CATEGORY_LABELS[r.category]} · <span className="tabular-nums">{r.relevanceScore}%</span> relevant
            · {URGENCY[r.urgencyLevel]}
          </p>
          <p className="mt-2 text-sm text-slate-100">{r.reason}</p>
          <p className="mt-1 text-sm text-slate-400">{r.description}</p>
          <ul className="mt-2 space-y-1" aria-label={`Benefits of ${r.title}`}>
            {r.benefits.slice(0, FEATURE_PANEL_LIMITS.benefits).map((b) => (
              <li key={b} className="flex items-start gap-2 text-sm text-slate-300">
                <Check className="mt-0.5 h-4 w-4 shrink-0 text-emerald-300" aria-hidden="true" />
                {b}
              </li>
            ))}
          </ul>
          <Link
            to={r.actionUrl}
            onClick={onNavigate}
            className="mt-3 inline-flex items-center gap-1 text-sm font-medium text-brand underline-offset-2 hover:underline"
          >
            Open {r.title}
            <ArrowRight className="h-4 w-4" aria-hidden="true" />
          </Link>
        </div>
      </div>
    </li>
  );
}

function Insights({
  query,
  onNavigate,
}: {
  query: UseQueryResult<FeatureInsightsResponse>;
  onNavigate: () => void;
}) {
  return (
    <section aria-labelledby="feature-discovery-insights" className={clsx(cardClass, 'p-4')}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3
          id="feature-discovery-insights"
          className="text-sm font-semibold tracking-wide text-slate-300 uppercase"
        >
          Insights
        </h3>
        {query.data ? (
          <Badge>{query.data.provider === 'openai' ? 'Written by OpenAI' : 'Local rules'}</Badge>
        ) : null}
      </div>
      {query.isPending ? (
        <LoadingState label="Loading insights..." />
      ) : query.isError && !query.data ? (
        <ErrorState
          title="Insights could not be loaded"
          message={messageOr(query.error, 'Failed to load feature insights')}
          onRetry={() => void query.refetch()}
        />
      ) : query.data ? (
        <>
          <p className="mt-2 text-sm text-slate-200">{query.data.insights.summary}</p>
          <h4 className="mt-4 text-sm font-medium text-white">Next steps</h4>
          <ol className="mt-2 space-y-2" aria-label="Next steps">
            {query.data.insights.nextSteps.slice(0, FEATURE_PANEL_LIMITS.nextSteps).map((s, i) => (
              <li key={s.featureId} className="flex items-start gap-2 text-sm text-slate-200">
                <span
                  aria-hidden="true"
                  className="flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-brand/15 text-xs font-semibold text-brand"
                >
                  {i + 1}
                </span>
                <Link
                  to={s.actionUrl}
                  onClick={onNavigate}
                  className="underline-offset-2 hover:text-white hover:underline"
                >
                  {s.step}
                </Link>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}

function Activity({ activity }: { activity: FeatureRecommendationsResponse['userActivity'] }) {
  const now = Date.now();
  const stats = [
    { label: 'Address books', value: activity.addressBooksCount },
    { label: 'Contacts', value: activity.contactsCount },
    { label: 'Campaigns sent', value: activity.campaignsCount },
  ];
  return (
    <section aria-labelledby="feature-discovery-activity">
      <h3
        id="feature-discovery-activity"
        className="text-sm font-semibold tracking-wide text-slate-300 uppercase"
      >
        Your activity
      </h3>
      <dl className="mt-3 grid grid-cols-3 gap-2">
        {stats.map((s) => (
          <div key={s.label} className="rounded-xl border border-navy-700 px-3 py-2">
            <dt className="text-xs text-slate-400">{s.label}</dt>
            <dd className="text-lg font-semibold text-white tabular-nums">
              {s.value.toLocaleString('en-US')}
            </dd>
          </div>
        ))}
      </dl>
      {activity.recentActions.length ? (
        <ul className="mt-3 space-y-2" aria-label="Recent activity">
          {activity.recentActions.slice(0, RECENT_SHOWN).map((a) => (
            <li
              key={`${a.occurredAt}-${a.description}`}
              className="flex items-baseline justify-between gap-3 text-sm"
            >
              <span className="min-w-0 text-slate-200">{a.description}</span>
              <time dateTime={a.occurredAt} className="shrink-0 text-xs text-slate-400">
                {timeAgo(a.occurredAt, now)}
              </time>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-sm text-slate-400">No activity recorded yet.</p>
      )}
    </section>
  );
}
