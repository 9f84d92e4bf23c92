import {
  BookOpen,
  BookUser,
  CalendarDays,
  LayoutDashboard,
  type LucideIcon,
  Mail,
  Mic,
  Newspaper,
  Settings,
  Users,
} from 'lucide-react';

/**
 * The back office's one navigation (spec §2 "Console" and "Sidebar", issue #17): every entry
 * in the spec's order, each a route. Pure data and rules, so the highlight is unit-tested.
 */
export interface NavEntry {
  label: string;
  route: string;
  icon: LucideIcon;
  /** Other paths of the same screen (or of a view that belongs to it). */
  aliases?: string[];
  superAdminOnly?: boolean;
}

export const NAV_ENTRIES: readonly NavEntry[] = [
  { label: 'Dashboard', route: '/admin/dashboard', icon: LayoutDashboard, aliases: ['/admin/main'] },
  { label: 'Bookings', route: '/bookings-admin', icon: CalendarDays, aliases: ['/admin/bookings'] },
  { label: 'Admin Users', route: '/admin/users', icon: Users, superAdminOnly: true },
  // /admin/blog is the console's Blog view (publish/unpublish, AI generation, confirmed delete).
  { label: 'AI Blog', route: '/blog-admin', icon: BookOpen, aliases: ['/admin/blog'] },
  { label: 'Voice AI', route: '/admin/voice-ai', icon: Mic },
  { label: 'Email Marketing', route: '/admin/email', icon: Mail },
  { label: 'Newsletters', route: '/admin/newsletters', icon: Newspaper },
  { label: 'Address Books', route: '/admin/address-books', icon: BookUser },
  { label: 'Settings', route: '/admin/settings', icon: Settings },
];

/** The entries an admin of this role sees (Admin Users: super_admin only, spec §6). */
export function entriesFor(role: string): NavEntry[] {
  return NAV_ENTRIES.filter((e) => !e.superAdminOnly || role === 'super_admin');
}

const trimmed = (pathname: string) => pathname.replace(/\/+$/, '') || '/';

/** Whether `path` is `route` or below it (so /admin/email/sent is Email Marketing's). */
const under = (path: string, route: string) => path === route || path.startsWith(`${route}/`);

/**
 * Highlighting rule (spec §2 "Sidebar"): an entry is highlighted when the current path starts
 * with its route (or another path of the same screen); the bare /admin path highlights
 * Settings, which is what /admin shows (docs/adr/0034-one-admin-navigation.md).
 */
export function isEntryActive(pathname: string, entry: Pick<NavEntry, 'route' | 'aliases'>): boolean {
  const path = trimmed(pathname);
  if (path === '/admin') return entry.route === '/admin/settings';
  return [entry.route, ...(entry.aliases ?? [])].some((r) => under(path, r));
}

/** The highlighted entry of a path, if any. */
export function activeEntry(
  pathname: string,
  entries: readonly NavEntry[] = NAV_ENTRIES,
): NavEntry | undefined {
  return entries.find((e) => isEntryActive(pathname, e));
}

/** The console's old in-page sections (`/admin?section=...`) and the routes that replace them. */
export const SECTION_ROUTES: Readonly<Record<string, string>> = {
  dashboard: '/admin/dashboard',
  bookings: '/admin/bookings',
  users: '/admin/users',
  voice: '/admin/voice-ai',
  blog: '/admin/blog',
  settings: '/admin/settings',
};

/** Where an old console link (`?section=`) now lives; undefined when it names no section. */
export function sectionRoute(search: string): string | undefined {
  const section = new URLSearchParams(search).get('section');
  return section ? SECTION_ROUTES[section] : undefined;
}

/** The console's entry paths, where the admin signs in and Logout waits a second (spec §2). */
export const isConsoleEntry = (pathname: string) => ['/admin', '/admin/main'].includes(trimmed(pathname));
