import {
  DELIVERABILITY_THRESHOLDS,
  type DeliverabilityReport,
  type DeliverabilitySeverity,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import {
  AlertCircle,
  AlertTriangle,
  CheckCircle2,
  FlaskConical,
  Info,
  MailCheck,
  MailOpen,
  MailX,
  MousePointerClick,
  RefreshCw,
  Send,
  UserCheck,
  UserMinus,
  Users,
  UserX,
} from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { returnFocusTo } from '../../../components/dialog-focus.ts';
import { formatShortDateTime } from '../../../lib/time.ts';
import {
  Badge,
  cardClass,
  ErrorState,
  LoadingState,
  primaryButton,
  StatCard,
  secondaryButton,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { IncludeTestToggle, mailCounted } from '../analytics/include-test-toggle.tsx';
import { formatCount } from '../audience/api.ts';
import { useCampaigns } from '../campaigns/api.ts';
import { AntiSpamChecklist } from './anti-spam-checklist.tsx';
import { useDeliverability } from './api.ts';
import { DeliverabilityTestDialog } from './deliverability-test-dialog.tsx';
import { DnsCheckPanel } from './dns-check-panel.tsx';
import { LABEL_TONE, ScoreGauge } from './score-gauge.tsx';

const pct = (n: number) => `${n < 1 && n > 0 ? Number(n.toFixed(3)) : Number(n.toFixed(1))}%`;

/**
 * The Deliverability tab (email marketing §2.7): the score with its label and a gauge, what it
 * rests on, the contact counts, the overall stats, recommendations from the real data, the DNS
 * check of the sender domains and the static anti-spam checklist; the deliverability test
 * dialog opens from here (a draft chosen in it). Nothing sent yet: no score, said plainly.
 */
export function DeliverabilityTab() {
  const [includeTest, setIncludeTest] = useState(false);
  const report = useDeliverability(includeTest);
  const campaigns = useCampaigns();
  const [testOpen, setTestOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const drafts = (campaigns.data ?? []).filter((c) => c.status === 'draft');

  if (report.isPending) return <LoadingState label="Loading deliverability…" />;
  if (report.isError)
    return (
      <ErrorState
        title="Failed to load deliverability"
        message={messageOr(report.error, '')}
        onRetry={() => void report.refetch()}
      />
    );
  const r = report.data;
  return (
    <div className="space-y-4" data-testid="deliverability-tab">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-white">Deliverability</h2>
          <p className="text-xs text-slate-400" data-testid="deliverability-scope">
            {`Campaign mail, ${mailCounted(r.includesTestMail)} · updated ${formatShortDateTime(r.generatedAt)}`}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <IncludeTestToggle checked={includeTest} onChange={setIncludeTest} />
          <button
            type="button"
            className={secondaryButton}
            disabled={report.isFetching}
            onClick={() => void report.refetch()}
          >
            <RefreshCw className={`h-4 w-4 ${report.isFetching ? 'animate-spin' : ''}`} aria-hidden="true" />
            Refresh
          </button>
          <button
            type="button"
            className={primaryButton}
            onClick={(e) => {
              opener.current = e.currentTarget;
              setTestOpen(true);
            }}
          >
            <FlaskConical className="h-4 w-4" aria-hidden="true" />
            Deliverability Test
          </button>
        </div>
      </div>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <ScoreCard r={r} />
        <section
          aria-label="Contacts"
          className="grid grid-cols-2 gap-3 self-start"
          data-testid="contact-counts"
        >
          <StatCard label="Total contacts" value={formatCount(r.totalContacts)} icon={Users} />
          <StatCard label="Active" value={formatCount(r.activeContacts)} icon={UserCheck} />
          <StatCard label="Unsubscribed" value={formatCount(r.unsubscribedContacts)} icon={UserMinus} />
          <StatCard label="Bounced" value={formatCount(r.bouncedContacts)} icon={UserX} />
        </section>
      </div>

      <OverallStats r={r} />
      <Recommendations r={r} />
      <DnsCheckPanel domains={r.authentication.map((a) => a.domain)} />
      <AntiSpamChecklist />

      <DeliverabilityTestDialog
        drafts={drafts}
        open={testOpen}
        onOpenChange={setTestOpen}
        onCloseAutoFocus={returnFocusTo(opener.current)}
      />
    </div>
  );
}

function ScoreCard({ r }: { r: DeliverabilityReport }) {
  const id = useId();
  const T = DELIVERABILITY_THRESHOLDS;
  const rows = [
    {
      key: 'bounce',
      label: 'Bounce rate',
      rate: r.rates.bounceRate,
      points: r.penalties.bounce,
      t: T.bounce,
    },
    {
      key: 'complaint',
      label: 'Spam complaint rate',
      rate: r.rates.complaintRate,
      points: r.penalties.complaint,
      t: T.complaint,
    },
    {
      key: 'unsubscribe',
      label: 'Unsubscribe rate',
      rate: r.rates.unsubscribeRate,
      points: r.penalties.unsubscribe,
      t: T.unsubscribe,
    },
  ] as const;
  return (
    <section aria-labelledby={id} className={`${cardClass} p-4 sm:p-5`} data-testid="score-card">
      <div className="flex items-center justify-between gap-2">
        <h3 id={id} className="text-base font-semibold text-white">
          Deliverability score
        </h3>
        {r.scoreLabel ? (
          <Badge className={LABEL_TONE[r.scoreLabel].badge}>
            <span data-testid="score-label">{r.scoreLabel}</span>
          </Badge>
        ) : (
          <Badge>Not measured</Badge>
        )}
      </div>
      <div className="mt-3">
        <ScoreGauge score={r.deliverabilityScore} label={r.scoreLabel} />
      </div>
      <p className="mt-2 text-center text-sm text-slate-300" data-testid="score-basis">
        {r.basis}
      </p>
      {r.measured ? (
        <dl className="mt-4 space-y-2 text-sm">
          {rows.map((x) => {
            const tone =
              x.rate > x.t.limit ? 'text-red-300' : x.rate > x.t.good ? 'text-amber-200' : 'text-emerald-300';
            return (
              <div key={x.key} className="flex flex-wrap items-baseline justify-between gap-x-3">
                <dt className="text-slate-400">
                  {x.label} <span className="text-xs text-slate-400">(good ≤ {x.t.good}%)</span>
                </dt>
                <dd className="tabular-nums">
                  <span className={`font-semibold ${tone}`}>{pct(x.rate)}</span>
                  <span className="ml-2 text-xs text-slate-400">−{x.points.toFixed(1)} pts</span>
                </dd>
              </div>
            );
          })}
        </dl>
      ) : null}
      <p className="mt-3 text-xs text-slate-400">
        100 less points for bounces (of sent), spam complaints and unsubscribes (of delivered) over the last{' '}
        {plural(r.windowDays, 'day')}: 90 and up Excellent, 70 and up Good, otherwise Needs Improvement.
      </p>
    </section>
  );
}

function OverallStats({ r }: { r: DeliverabilityReport }) {
  const id = useId();
  const s = r.overallStats;
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h3 id={id} className="text-base font-semibold text-white">
        Overall stats <span className="text-xs font-normal text-slate-400">all campaign mail</span>
      </h3>
      {s.totalSent === 0 ? (
        <p className={`${cardClass} p-4 text-sm text-slate-400`} data-testid="stats-empty">
          Nothing has been sent yet. Sent, delivered, opened, clicked, bounced and unsubscribed mail is
          counted here from the first campaign on.
        </p>
      ) : (
        <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid="overall-stats">
          <StatCard label="Sent" value={formatCount(s.totalSent)} icon={Send} />
          <StatCard label="Delivered" value={formatCount(s.totalDelivered)} icon={MailCheck} />
          <StatCard label="Opened" value={formatCount(s.totalOpened)} icon={MailOpen} />
          <StatCard label="Clicked" value={formatCount(s.totalClicked)} icon={MousePointerClick} />
          <StatCard label="Bounced" value={formatCount(s.totalBounced)} icon={MailX} />
          <StatCard label="Unsubscribed" value={formatCount(s.totalUnsubscribed)} icon={UserMinus} />
        </div>
      )}
      {s.totalSent > 0 ? (
        <p className="text-xs text-slate-400" data-testid="stats-note">
          Opened counts people (opens fetched by a mail-privacy proxy are left out); delivered is sent less
          bounced. {plural(s.totalComplained, 'spam complaint')}, {formatCount(s.totalFailed)} refused by the
          mail server.
        </p>
      ) : null}
    </section>
  );
}

const SEVERITY: Record<DeliverabilitySeverity, { icon: typeof Info; tone: string; label: string }> = {
  critical: { icon: AlertCircle, tone: 'text-red-400', label: 'Critical' },
  warning: { icon: AlertTriangle, tone: 'text-amber-300', label: 'Warning' },
  info: { icon: Info, tone: 'text-sky-300', label: 'Note' },
  success: { icon: CheckCircle2, tone: 'text-emerald-400', label: 'Good' },
};

function Recommendations({ r }: { r: DeliverabilityReport }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={`${cardClass} p-4 sm:p-5`}>
      <h3 id={id} className="text-base font-semibold text-white">
        Recommendations
      </h3>
      {r.recommendationDetails.length === 0 ? (
        <p className="mt-2 text-sm text-slate-400">Nothing to recommend right now.</p>
      ) : null}
      <ul className="mt-3 space-y-3" data-testid="recommendations">
        {r.recommendationDetails.map((x) => {
          const s = SEVERITY[x.severity];
          return (
            <li key={x.code} className="flex items-start gap-2 text-sm text-slate-300" data-code={x.code}>
              <s.icon className={`mt-0.5 h-4 w-4 shrink-0 ${s.tone}`} aria-hidden="true" />
              <span>
                <span className="sr-only">{s.label}: </span>
                {x.text}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
