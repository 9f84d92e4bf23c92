import type { MouseEvent, ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { trackEvent } from '../../lib/analytics.ts';

/** The in-page sections of the home route the navigation links to (spec §2 "Navigation bar"). */
export const HOME_SECTIONS = [
  { id: 'about', label: 'About' },
  { id: 'features', label: 'Features' },
  { id: 'pricing', label: 'Pricing' },
  { id: 'contact', label: 'Contact' },
] as const;

export type HomeSectionId = 'about' | 'features' | 'pricing' | 'contact' | 'demos';

/** Smooth unless the visitor asked the system for less motion. */
export function scrollBehavior(): ScrollBehavior {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

/**
 * Brings a home section into view and moves keyboard focus there (as following a native
 * in-page link would), without a second jump. Returns false when the section is not on the page.
 */
export function revealSection(id: string, behavior: ScrollBehavior = scrollBehavior()): boolean {
  const el = document.getElementById(id);
  if (!el) return false;
  el.scrollIntoView({ behavior, block: 'start' });
  el.focus({ preventScroll: true });
  return true;
}

/**
 * A link to a home section: on the home route it scrolls smoothly to the section (and keeps
 * the address in step without adding a history entry); elsewhere it is a plain link to
 * '/#section', and the home page scrolls to the hash on arrival.
 */
export function SectionLink({
  id,
  className,
  children,
  onNavigate,
  trackLabel,
}: {
  id: HomeSectionId;
  className?: string;
  children: ReactNode;
  /** Called after the choice (the mobile menu closes itself with it). */
  onNavigate?: () => void;
  /** Analytics label; defaults to the section id. */
  trackLabel?: string;
}) {
  const { pathname } = useLocation();
  const navigate = useNavigate();

  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    // Let the browser handle new-tab and new-window clicks.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    trackEvent('navigation', { category: 'navigation', label: trackLabel ?? id });
    onNavigate?.();
    if (pathname !== '/') return;
    e.preventDefault();
    if (revealSection(id)) navigate({ pathname: '/', hash: id }, { replace: true, preventScrollReset: true });
    else navigate(`/#${id}`);
  };

  return (
    <Link to={`/#${id}`} className={className} onClick={onClick}>
      {children}
    </Link>
  );
}
