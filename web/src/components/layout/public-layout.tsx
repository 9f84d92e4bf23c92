import { Outlet, ScrollRestoration } from 'react-router';
import { BookingModal } from '../booking/booking-modal.tsx';
import { TryAgent } from '../try-agent/try-agent.tsx';
import { Footer } from './footer.tsx';
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
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <Footer />
      <BookingModal />
      <TryAgent />
      <ScrollRestoration />
    </div>
  );
}
