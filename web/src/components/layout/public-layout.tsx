import { Outlet, ScrollRestoration } from 'react-router';
import { BookingModal } from '../booking/booking-modal.tsx';
import { Logo } from './logo.tsx';
import { NavBar } from './nav-bar.tsx';

/** Frame of every public page: fixed nav bar, the page, a footer and the booking modal (mounted once). */
export function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-brand focus:px-3 focus:py-2 focus:text-navy-950"
      >
        Skip to content
      </a>
      <NavBar />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <footer className="border-t border-navy-800 bg-navy-950">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-8 text-sm text-slate-400 sm:flex-row sm:px-6">
          <Logo className="opacity-80" />
          <p>© {new Date().getFullYear()} Parley. AI voice agents for business phone lines.</p>
        </div>
      </footer>
      <BookingModal />
      <ScrollRestoration />
    </div>
  );
}
