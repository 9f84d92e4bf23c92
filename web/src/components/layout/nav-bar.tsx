import clsx from 'clsx';
import { Menu, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { trackEvent } from '../../lib/analytics.ts';
import { Logo } from './logo.tsx';
import { RESOURCES, ResourcesMenu } from './resources-menu.tsx';
import { HOME_SECTIONS, SectionLink } from './section-link.tsx';

/** Scroll distance after which the bar turns more opaque (spec §9). */
const SCROLL_THRESHOLD = 50;

/** About, Features and Pricing lead the bar; Contact follows Blog and Resources. */
const LEADING_SECTIONS = HOME_SECTIONS.filter((s) => s.id !== 'contact');

const desktopLink =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-200 transition hover:text-white aria-[current=page]:text-brand';
const mobileLink =
  'block rounded-lg px-3 py-3 text-base font-medium text-slate-100 transition hover:bg-navy-800 hover:text-white aria-[current=page]:text-brand';
const getDemoClass =
  'inline-flex items-center justify-center rounded-lg bg-brand px-4 py-2 text-sm font-semibold text-navy-950 shadow-sm shadow-cyan-500/20 transition hover:bg-brand-strong';

/**
 * The fixed public navigation bar (spec §2 "Navigation bar"): About, Features, Pricing, Blog,
 * Resources, Contact and Get Demo on wide screens; below the `lg` breakpoint they fold into a
 * toggle menu that closes after a choice, on Escape or on navigation. Section links scroll on
 * the home route and go to '/#section' elsewhere. The logo goes home (smooth scroll to the top
 * when already there). The bar turns more opaque once the page has scrolled past 50 px.
 */
export function NavBar() {
  const location = useLocation();
  const { pathname } = location;
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > SCROLL_THRESHOLD);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // Any navigation (including Back) closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location key is the trigger.
  useEffect(() => setMenuOpen(false), [location.key]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    // Widening the window past the breakpoint leaves no visible menu to close.
    const wide = window.matchMedia('(min-width: 64rem)');
    const onWide = () => wide.matches && setMenuOpen(false);
    document.addEventListener('keydown', onKey);
    wide.addEventListener('change', onWide);
    return () => {
      document.removeEventListener('keydown', onKey);
      wide.removeEventListener('change', onWide);
    };
  }, [menuOpen]);

  const closeMenu = () => setMenuOpen(false);
  const onBlog = () => trackEvent('navigation', { category: 'navigation', label: 'blog' });
  const blogCurrent = pathname === '/blog' || pathname.startsWith('/blog/') ? 'page' : undefined;

  return (
    <header
      data-scrolled={scrolled}
      className={clsx(
        'fixed inset-x-0 top-0 z-40 border-b backdrop-blur transition-colors duration-300',
        scrolled || menuOpen ? 'border-navy-700 bg-navy-950/95' : 'border-transparent bg-navy-950/70',
      )}
    >
      <nav aria-label="Main" className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="flex h-16 items-center justify-between gap-4">
          <Link
            to="/"
            aria-label="Parley home"
            className="rounded-md"
            onClick={(e) => {
              if (pathname === '/') {
                e.preventDefault();
                window.scrollTo({ top: 0, behavior: 'smooth' });
              }
              closeMenu();
            }}
          >
            <Logo />
          </Link>

          <ul className="hidden items-center gap-1 lg:flex">
            {LEADING_SECTIONS.map((s) => (
              <li key={s.id}>
                <SectionLink id={s.id} className={desktopLink}>
                  {s.label}
                </SectionLink>
              </li>
            ))}
            <li>
              <Link to="/blog" className={desktopLink} aria-current={blogCurrent} onClick={onBlog}>
                Blog
              </Link>
            </li>
            <li>
              <ResourcesMenu linkClass={desktopLink} />
            </li>
            <li>
              <SectionLink id="contact" className={desktopLink}>
                Contact
              </SectionLink>
            </li>
          </ul>

          <div className="flex items-center gap-2">
            <SectionLink id="contact" trackLabel="get_demo" onNavigate={closeMenu} className={getDemoClass}>
              Get Demo
            </SectionLink>
            <button
              ref={toggleRef}
              type="button"
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              onClick={() => setMenuOpen((o) => !o)}
              className="rounded-lg p-2 text-slate-200 transition hover:bg-navy-800 hover:text-white lg:hidden"
            >
              {menuOpen ? (
                <X className="h-6 w-6" aria-hidden="true" />
              ) : (
                <Menu className="h-6 w-6" aria-hidden="true" />
              )}
            </button>
          </div>
        </div>

        <div id="mobile-menu" hidden={!menuOpen} className="border-t border-navy-700 py-3 lg:hidden">
          <ul className="space-y-1">
            {LEADING_SECTIONS.map((s) => (
              <li key={s.id}>
                <SectionLink id={s.id} className={mobileLink} onNavigate={closeMenu}>
                  {s.label}
                </SectionLink>
              </li>
            ))}
            <li>
              <Link
                to="/blog"
                className={mobileLink}
                aria-current={blogCurrent}
                onClick={() => {
                  onBlog();
                  closeMenu();
                }}
              >
                Blog
              </Link>
            </li>
            <li>
              <SectionLink id="contact" className={mobileLink} onNavigate={closeMenu}>
                Contact
              </SectionLink>
            </li>
          </ul>
          <p
            id="mobile-resources-heading"
            className="mt-3 px-3 text-xs font-semibold tracking-wider text-slate-300 uppercase"
          >
            Resources
          </p>
          <ul aria-labelledby="mobile-resources-heading" className="mt-1 space-y-1">
            {RESOURCES.map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  aria-current={pathname === to ? 'page' : undefined}
                  className={clsx(mobileLink, 'flex items-center gap-3')}
                  onClick={() => {
                    trackEvent('navigation', { category: 'navigation', label });
                    closeMenu();
                  }}
                >
                  <Icon className="h-4 w-4 text-brand" aria-hidden="true" />
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </nav>
    </header>
  );
}
