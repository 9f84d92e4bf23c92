import type { Campaign, EngagementClick, EngagementOpen } from '@parley/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import { type TabDef, Tabs } from '../../../components/tabs.tsx';
import { toast } from '../../../components/toast/index.ts';
import { formatShortDateTime } from '../../../lib/time.ts';
import { cardClass, ErrorState, LoadingState } from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { formatCount } from '../audience/api.ts';
import { AudienceDialog } from '../audience/audience-dialog.tsx';
import { engagementReportPath, useEngagementReport } from './api.ts';
import { IncludeTestToggle, mailCounted } from './include-test-toggle.tsx';
import { RateValue } from './rate-cell.tsx';

type List = 'opens' | 'clicks' | 'proxy';

const name = (p: { firstName: string | null; lastName: string | null }) =>
  [p.firstName, p.lastName].filter(Boolean).join(' ') || '—';

/** Whose report the dialog shows: its title, what the mail is called, and the report's call. */
export interface ReportSource {
  title: string;
  noun: string;
  path: (id: number) => string;
}

const CAMPAIGN_REPORT: ReportSource = {
  title: 'Engagement Report',
  noun: 'campaign',
  path: engagementReportPath,
};

/**
 * The engagement report (email marketing §2 dialogs): the summary, who opened and who
 * clicked, by contact. Opens that only a mail-privacy proxy made (Apple Mail Privacy
 * Protection preloads every image) are listed apart: nobody is known to have read those.
 * A campaign's by default; `source` points it at another sender's report (a newsletter's).
 */
