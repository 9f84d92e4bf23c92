import { BarChart3, Gauge, Inbox, LineChart, Megaphone, Search, ShieldCheck, Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { type TabDef, Tabs } from '../../components/tabs.tsx';
import { cardClass, PageHeader, secondaryButton } from '../components/ui.tsx';
import { formatCount, useAddressBooks } from './audience-api.ts';
import { useCampaigns } from './campaigns/api.ts';
import { CampaignsTab } from './campaigns/campaigns-tab.tsx';
import { ContactSearchTab } from './contact-search-tab.tsx';
import { ContactsTab } from './contacts-tab.tsx';
import { ImportContactsDialog } from './import-dialog.tsx';

export type EmailTab = 'contacts' | 'search' | 'campaigns' | 'analytics' | 'advanced' | 'deliverability';

const icon = 'h-4 w-4';

/** What the three analysis tabs will show, said plainly until they exist (no figures are made up). */
const LATER: Record<
  Exclude<EmailTab, 'contacts' | 'search' | 'campaigns'>,
  { title: string; text: string }
> = {
  analytics: {
    title: 'Analytics arrive with campaigns',
    text: 'Emails sent, opens, clicks and bounces per campaign appear here once campaigns are sent. Nothing has been sent yet, so there is nothing to count.',
  },
  advanced: {
    title: 'Advanced analytics arrive with campaigns',
    text: 'Trends by period (7 days to a year), audience and deliverability insights follow the first campaigns.',
  },
  deliverability: {
    title: 'Deliverability arrives with campaigns',
    text: 'The deliverability score, sending statistics and recommendations are computed from real sends; until then there is no score to show.',
  },
};

/**
 * Email marketing (/admin/email, spec §2): six tabs. Contacts and Contact search work on the
 * audience (address books, contacts, imports); Campaigns creates, previews, tests and sends;
 * Analytics, Advanced analytics and Deliverability say honestly that they arrive later.
 */
export default function EmailMarketingPage() {
  const [tab, setTab] = useState<EmailTab>('contacts');
  const [importOpen, setImportOpen] = useState(false);
  const books = useAddressBooks();
  const campaigns = useCampaigns();
  const total = books.data?.reduce((n, b) => n + b.contactCount, 0);
  const tabs: TabDef<EmailTab>[] = [
    {
      key: 'contacts',
      label: total === undefined ? 'Contacts' : `Contacts (${formatCount(total)})`,
      icon: <Users className={icon} aria-hidden="true" />,
    },
    { key: 'search', label: 'Contact search', icon: <Search className={icon} aria-hidden="true" /> },
    {
      key: 'campaigns',
      label: campaigns.data ? `Campaigns (${formatCount(campaigns.data.length)})` : 'Campaigns',
      icon: <Megaphone className={icon} aria-hidden="true" />,
    },
    { key: 'analytics', label: 'Analytics', icon: <BarChart3 className={icon} aria-hidden="true" /> },
    { key: 'advanced', label: 'Advanced analytics', icon: <LineChart className={icon} aria-hidden="true" /> },
    {
      key: 'deliverability',
      label: 'Deliverability',
      icon: <ShieldCheck className={icon} aria-hidden="true" />,
    },
  ];
  return (
    <section>
      <title>Email Marketing · Parley Admin</title>
      <PageHeader
        title="Email Marketing"
        description="Contacts, campaigns, analytics and deliverability."
        actions={
          <Link to="/admin/email/sent" className={secondaryButton}>
            <Inbox className="h-4 w-4" aria-hidden="true" />
            Sent mail
          </Link>
        }
      />
      <Tabs<EmailTab> label="Email marketing" tabs={tabs} selected={tab} onSelect={setTab}>
        {tab === 'contacts' ? (
          <ContactsTab onImport={() => setImportOpen(true)} />
        ) : tab === 'search' ? (
          <ContactSearchTab />
        ) : tab === 'campaigns' ? (
          <CampaignsTab />
        ) : (
          <ArrivesWithCampaigns {...LATER[tab]} />
        )}
      </Tabs>
      <ImportContactsDialog open={importOpen} onOpenChange={setImportOpen} />
    </section>
  );
}

function ArrivesWithCampaigns({ title, text }: { title: string; text: string }) {
  return (
    <div
      className={`${cardClass} flex flex-col items-center px-6 py-14 text-center`}
      data-testid="arrives-later"
    >
      <Gauge className="h-10 w-10 text-slate-500" aria-hidden="true" />
      <p className="mt-3 text-lg font-semibold text-white">{title}</p>
      <p className="mt-1 max-w-lg text-sm text-slate-400">{text}</p>
    </div>
  );
}
