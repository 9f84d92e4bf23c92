import {
  BookOpen,
  BookUser,
  CalendarDays,
  LayoutDashboard,
  type LucideIcon,
  Mail,
  Newspaper,
  Settings,
  Users,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useAdmin, useLogout } from '../lib/session.tsx';
import { AdminFrame } from './admin-frame.tsx';

interface SidebarEntry {
  label: string;
  route: string;
  icon: LucideIcon;
  /** Other paths of the same screen. */
  aliases?: string[];
  superAdminOnly?: boolean;
}

/** The shared sidebar's entries (spec §2 "Sidebar"). */
export const SIDEBAR_ENTRIES: SidebarEntry[] = [
  { label: 'Dashboard', route: '/admin/dashboard', icon: LayoutDashboard },
  { label: 'Bookings', route: '/bookings-admin', icon: CalendarDays, aliases: ['/admin/bookings'] },
  { label: 'Users', route: '/admin/users', icon: Users, superAdminOnly: true },
  { label: 'AI Blog', route: '/blog-admin', icon: BookOpen },
  { label: 'Email Marketing', route: '/admin/email', icon: Mail },
  { label: 'Newsletters', route: '/admin/newsletters', icon: Newspaper },
  { label: 'Address Books', route: '/admin/address-books', icon: BookUser },
  { label: 'Settings', route: '/admin/settings', icon: Settings },
];

/**
 * Highlighting rule: an entry is highlighted when the current path starts with its route
 * (or with another path of the same screen); the bare /admin path highlights Settings.
 */
export function isEntryActive(pathname: string, entry: Pick<SidebarEntry, 'route' | 'aliases'>): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/admin') return entry.route === '/admin/settings';
  return [entry.route, ...(entry.aliases ?? [])].some((r) => path.startsWith(r));
}

/** The frame of the routed admin screens: the shared sidebar, its mobile toggle and Logout. */
export function SidebarFrame({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const admin = useAdmin();
  const { logout, pending } = useLogout({ to: '/' });
  const items = SIDEBAR_ENTRIES.filter((e) => !e.superAdminOnly || admin.role === 'super_admin').map((e) => ({
    key: e.route,
    label: e.label,
    icon: e.icon,
    to: e.route,
    active: isEntryActive(pathname, e),
  }));
  return (
    <AdminFrame label="Admin" items={items} onLogout={logout} loggingOut={pending} screenKey={pathname}>
      {children}
    </AdminFrame>
  );
}