export function EngagementReportDialog({
  campaign,
  source = CAMPAIGN_REPORT,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  campaign: Pick<Campaign, 'id' | 'name'> | null;
  source?: ReportSource;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const [includeTest, setIncludeTest] = useState(false);
  const report = useEngagementReport(campaign?.id ?? null, open, source.path, includeTest);
  const [list, setList] = useState<List>('opens');
  useEffect(() => {
    if (!open) return;
    setList('opens');
    setIncludeTest(false);
  }, [open]);
  useEffect(() => {
    if (open && report.isError)
      toast({
        variant: 'destructive',
        title: 'Failed to load engagement report',
        description: messageOr(report.error, 'Please try again.'),
      });
  }, [open, report.isError, report.error]);

  const r = report.data?.engagementReport;
  const s = r?.summary;
  const tabs: TabDef<List>[] = [
    { key: 'opens', label: `Opens (${formatCount(s?.totalOpened ?? 0)})` },
    { key: 'clicks', label: `Clicks (${formatCount(s?.totalClicked ?? 0)})` },
    { key: 'proxy', label: `Proxy opens (${formatCount(s?.totalProxyOpened ?? 0)})` },
  ];
  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title={source.title}
      description={campaign ? `${campaign.name}: who opened and clicked.` : ''}
      wide
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      {report.isPending ? (
        <LoadingState label="Loading engagement report…" />
      ) : !r || !s ? (
        <ErrorState
          title="Failed to load engagement report"
          message={messageOr(report.error, '')}
          onRetry={() => void report.refetch()}
        />
      ) : (
        <div className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-slate-400" data-testid="engagement-scope">
              {`Counts ${mailCounted(report.data?.includesTestMail ?? false)}.`}
            </p>
            <IncludeTestToggle checked={includeTest} onChange={setIncludeTest} />
          </div>
          <dl className="grid grid-cols-2 gap-2 text-center sm:grid-cols-4" data-testid="engagement-summary">
            <Figure label="Sent" value={formatCount(s.totalSent)} />
            <Figure
              label="Opened"
              value={formatCount(s.totalOpened)}
              extra={<RateValue kind="open" value={s.openRate} />}
            />
            <Figure
              label="Clicked"
              value={formatCount(s.totalClicked)}
              extra={<RateValue kind="click" value={s.clickRate} />}
            />
            <Figure label="Bounced" value={formatCount(s.totalBounced)} />
          </dl>
          <Tabs<List> label="Engagement lists" tabs={tabs} selected={list} onSelect={setList}>
            {list === 'opens' ? (
              <People
                label="Opens"
                rows={r.opens}
                truncated={r.truncated.opens}
                limit={r.limit}
                empty={`Nobody has opened this ${source.noun} yet.`}
                when={(o) => formatShortDateTime((o as EngagementOpen).openedAt)}
                count={(o) => (o as EngagementOpen).openCount}
                whenLabel="First opened"
                countLabel="Opens"
              />
            ) : list === 'clicks' ? (
              <People
                label="Clicks"
                rows={r.clicks}
                truncated={r.truncated.clicks}
                limit={r.limit}
                empty="Nobody has clicked a link yet."
                when={(c) => formatShortDateTime((c as EngagementClick).clickedAt)}
                count={(c) => (c as EngagementClick).clickCount}
                whenLabel="First clicked"
                countLabel="Clicks"
              />
            ) : (
              <div className="space-y-2">
                <p className="text-xs text-slate-400">
                  A mail-privacy proxy (Apple Mail Privacy Protection, Gmail's image proxy) loaded the images
                  of these mails, often before or without anyone reading them: they are not counted as opens.
                </p>
                <People
                  label="Proxy opens"
                  rows={r.proxyOpens}
                  truncated={r.truncated.proxyOpens}
                  limit={r.limit}
                  empty="No proxy-only opens."
                  when={(o) => formatShortDateTime((o as EngagementOpen).openedAt)}
                  count={(o) => (o as EngagementOpen).openCount}
                  whenLabel="First fetched"
                  countLabel="Fetches"
                />
              </div>
            )}
          </Tabs>
        </div>
      )}
    </AudienceDialog>
  );
}

function Figure({ label, value, extra }: { label: string; value: string; extra?: ReactNode }) {
  return (
    <div className={`${cardClass} px-2 py-2`}>
      <dt className="text-xs text-slate-400">{label}</dt>
      <dd className="text-lg font-semibold text-white tabular-nums">
        {value}
        {extra ? <span className="ml-1.5 text-xs">{extra}</span> : null}
      </dd>
    </div>
  );
}

type Person = EngagementOpen | EngagementClick;

function People({
  label,
  rows,
  truncated,
  limit,
  empty,
  when,
  count,
  whenLabel,
  countLabel,
}: {
  label: string;
  rows: Person[];
  truncated: boolean;
  limit: number;
  empty: string;
  when: (p: Person) => string;
  count: (p: Person) => number;
  whenLabel: string;
  countLabel: string;
}) {
  if (!rows.length) return <p className="py-4 text-center text-sm text-slate-400">{empty}</p>;
  return (
    <div>
      <section
        className="relative max-h-80 overflow-auto rounded-lg border border-navy-700"
        aria-label={label}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1).
        tabIndex={0}
      >
        <table
          className="w-full min-w-[34rem] text-sm"
          data-testid={`report-${label.toLowerCase().replace(' ', '-')}`}
        >
          <thead className="sticky top-0 bg-navy-900 text-xs text-slate-400">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-medium">
                Contact
              </th>
              <th scope="col" className="px-3 py-2 text-left font-medium">
                Company
              </th>
              <th scope="col" className="px-3 py-2 text-left font-medium">
                {whenLabel}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {countLabel}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-navy-800 text-slate-200">
            {rows.map((p) => (
              <tr
                key={`${p.contactEmail}|${'openedAt' in p ? p.openedAt : p.clickedAt}`}
                data-testid="report-row"
              >
                <th scope="row" className="px-3 py-2 text-left font-normal">
                  <span className="block font-medium text-white">{name(p)}</span>
                  <span className="block text-xs break-all text-slate-400">{p.contactEmail}</span>
                </th>
                <td className="px-3 py-2 break-words">{p.company ?? '—'}</td>
                <td className="px-3 py-2 whitespace-nowrap">{when(p)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatCount(count(p))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {truncated ? (
        <p className="mt-2 text-xs text-slate-400">
          The newest {formatCount(limit)} are listed; the summary counts all.
        </p>
      ) : null}
    </div>
  );
}
