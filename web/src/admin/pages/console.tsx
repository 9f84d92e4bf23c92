import { BookOpen, CalendarDays, LayoutDashboard, type LucideIcon, Mic, Settings, Users } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ConsoleBlogTab } from '../blog/console-tab.tsx';
import { AdminFrame } from '../components/admin-frame.tsx';
import { AdminGuard, useAdmin, useLogout } from '../lib/session.tsx';
import { GeneralSettings } from '../settings/page.tsx';
import { UserManagement } from '../users/page.tsx';
import { VoiceAiManagement } from '../voice/page.tsx';
import { BookingManagement } from './bookings.tsx';
import { Dashboard } from './dashboard.tsx';
import { LoginScreen } from './login.tsx';

type Section = 'dashboard' | 'bookings' | 'users' | 'voice' | 'blog' | 'settings';

const MENU: { key: Section; label: string; icon: LucideIcon; superAdminOnly?: boolean }[] = [
  { key: 'dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { key: 'bookings', label: 'Bookings', icon: CalendarDays },
  { key: 'users', label: 'Admin Users', icon: Users, superAdminOnly: true },
  { key: 'voice', label: 'Voice AI', icon: Mic },
  { key: 'blog', label: 'AI Blog', icon: BookOpen },
  { key: 'settings', label: 'Settings', icon: Settings },
];

/** Logout in the main console returns to the site root after this delay (spec §9). */
export const CONSOLE_LOGOUT_DELAY_MS = 1000;

function Console() {
  const admin = useAdmin();
  const [params, setParams] = useSearchParams();
  const { logout, pending } = useLogout({ to: '/', delayMs: CONSOLE_LOGOUT_DELAY_MS });
  const menu = MENU.filter((m) => !m.superAdminOnly || admin.role === 'super_admin');
  const asked = params.get('section');
  const section: Section = menu.find((m) => m.key === asked)?.key ?? 'dashboard';
  const select = (key: Section) => setParams(key === 'dashboard' ? {} : { section: key });

  return (
    <AdminFrame
      label="Console"
      items={menu.map((m) => ({
        key: m.key,
        label: m.label,
        icon: m.icon,
        active: m.key === section,
        onSelect: () => select(m.key),
      }))}
      onLogout={logout}
      loggingOut={pending}
      screenKey={section}
    >
      {section === 'bookings' ? (
        <BookingManagement />
      ) : section === 'users' ? (
        <UserManagement />
      ) : section === 'voice' ? (
        <VoiceAiManagement />
      ) : section === 'blog' ? (
        <ConsoleBlogTab />
      ) : section === 'settings' ? (
        <GeneralSettings />
      ) : (
        <Dashboard bookingsHref={() => select('bookings')} />
      )}
    </AdminFrame>
  );
}

/**
 * The admin entry at /admin and /admin/main (spec §2 "Console"): loads the current admin;
 * signed out, it shows the login form, otherwise the console with its left menu.
 */
export default function ConsolePage() {
  return (
    <AdminGuard signedOut={<LoginScreen />}>
      <Console />
    </AdminGuard>
  );
}
