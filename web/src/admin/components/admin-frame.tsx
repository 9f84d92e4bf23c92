import clsx from 'clsx';
import { Loader2, LogOut, Menu, X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo } from '../../components/layout/logo.tsx';
import { useAdmin, useLogout } from '../auth/session.tsx';
import { FeatureDiscovery } from '../feature-discovery/feature-discovery.tsx';
import { entriesFor, isConsoleEntry, isEntryActive } from './nav-entries.ts';

export const ROLE_LABELS = { admin: 'Admin', super_admin: 'Super Admin' } as const;

const itemClass = (active: boolean) =>
  clsx(
    'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition',
    active
      ? 'bg-brand/15 text-white ring-1 ring-brand/40 ring-inset'
      : 'text-slate-300 hover:bg-navy-800 hover:text-white',
  );

/** Logout in the main console returns to the site root after this delay (spec §2, §4). */
export const CONSOLE_LOGOUT_DELAY_MS = 1000;

/**
 * The frame of every admin screen: the back office's one navigation (nav-entries.ts: every
 * spec entry, highlighted by path), a drawer behind a toggle below 768 px (Escape, a choice,
 * a click beside it or focus leaving it closes it), the signed-in admin and Logout at its
 * foot, and the screen itself in a `main` landmark that takes focus when the path changes.
 */
export function AdminFrame({ children }: { children: ReactNode }) {
  const admin = useAdmin();
  const { pathname } = useLocation();
  // Logout returns to the site root, after a second from the console's entry (spec §2).
  const { logout: onLogout, pending: loggingOut } = useLogout({
    to: '/',
    delayMs: isConsoleEntry(pathname) ? CONSOLE_LOGOUT_DELAY_MS : 0,
  });
  const items = entriesFor(admin.role);
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const firstPath = useRef(pathname);

  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = pathname;
    setOpen(false);
    mainRef.current?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }, [pathname]);

  useEffect(() => {
    if (!open) return;
    // The opened drawer's first entry takes the focus (small screens only: there the toggle is shown).
    document.getElementById(menuId)?.querySelector<HTMLElement>('nav a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, menuId]);

  return (
    <div className="min-h-screen bg-navy-950 md:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-brand focus:px-3 focus:py-2 focus:text-navy-950"
      >
        Skip to content
      </a>

      <header className="sticky top-0 z-40 flex h-14 items-center justify-between border-b border-navy-800 bg-navy-950/95 px-4 backdrop-blur md:hidden">
        <Link to="/admin/dashboard" aria-label="Parley admin dashboard" className="rounded-md">
          <Logo />
        </Link>
        <button
          ref={toggleRef}
          type="button"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls={menuId}
          className="rounded-lg border border-navy-600 p-2 text-slate-200 transition hover:border-brand/70"
        >
          {open ? (
            <X className="h-5 w-5" aria-hidden="true" />
          ) : (
            <Menu className="h-5 w-5" aria-hidden="true" />
          )}
          <span className="sr-only">{open ? 'Close menu' : 'Open menu'}</span>
        </button>
      </header>

      {open ? (
        <div
          aria-hidden="true"
          className="fixed inset-x-0 top-14 bottom-0 z-30 bg-navy-950/70 backdrop-blur-sm md:hidden"
          onClick={() => setOpen(false)}
        />
      ) : null}

      <aside
        id={menuId}
        onBlur={(e) => {
          // Tabbing out of the open drawer closes it (its toggle, just before it, keeps it open).
          const next = e.relatedTarget;
          if (open && next instanceof Node && !e.currentTarget.contains(next) && next !== toggleRef.current)
            setOpen(false);
        }}
        className={clsx(
          'fixed top-14 bottom-0 left-0 z-40 w-72 max-w-[85vw] flex-col border-r border-navy-800 bg-navy-900 md:sticky md:top-0 md:flex md:h-screen md:w-64 md:shrink-0',
          open ? 'flex' : 'hidden',
        )}
      >
        <div className="hidden h-16 items-center justify-between px-4 md:flex">
          <Link to="/admin/dashboard" aria-label="Parley admin dashboard" className="rounded-md">
            <Logo />
          </Link>
          <span className="rounded-full border border-brand/40 px-2 py-0.5 text-[10px] font-semibold tracking-wider text-brand uppercase">
            Admin
          </span>
        </div>
        <nav aria-label="Admin" className="flex-1 overflow-y-auto px-3 py-2">
          <ul className="space-y-1">
            {items.map((entry) => {
              const { route, label, icon: Icon } = entry;
              const active = isEntryActive(pathname, entry);
              return (
                <li key={route}>
                  <Link
                    to={route}
                    aria-current={active ? 'page' : undefined}
                    className={itemClass(active)}
                    onClick={() => setOpen(false)}
                  >
                    <Icon className="h-4 w-4 shrink-0" aria-hidden="true" />
                    {label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="border-t border-navy-800 p-3">
          <div className="mb-2 px-3">
            <p className="truncate text-sm font-medium text-white" data-testid="admin-name">
              {admin.firstName} {admin.lastName}
            </p>
            <p className="truncate text-xs text-slate-400">
              {ROLE_LABELS[admin.role]} · {admin.email}
            </p>
          </div>
          <button
            type="button"
            onClick={onLogout}
            disabled={loggingOut}
            aria-busy={loggingOut}
            className={clsx(itemClass(false), 'hover:text-red-200 disabled:opacity-60')}
          >
            {loggingOut ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : (
              <LogOut className="h-4 w-4" aria-hidden="true" />
            )}
            {loggingOut ? 'Signing out...' : 'Logout'}
          </button>
        </div>
      </aside>

      <main
        id="main"
        ref={mainRef}
        tabIndex={-1}
        className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8 lg:py-8"
      >
        <div className="mx-auto max-w-6xl">
          <FeatureDiscovery />
          {children}
        </div>
      </main>
    </div>
  );
}
