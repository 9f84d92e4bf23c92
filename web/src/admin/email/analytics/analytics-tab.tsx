import type { CampaignAnalytics } from '@parley/contracts';
import { nounFor, plural } from '@parley/contracts/plural';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, BarChart3, Info, MailOpen, MousePointerClick, RefreshCw, Send } from 'lucide-react';
import { useState } from 'react';
import { formatShortDateTime } from '../../../lib/time.ts';
import {
  Badge,
  cardClass,
  EmptyState,
  ErrorState,
  LoadingState,
  StatCard,
  secondaryButton,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { formatCount } from '../audience/api.ts';
import {
  ANALYTICS_PATH,
  CAMPAIGN_STATUS_BADGE,
  CAMPAIGN_STATUS_LABELS,
  formatRate,
} from '../campaigns/api.ts';
import { useAnalytics } from './api.ts';
import { IncludeTestToggle, mailCounted } from './include-test-toggle.tsx';
import { MailingName } from './mailing-name.tsx';
import { RateValue } from './rate-cell.tsx';

/**
 * The Analytics tab (email marketing §2): emails sent, opens with the open rate, link clicks
 * with the click rate, the bounce rate with the bounce count, and a row per launched campaign
 * with the spec's rate colours. Read every 5 minutes. Opens are people's: what a mail-privacy
 * proxy fetched is counted apart and said so. Live mail only, test mail on request.
 */
export function AnalyticsTab() {
  const queryClient = useQueryClient();
  const [includeTest, setIncludeTest] = useState(false);
  const analytics = useAnalytics(includeTest);
  if (analytics.isPending) return <LoadingState label="Loading analytics…" />;
  if (analytics.isError)
    return (
      <ErrorState
        title="Failed to load analytics"
        message={messageOr(analytics.error, '')}
        onRetry={() => void analytics.refetch()}
      />
    );
  const a = analytics.data;
  const refresh = () =>
    void queryClient.invalidateQueries({
      predicate: (q) => String(q.queryKey[0]).startsWith(ANALYTICS_PATH),
    });
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-white">Campaign analytics</h2>
          <p className="text-xs text-slate-400" data-testid="analytics-scope">
            All campaign mail so far, {mailCounted(a.includesTestMail)} · updated{' '}
            {formatShortDateTime(a.generatedAt)} · refreshed every 5 minutes
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <IncludeTestToggle checked={includeTest} onChange={setIncludeTest} />
          <button type="button" className={secondaryButton} disabled={analytics.isFetching} onClick={refresh}>
            <RefreshCw
              className={`h-4 w-4 ${analytics.isFetching ? 'animate-spin' : ''}`}
              aria-hidden="true"
            />
            Refresh
          </button>
        </div>
      </div>
      {!a.campaigns.length ? (
        <EmptyState icon={BarChart3} title="Nothing sent yet">
          Analytics count real mail: once a campaign is sent, its emails, opens, clicks and bounces appear
          here.
        </EmptyState>
      ) : (
        <>
          <section
            aria-label="Totals"
            className="grid grid-cols-2 gap-3 lg:grid-cols-4"
            data-testid="analytics-cards"
          >
            <StatCard
              label="Emails sent"
              value={formatCount(a.totalSent)}
              icon={Send}
              hint={`${formatCount(a.totalDelivered)} delivered`}
            />
            <StatCard
              label="Opens"
              value={formatCount(a.totalOpened)}
              icon={MailOpen}
              hint={`${formatRate(a.openRate)} open rate`}
            />
            <StatCard
              label="Link clicks"
              value={formatCount(a.totalClicked)}
              icon={MousePointerClick}
              hint={`${formatRate(a.clickRate)} click rate`}
            />
            <StatCard
              label="Bounce rate"
              value={formatRate(a.bounceRate)}
              icon={AlertTriangle}
              hint={plural(a.totalBounced, 'bounce')}
            />
          </section>
          {a.totalProxyOpened > 0 ? (
            <p className="flex items-start gap-2 text-sm text-slate-400" data-testid="proxy-note">
              <Info className="mt-0.5 h-4 w-4 shrink-0 text-brand" aria-hidden="true" />
              <span>
                {formatCount(a.totalProxyOpened)} more {nounFor(a.totalProxyOpened, 'mail was', 'mails were')}{' '}
                opened only by a mail-privacy proxy (such as Apple Mail Privacy Protection), which loads
                images without anyone reading: not counted as opens.
              </span>
            </p>
          ) : null}
          {a.totalSent === 0 ? (
            <p className="text-sm text-slate-400">
              No campaign mail has gone out yet: the campaigns below are scheduled or starting.
            </p>
          ) : null}
          <CampaignTable campaigns={a.campaigns} />
        </>
      )}
    </div>
  );
}

function CampaignTable({ campaigns }: { campaigns: CampaignAnalytics[] }) {
  const num = 'px-3 py-2 text-right tabular-nums';
  return (
    <section
      className={`${cardClass} relative overflow-x-auto`}
      aria-label="Campaign performance"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1).
      tabIndex={0}
    >
      <table className="w-full min-w-[44rem] text-sm" data-testid="analytics-table">
        <caption className="sr-only">Per-campaign sends, opens and clicks</caption>
        <thead className="border-b border-navy-700 text-xs text-slate-400">
          <tr>
            <th scope="col" className="px-3 py-2 text-left font-medium">
              Campaign
            </th>
            <th scope="col" className="px-3 py-2 text-left font-medium">
              Status
            </th>
            {['Sent', 'Delivered', 'Opens', 'Clicks', 'Open rate', 'Click rate'].map((h) => (
              <th key={h} scope="col" className="px-3 py-2 text-right font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-navy-800">
          {campaigns.map((c) => (
            <tr key={c.id} data-testid="analytics-row" className="text-slate-200">
              <th
                scope="row"
                className="max-w-[16rem] px-3 py-2 text-left font-medium break-words text-white"
              >
                <MailingName name={c.name} kind={c.kind} />
                {c.sentAt ? (
                  <span className="block text-xs font-normal text-slate-400">
                    {formatShortDateTime(c.sentAt)}
                  </span>
                ) : null}
              </th>
              <td className="px-3 py-2">
                <Badge className={CAMPAIGN_STATUS_BADGE[c.status]}>{CAMPAIGN_STATUS_LABELS[c.status]}</Badge>
              </td>
              <td className={num} data-col="sent">
                {formatCount(c.sent)}
              </td>
              <td className={num} data-col="delivered">
                {formatCount(c.delivered)}
              </td>
              <td className={num} data-col="opens">
                {formatCount(c.opens)}
                {c.proxyOpens > 0 ? (
                  <span className="block text-xs text-slate-400">+{formatCount(c.proxyOpens)} proxy</span>
                ) : null}
              </td>
              <td className={num} data-col="clicks">
                {formatCount(c.clicks)}
              </td>
              <td className={num} data-col="open-rate">
                <RateValue kind="open" value={c.openRate} />
              </td>
              <td className={num} data-col="click-rate">
                <RateValue kind="click" value={c.clickRate} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
