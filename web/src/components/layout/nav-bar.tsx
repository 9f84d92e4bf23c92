import clsx from 'clsx';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { openBookingModal } from '../../lib/events.ts';
import { Logo } from './logo.tsx';

/** Scroll distance after which the bar turns more opaque (spec §9). */
const SCROLL_THRESHOLD = 50;

/**
 * The fixed public navigation bar. Minimal for now: the logo (home; smooth scroll to the
 * top when already home) and 'Get Demo' (scrolls to the contact section when the page has
 * one, otherwise opens the booking modal). The section links arrive with the full site.
 */
export function NavBar() {
  const { pathname } = useLocation();
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > SCROLL_THRESHOLD);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const onGetDemo = () => {
    const contact = document.getElementById('contact');
    if (contact) contact.scrollIntoView({ behavior: 'smooth' });
    else openBookingModal();
  };

  return (
    <header
      className={clsx(
        'fixed inset-x-0 top-0 z-40 border-b backdrop-blur transition-colors duration-300',
        scrolled ? 'border-navy-700 bg-navy-950/95' : 'border-transparent bg-navy-950/70',
      )}
    >
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6"
      >
        <Link
          to="/"
          aria-label="Parley home"
          className="rounded-md"
          onClick={(e) => {
            if (pathname === '/') {
              e.preventDefault();
              window.scrollTo({ top: 0, behavior: 'smooth' });
            }
          }}
        >
          <Logo />
        </Link>
        <button
          type="button"
          onClick={onGetDemo}
          className="rounded-lg bg-brand px-4 py-2 text-sm font-semibold text-navy-950 shadow-sm shadow-cyan-500/20 transition hover:bg-brand-strong"
        >
          Get Demo
        </button>
      </nav>
    </header>
  );
}
