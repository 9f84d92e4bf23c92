import {
  FEATURE_PANEL_LIMITS,
  type FeatureCategory,
  type FeaturePage,
  type FeatureRecommendation,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';

/**
 * The panel's pure rules (spec §2 "Feature-discovery panel", §9): when it opens by itself, what
 * it asks for, and what it shows.
 */

/** It opens by itself once, this long after a first visit (spec §9: 10 s). */
export const FIRST_VISIT_DELAY_MS = 10_000;
/** ... and only once the admin has left mouse and keys alone this long (issue 35). */
export const IDLE_BEFORE_OPEN_MS = 5_000;

/** What the page is doing when the panel could open by itself. */
export interface OpenMoment {
  now: number;
  /** When the first visit began. */
  visitedAt: number;
  /** The admin's last click, key, wheel or touch (the visit's start when none). */
  lastInputAt: number;
  /** A dialog is open: the panel must never cover it. */
  dialogOpen: boolean;
  /** The focus is in a field: the admin is mid-task even without typing. */
  editing: boolean;
}

/**
 * How long to wait before the panel may open by itself (0: now). It waits for the first-visit
 * delay, then for the admin to be idle, with no dialog open and no field being filled; `null`
 * when only the page can tell (a dialog or a field): look again later.
 */
export function waitBeforeOpening(m: OpenMoment): number | null {
  const wait = Math.max(
    m.visitedAt + FIRST_VISIT_DELAY_MS - m.now,
    m.lastInputAt + IDLE_BEFORE_OPEN_MS - m.now,
    0,
  );
  if (wait > 0) return wait;
  return m.dialogOpen || m.editing ? null : 0;
}
/** Spec §7: recommendations refreshed every 5 minutes, insights every 10. */
export const RECOMMENDATIONS_REFRESH_MS = 5 * 60_000;
export const INSIGHTS_REFRESH_MS = 10 * 60_000;
/** The first-visit marker in local storage: set when the panel first opens (by itself or not). */
export const FIRST_VISIT_MARKER = 'parley.featureDiscovery.seen';

export const CATEGORY_FILTERS = ['all', 'automation', 'productivity', 'analytics', 'engagement'] as const;
export type CategoryFilter = (typeof CATEGORY_FILTERS)[number];
export const CATEGORY_LABELS: Record<CategoryFilter, string> = {
  all: 'All',
  automation: 'Automation',
  productivity: 'Productivity',
  analytics: 'Analytics',
  engagement: 'Engagement',
};

/** The recommendations of a category (or all), the top 6 (the server sends them best first). */
export function topRecommendations(
  list: readonly FeatureRecommendation[],
  filter: CategoryFilter,
): FeatureRecommendation[] {
  return list
    .filter((r) => filter === 'all' || r.category === (filter as FeatureCategory))
    .slice(0, FEATURE_PANEL_LIMITS.recommendations);
}

const CONSOLE_SECTIONS: Record<string, FeaturePage> = {
  bookings: 'bookings',
  users: 'users',
  voice: 'voice-ai',
  blog: 'blog',
  settings: 'settings',
};

/** The admin screen a path shows, as the recommendations call names it (undefined: none). */
export function pageOf(pathname: string, search = ''): FeaturePage | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/admin' || path === '/admin/main') {
    // An old console link (`?section=`) is on its way to the section's own route.
    const section = new URLSearchParams(search).get('section') ?? '';
    return CONSOLE_SECTIONS[section] ?? (path === '/admin' ? 'settings' : 'dashboard');
  }
  if (path === '/bookings-admin' || path.startsWith('/admin/bookings')) return 'bookings';
  if (path.startsWith('/blog-admin') || path.startsWith('/admin/blog')) return 'blog';
  const m = /^\/admin\/([a-z-]+)/.exec(path);
  const screen = m?.[1];
  const pages: Record<string, FeaturePage> = {
    dashboard: 'dashboard',
    users: 'users',
    'voice-ai': 'voice-ai',
    settings: 'settings',
    email: 'email',
    newsletters: 'newsletters',
    'address-books': 'address-books',
  };
  return screen ? pages[screen] : undefined;
}

/** The recommendations call for a screen (spec §7 `?page={page}`). */
export const recommendationsPath = (page: FeaturePage | undefined) =>
  `/api/admin/feature-recommendations${page ? `?page=${page}` : ''}`;

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
export function timeAgo(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return 'just now';
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.floor(h / 24);
  return `${plural(d, 'day')} ago`;
}

/** Local storage, or null where the browser refuses it (then the panel never opens by itself). */
function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** True when the panel may still open by itself: storage works and holds no marker. */
export function isFirstVisit(): boolean {
  const s = storage();
  if (!s) return false;
  try {
    return s.getItem(FIRST_VISIT_MARKER) === null;
  } catch {
    return false;
  }
}

export function markVisited(at: Date = new Date()): void {
  try {
    storage()?.setItem(FIRST_VISIT_MARKER, at.toISOString());
  } catch {
    // Full or refused storage: the panel may open by itself again next time, nothing worse.
  }
}
