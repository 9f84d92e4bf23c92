import type { AdvancedAnalyticsResponse, AnalyticsPeriod } from '@parley/contracts';
import clsx from 'clsx';
import { CheckCircle2, HelpCircle, Info, Users, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatShortDateTime } from '../../../lib/time.ts';
import { Badge, cardClass, ErrorState, LoadingState, StatCard } from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { formatCount } from '../audience/api.ts';
import { formatRate } from '../campaigns/api.ts';
import { PERIOD_LABELS, useCampaignComparison } from './api.ts';
import { MailingName } from './mailing-name.tsx';
import { RateValue } from './rate-cell.tsx';

/** The Campaigns, Audience and Deliverability sections of Advanced analytics. */

const th = 'px-3 py-2 font-medium';
const num = 'px-3 py-2 text-right tabular-nums';

function ScrollTable({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <section
      // relative: the screen-reader-only texts in the table are positioned inside it, not past the page.
      className="relative overflow-x-auto"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1).
      tabIndex={0}
      data-testid={testId}
    >
      {children}
    </section>
  );
}

export function CampaignsSection({
  a,
  period,
  includeTest,
}: {
  a: AdvancedAnalyticsResponse;
  period: AnalyticsPeriod;
  includeTest: boolean;
}) {
  const comparison = useCampaignComparison(period, true, includeTest);
  return (
    <div className="space-y-4">
      <section className={clsx(cardClass, 'p-4 sm:p-5')} aria-labelledby="top-title">
        <h3 id="top-title" className="text-base font-semibold text-white">
          Top performing campaigns
        </h3>
        <p className="mt-1 text-xs text-slate-400">
          By click rate, then open rate, among the campaigns that delivered mail in the period. Revenue is not
          tracked (no order data reaches the email service), so none is shown.
        </p>
        {a.topPerformingCampaigns.length ? (
          <ol className="mt-3 space-y-2" data-testid="top-campaigns">
            {a.topPerformingCampaigns.map((c, i) => (
              <li
                key={c.id}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 rounded-lg bg-navy-950/40 px-3 py-2 text-sm"
              >
                <span className="min-w-0 font-medium break-words text-white">
                  {i + 1}. <MailingName name={c.name} kind={c.kind} />
                </span>
                <span className="flex flex-wrap gap-x-4 text-xs text-slate-300">
                  <span>{formatCount(c.sent)} sent</span>
                  <span>
                    open <RateValue kind="open" value={c.openRate} />
                  </span>
                  <span>
                    click <RateValue kind="click" value={c.clickRate} />
                  </span>
                  <span className="text-slate-400">revenue not tracked</span>
                </span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-3 text-sm text-slate-400">No campaign delivered mail in this period.</p>
        )}
      </section>

      <section className={clsx(cardClass, 'p-4 sm:p-5')} aria-labelledby="comparison-title">
        <h3 id="comparison-title" className="text-base font-semibold text-white">
          Campaign comparison
        </h3>
        <p className="mt-1 text-xs text-slate-400">
          {PERIOD_LABELS[period]}: each campaign's mails sent in the period, side by side, newest first.
        </p>
        {comparison.isPending ? (
          <LoadingState label="Loading the comparison…" />
        ) : comparison.isError && !comparison.data ? (
          <ErrorState
            title="Failed to load the comparison"
            message={messageOr(comparison.error, '')}
            onRetry={() => void comparison.refetch()}
          />
        ) : !comparison.data?.campaigns.length ? (
          <p className="mt-3 text-sm text-slate-400">No campaign sent mail in this period.</p>
        ) : (
          <ScrollTable label="Campaign comparison" testId="comparison-table">
            <table className="mt-3 w-full min-w-[48rem] text-sm">
              <thead className="border-b border-navy-700 text-xs text-slate-400">
                <tr>
                  <th scope="col" className={`${th} text-left`}>
                    Campaign
                  </th>
                  {['Sent', 'Open rate', 'Click rate', 'Bounce rate', 'Unsubscribe rate', 'Engagement'].map(
                    (h) => (
                      <th key={h} scope="col" className={`${th} text-right`}>
                        {h}
                      </th>
                    ),
                  )}
                </tr>
              </thead>
              <tbody className="divide-y divide-navy-800 text-slate-200">
                {comparison.data.campaigns.map((c) => (
                  <tr key={c.id} data-testid="comparison-row">
                    <th
                      scope="row"
                      className="max-w-[16rem] px-3 py-2 text-left font-medium break-words text-white"
                    >
                      <MailingName name={c.name} kind={c.kind} />
                      <span className="block text-xs font-normal text-slate-400">
                        {formatShortDateTime(c.sentAt)}
                      </span>
                    </th>
                    <td className={num}>{formatCount(c.sent)}</td>
                    <td className={num}>
                      <RateValue kind="open" value={c.openRate} />
                    </td>
                    <td className={num}>
                      <RateValue kind="click" value={c.clickRate} />
                    </td>
                    <td className={num}>{formatRate(c.bounceRate)}</td>
                    <td className={num}>{formatRate(c.unsubscribeRate)}</td>
                    <td className={num}>{formatRate(c.engagementRate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {comparison.data.truncated ? (
              <p className="mt-2 text-xs text-slate-400">The newest 100 campaigns of the period are shown.</p>
            ) : null}
          </ScrollTable>
        )}
      </section>
    </div>
  );
}

export function AudienceSection({ a }: { a: AdvancedAnalyticsResponse }) {
  const audience = a.audienceInsights;
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-3">
        <StatCard
          label="Total contacts"
          value={formatCount(audience.totalContacts)}
          icon={Users}
          hint="In every address book"
        />
        <StatCard
          label="Active subscribers"
          value={formatCount(audience.activeSubscribers)}
          icon={CheckCircle2}
          hint="Not unsubscribed or bounced"
        />
      </div>
      <section className={clsx(cardClass, 'p-4 sm:p-5')} aria-labelledby="segments-title">
        <h3 id="segments-title" className="text-base font-semibold text-white">
          Segments: address books
        </h3>
        <p className="mt-1 text-xs text-slate-400">
          Engagement: of the period's delivered campaign mails to a book's contacts, the share opened by a
          person or clicked.
        </p>
        {audience.segmentPerformance.length ? (
          <ScrollTable label="Segment performance" testId="segments-table">
            <table className="mt-3 w-full min-w-[32rem] text-sm">
              <thead className="border-b border-navy-700 text-xs text-slate-400">
                <tr>
                  <th scope="col" className={`${th} text-left`}>
                    Address book
                  </th>
                  {['Contacts', 'Active', 'Mails in period', 'Engagement'].map((h) => (
                    <th key={h} scope="col" className={`${th} text-right`}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-navy-800 text-slate-200">
                {audience.segmentPerformance.map((s) => (
                  <tr key={s.addressBookId} data-testid="segment-row">
                    <th scope="row" className="px-3 py-2 text-left font-medium break-words text-white">
                      {s.segment}
                    </th>
                    <td className={num}>{formatCount(s.size)}</td>
                    <td className={num}>{formatCount(s.activeContacts)}</td>
                    <td className={num}>{formatCount(s.sent)}</td>
                    <td className={num}>
                      {s.engagement === null ? (
                        <span className="text-slate-400">no mail</span>
                      ) : (
                        formatRate(s.engagement)
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        ) : (
          <p className="mt-3 text-sm text-slate-400">No address books yet.</p>
        )}
        {audience.segmentsTruncated ? (
          <p className="mt-2 text-xs text-slate-400">
            The 50 books with the most mail in the period are shown.
          </p>
        ) : null}
      </section>
    </div>
  );
}

function AuthFlag({ label, ok, checked }: { label: string; ok: boolean; checked: boolean }) {
  const state = ok ? 'pass' : checked ? 'missing' : 'unknown';
  const Icon = ok ? CheckCircle2 : checked ? XCircle : HelpCircle;
  return (
    <li
      className="flex items-center justify-between gap-3 rounded-lg bg-navy-950/40 px-3 py-2"
      data-testid={`auth-${label.toLowerCase()}`}
      data-state={state}
    >
      <span className="font-medium text-white">{label}</span>
      <span
        className={clsx(
          'flex items-center gap-1.5 text-sm',
          ok ? 'text-emerald-300' : checked ? 'text-red-300' : 'text-slate-400',
        )}
      >
        <Icon className="h-4 w-4" aria-hidden="true" />
        {ok ? 'Published' : checked ? 'Not found' : 'Unknown'}
      </span>
    </li>
  );
}

export function DeliverabilitySection({ a }: { a: AdvancedAnalyticsResponse }) {
  const h = a.deliverabilityHealth;
  const auth = h.authenticationStatus;
  const defaults: Array<[string, string]> = [
    ['Reputation', String(h.reputation)],
    ['Spam score', String(h.spamScore)],
    ['Blacklist status', h.blacklistStatus],
  ];
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section className={clsx(cardClass, 'p-4 sm:p-5')} aria-labelledby="auth-title">
        <h3 id="auth-title" className="text-base font-semibold text-white">
          Authentication
        </h3>
        <p className="mt-1 text-xs break-words text-slate-400">
          {auth.domain
            ? `DNS of ${auth.domain} (DKIM selector "${auth.selector}")${
                auth.checkedAt ? `, checked ${formatShortDateTime(auth.checkedAt)}` : ''
              }`
            : 'No sender domain'}
        </p>
        <ul className="mt-3 space-y-2 text-sm">
          <AuthFlag label="SPF" ok={auth.spf} checked={auth.checked} />
          <AuthFlag label="DKIM" ok={auth.dkim} checked={auth.checked} />
          <AuthFlag label="DMARC" ok={auth.dmarc} checked={auth.checked} />
        </ul>
        {auth.note ? (
          <p className="mt-2 flex items-start gap-2 text-xs text-amber-200">
            <Info className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden="true" />
            {auth.note}
          </p>
        ) : null}
      </section>
      <section className={clsx(cardClass, 'p-4 sm:p-5')} aria-labelledby="health-title">
        <h3 id="health-title" className="text-base font-semibold text-white">
          Sending health
        </h3>
        <dl className="mt-3 divide-y divide-navy-800 text-sm" data-testid="measured-health">
          {(
            [
              ['Bounce rate', h.bounceRate],
              ['Complaint rate', h.complaintRate],
              ['Unsubscribe rate', h.unsubscribeRate],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="flex items-center justify-between gap-3 py-2">
              <dt className="text-slate-400">{label}</dt>
              <dd className="font-semibold text-white tabular-nums">
                {formatRate(value)} <span className="text-xs font-normal text-slate-400">measured</span>
              </dd>
            </div>
          ))}
          {defaults.map(([label, value]) => (
            <div
              key={label}
              className="flex items-center justify-between gap-3 py-2"
              data-testid="default-figure"
            >
              <dt className="text-slate-400">{label}</dt>
              <dd className="flex items-center gap-2 font-semibold text-slate-300 tabular-nums">
                {value}
                <Badge className="border-amber-400/40 bg-amber-400/10 text-amber-200">
                  default, not measured
                </Badge>
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-xs text-slate-400">{h.defaults.note}</p>
      </section>
    </div>
  );
}
