import { useQueryClient } from '@tanstack/react-query';
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
import { PageHeader, primaryButton, StatCard, secondaryButton } from '../components/ui.tsx';
import { formatCount } from '../email/audience/api.ts';
import { formatRate } from '../email/campaigns/api.ts';
import { refreshNewsletters, useNewsletterAnalytics, useNewsletters } from './api.ts';
import { ConvertTab } from './convert-tab.tsx';
import { CreateNewsletterDialog } from './create-dialog.tsx';
import { FixHtmlDialog } from './fix-html-dialog.tsx';
import { NewslettersTab } from './newsletters-tab.tsx';

type NewsletterTab = 'newsletters' | 'convert';

/**
 * Newsletters (/admin/newsletters, email marketing §2 "Newsletter screen"): Fix HTML Issues,
 * Refresh Analytics and Create Newsletter; the newsletters' summary; the Newsletters tab (a
 * card per newsletter with its actions) and Convert Blog Posts.
 */
export default function NewslettersPage() {
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<NewsletterTab>('newsletters');
  const [createOpen, setCreateOpen] = useState(false);
  const [fixOpen, setFixOpen] = useState(false);
  const createButton = useRef<HTMLButtonElement>(null);
  const fixButton = useRef<HTMLButtonElement>(null);
  const newsletters = useNewsletters();
  const analytics = useNewsletterAnalytics();

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
            <button
              ref={fixButton}
              type="button"
              className={secondaryButton}
              onClick={() => setFixOpen(true)}
            >
              <Wrench className={icon} aria-hidden="true" />
              Fix HTML Issues
            </button>
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
      <FixHtmlDialog
        open={fixOpen}
        onOpenChange={setFixOpen}
        onCloseAutoFocus={returnFocusTo(fixButton.current)}
      />
    </section>
  );
}
