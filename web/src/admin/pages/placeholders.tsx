import { ComingSoon } from '../components/coming-soon.tsx';

/** Routed screens of later releases, shown inside the admin shell. */

export function AddressBooksPage() {
  return <ComingSoon title="Address Books" description="Manage address books and import contacts." />;
}

export function EmailMarketingPage() {
  return <ComingSoon title="Email Marketing" description="Campaigns, templates and engagement reports." />;
}
