import { Outlet, useLocation } from 'react-router';
import { AdminFrame } from '../components/admin-frame.tsx';
import { isConsoleEntry } from '../components/nav-entries.ts';
import { AdminGuard } from '../lib/session.tsx';
import { LoginScreen } from './login.tsx';

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
