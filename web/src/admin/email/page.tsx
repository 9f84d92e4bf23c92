import { BarChart3, Filter, Inbox, LineChart, Megaphone, Search, ShieldCheck, Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { type TabDef, Tabs } from '../../components/tabs.tsx';
import { PageHeader, secondaryButton } from '../components/ui.tsx';
import { AdvancedAnalyticsTab } from './analytics/advanced-tab.tsx';
import { AnalyticsTab } from './analytics/analytics-tab.tsx';
import { formatCount, useAddressBooks } from './audience/api.ts';
import { ContactSearchTab } from './audience/contact-search-tab.tsx';
import { ImportContactsDialog } from './audience/contacts-import-dialog.tsx';
import { ContactsTab } from './audience/contacts-tab.tsx';
import { SegmentsTab } from './audience/segments/segments-tab.tsx';
import { useCampaigns } from './campaigns/api.ts';
import { CampaignsTab } from './campaigns/campaigns-tab.tsx';
import { DeliverabilityTab } from './deliverability/deliverability-tab.tsx';

export type EmailTab =
  | 'contacts'
  | 'search'
  | 'segments'
  | 'campaigns'
  | 'analytics'
  | 'advanced'
  | 'deliverability';

const icon = 'h-4 w-4';

/**
 * Email marketing (/admin/email, spec §2): seven tabs. Contacts, Contact search and Segments
 * work on the audience (address books, contacts, imports, saved rules over the contacts);
 * Campaigns creates, previews, tests and sends; Analytics and Advanced analytics read the sent
 * campaigns' results (analytics/); Deliverability scores them and checks the sender domain's
 * DNS (deliverability/).
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
    { key: 'segments', label: 'Segments', icon: <Filter className={icon} aria-hidden="true" /> },
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
        ) : tab === 'segments' ? (
          <SegmentsTab />
        ) : tab === 'campaigns' ? (
          <CampaignsTab />
        ) : tab === 'analytics' ? (
          <AnalyticsTab />
        ) : tab === 'advanced' ? (
          <AdvancedAnalyticsTab />
        ) : (
          <DeliverabilityTab />
        )}
      </Tabs>
      <ImportContactsDialog open={importOpen} onOpenChange={setImportOpen} />
    </section>
  );
}
