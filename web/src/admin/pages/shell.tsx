import { Outlet } from 'react-router';
import { SidebarFrame } from '../components/sidebar.tsx';
import { AdminGuard } from '../lib/session.tsx';

/** Layout of the routed admin screens: the admin guard, then the shared sidebar around the screen. */
export default function AdminShell() {
  return (
    <AdminGuard>
      <SidebarFrame>
        <Outlet />
      </SidebarFrame>
    </AdminGuard>
  );
}
