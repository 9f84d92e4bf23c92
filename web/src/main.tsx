import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { AppRoot } from './app-root.tsx';
import { FAILED_CHUNK } from './components/layout/route-error.tsx';
import { trackPageView } from './lib/analytics.ts';
import { queryClient } from './lib/api.ts';
import { routes } from './routes.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A prerendered page (entry-server.tsx) is hydrated, which needs the page's lazy route
// modules loaded first: the first render must produce the same markup, not a loading state.
async function loadLazyRoutesOf(location: Location): Promise<void> {
  const lazyMatches = (matchRoutes(routes, location) ?? []).filter((m) => m.route.lazy);
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      const resolved = await (route.lazy as () => Promise<Partial<typeof route>>)();
      // The page's chunk failed: its error cannot match the prerendered markup.
      if (FAILED_CHUNK in resolved) throw new Error('a page chunk failed to load');
      Object.assign(route, { ...resolved, lazy: undefined });
    }),
  );
}

function start(container: HTMLElement, hydrate: boolean) {
  const router = createBrowserRouter(routes);
  // A page view with its path on the first page and every route change (spec §1).
  trackPageView(router.state.location.pathname);
  router.subscribe((state) => {
    if (state.navigation.state === 'idle') trackPageView(state.location.pathname);
  });
  const app = (
    <AppRoot client={queryClient}>
      <RouterProvider router={router} />
    </AppRoot>
  );
  // In a transition, hydration yields to the browser every few milliseconds instead of
  // blocking input for the whole page (React Router's own client entry does the same).
  if (hydrate) startTransition(() => void hydrateRoot(container, app));
  else {
    // Head tags the gateway wrote for link previews (a post's title and Open Graph): the page
    // declares its own, and these would otherwise outlive it on the next route.
    for (const el of document.head.querySelectorAll('[data-server-head]')) el.remove();
    createRoot(container).render(app);
  }
}

if (root.dataset.prerendered === window.location.pathname) {
  const container = root;
  void loadLazyRoutesOf(window.location).then(
    () => start(container, true),
    // A page chunk that fails to load: render in the browser, which shows the error page.
    () => start(container, false),
  );
} else {
  start(root, false);
}
