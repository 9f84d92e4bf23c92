import type { FixHtmlResponse } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  FileText,
  MailOpen,
  MousePointerClick,
  Newspaper,
  Percent,
  Plus,
  RefreshCw,
  Send,
  Wrench,
} from 'lucide-react';
import { useRef, useState } from 'react';
import { returnFocusTo } from '../../components/dialog-focus.ts';
import { type TabDef, Tabs } from '../../components/tabs.tsx';
import { toast } from '../../components/toast/index.ts';
import { BusyButton, PageHeader, primaryButton, StatCard, secondaryButton } from '../components/ui.tsx';
import { formatCount } from '../email/audience-api.ts';
import { formatRate } from '../email/campaigns/api.ts';
import { failureToast, fixHtml, refreshNewsletters, useNewsletterAnalytics, useNewsletters } from './api.ts';
import { ConvertTab } from './convert-tab.tsx';
import { CreateNewsletterDialog } from './create-dialog.tsx';
import { NewslettersTab } from './newsletters-tab.tsx';

type NewsletterTab = 'newsletters' | 'convert';

/** How many repaired drafts the Fix HTML notice names. */
const FIXES_LISTED = 3;

/** The Fix HTML notice: how many drafts changed, and what changed in the first few. */
function fixedToast(r: FixHtmlResponse) {
  const changed = r.items.filter((i) => i.changes.length);
  return {
    title: r.fixedCount
      ? `Fixed HTML in ${formatCount(r.fixedCount)} draft${r.fixedCount === 1 ? '' : 's'}`
      : 'No HTML issues found',
    description: (
      <div data-testid="fix-html-result">
        <p>
          {r.fixedCount
            ? `${formatCount(r.fixedCount)} of ${formatCount(r.checkedCount)} drafts changed.`
            : `${formatCount(r.checkedCount)} draft${r.checkedCount === 1 ? '' : 's'} checked; nothing to change.`}
        </p>
        {changed.length ? (
          <ul className="mt-1 list-disc space-y-0.5 pl-4">
            {changed.slice(0, FIXES_LISTED).map((i) => (
              <li key={`${i.kind}-${i.id}`}>
                {i.name} ({i.kind}): {i.changes.join(', ')}
              </li>
            ))}
            {changed.length > FIXES_LISTED ? (
              <li>and {formatCount(changed.length - FIXES_LISTED)} more</li>
            ) : null}
          </ul>
        ) : null}
      </div>
    ),
    duration: 10_000,
  };
}

/**
 * Newsletters (/admin/newsletters, email marketing §2 "Newsletter screen"): Fix HTML Issues,
 * Refresh Analytics and Create Newsletter; the newsletters' summary; the Newsletters tab (a
 * card per newsletter with its actions) and Convert Blog Posts.
 */
export default function NewslettersPage() {
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<NewsletterTab>('newsletters');
  const [createOpen, setCreateOpen] = useState(false);
  const createButton = useRef<HTMLButtonElement>(null);
  const newsletters = useNewsletters();
  const analytics = useNewsletterAnalytics();

  const fix = useMutation({
    mutationFn: fixHtml,
    onSuccess: async (r) => {
      toast(fixedToast(r));
      await refreshNewsletters(queryClient);
    },
    onError: (err) => toast(failureToast('fixHtml', err)),
  });

  const a = analytics.data;
  const refreshing = analytics.isFetching || newsletters.isFetching;
  const icon = 'h-4 w-4';
  const tabs: TabDef<NewsletterTab>[] = [
    {
      key: 'newsletters',
      label: newsletters.data ? `Newsletters (${formatCount(newsletters.data.length)})` : 'Newsletters',
      icon: <Newspaper className={icon} aria-hidden="true" />,
    },
    { key: 'convert', label: 'Convert Blog Posts', icon: <FileText className={icon} aria-hidden="true" /> },
  ];
  const figure = (n: number | undefined, format: (n: number) => string = formatCount) =>
    n === undefined ? '…' : format(n);
  return (
    <section className="min-w-0">
      <title>Newsletters · Parley Admin</title>
      <PageHeader
        title="Newsletters"
        description="Turn blog posts into newsletters, send or schedule them, and read their engagement."
        actions={
          <>
            <BusyButton
              type="button"
              busy={fix.isPending}
              icon={Wrench}
              className={secondaryButton}
              onClick={() => fix.mutate()}
            >
              Fix HTML Issues
            </BusyButton>
            <button
              type="button"
              className={secondaryButton}
              disabled={refreshing}
              onClick={() => void refreshNewsletters(queryClient)}
            >
              <RefreshCw className={`${icon} ${refreshing ? 'animate-spin' : ''}`} aria-hidden="true" />
              Refresh Analytics
            </button>
            <button
              ref={createButton}
              type="button"
              className={primaryButton}
              onClick={() => setCreateOpen(true)}
            >
              <Plus className={icon} aria-hidden="true" />
              Create Newsletter
            </button>
          </>
        }
      />

      <section
        aria-label="Newsletter summary"
        className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5"
        data-testid="newsletter-summary"
      >
        <StatCard label="Total sent" value={figure(a?.totalSent)} icon={Send} />
        <StatCard label="Opened" value={figure(a?.totalOpened)} icon={MailOpen} />
        <StatCard label="Clicked" value={figure(a?.totalClicked)} icon={MousePointerClick} />
        <StatCard label="Open rate" value={figure(a?.openRate, formatRate)} icon={Percent} />
        <StatCard label="Click rate" value={figure(a?.clickRate, formatRate)} icon={Percent} />
      </section>
      {analytics.isError ? (
        <p role="alert" className="-mt-4 mb-4 text-sm text-red-200">
          The newsletter analytics could not be read. Use Refresh Analytics to try again.
        </p>
      ) : null}

      <Tabs<NewsletterTab> label="Newsletters" tabs={tabs} selected={tab} onSelect={setTab}>
        {tab === 'newsletters' ? (
          <NewslettersTab />
        ) : (
          <ConvertTab onConverted={() => setTab('newsletters')} />
        )}
      </Tabs>
      <CreateNewsletterDialog
        open={createOpen}
        onOpenChange={setCreateOpen}
        onCloseAutoFocus={returnFocusTo(createButton.current)}
      />
    </section>
  );
}
