import { Navigate, useLocation } from 'react-router';
import { sectionRoute } from '../components/nav-entries.ts';
import { GeneralSettings } from '../settings/page.tsx';
import { Dashboard } from './dashboard.tsx';

/**
 * The console's entry at /admin and /admin/main (spec §2), inside the admin shell. Each of
 * the console's sections is a route of its own now; an old link to one (`/admin?section=voice`)
 * is sent on to it. Bare /admin opens Settings, as the spec's route table and highlight rule
 * say; /admin/main opens the Dashboard (docs/adr/0034-one-admin-navigation.md).
 */
export default function ConsoleEntry() {
  const { pathname, search } = useLocation();
  const to = sectionRoute(search);
  if (to) return <Navigate to={to} replace />;
  return pathname.startsWith('/admin/main') ? <Dashboard /> : <GeneralSettings />;
}
