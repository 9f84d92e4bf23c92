import { Outlet, useLocation } from 'react-router';
import { LoginScreen } from '../auth/login-page.tsx';
import { AdminGuard } from '../auth/session.tsx';
import { AdminFrame } from '../components/admin-frame.tsx';
import { isConsoleEntry } from '../components/nav-entries.ts';

/**
 * Layout of every signed-in admin screen: the admin guard, then the one admin frame and
 * navigation around the screen. Signed out, the console's entry (/admin, /admin/main) shows
 * the login form (spec §2); every other screen redirects to /admin/login.
 */
export default function AdminShell() {
  const { pathname } = useLocation();
  return (
    <AdminGuard signedOut={isConsoleEntry(pathname) ? <LoginScreen /> : undefined}>
      <AdminFrame>
        <Outlet />
      </AdminFrame>
    </AdminGuard>
  );
}
