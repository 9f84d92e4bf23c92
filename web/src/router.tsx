import { createBrowserRouter } from 'react-router';
import { PublicLayout } from './components/layout/public-layout.tsx';
import { RouteError } from './components/layout/route-error.tsx';

/**
 * The route table of the web app (spec §2). Every page is a lazy route so it ships in its
 * own chunk; the public layout (nav bar + booking modal) is in the entry chunk so the
 * frame paints at once. Later issues add the remaining public and admin routes here.
 */
export const router = createBrowserRouter([
  {
    Component: PublicLayout,
    ErrorBoundary: RouteError,
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./pages/home.tsx')).default }) },
      { path: '*', lazy: async () => ({ Component: (await import('./pages/not-found.tsx')).default }) },
    ],
  },
]);
