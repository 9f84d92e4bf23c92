/**
 * Build-time prerendering of the public pages that need no data to paint (web/prerender.mjs
 * calls render() for each): the browser gets their full HTML at once, so text paints before
 * any JavaScript has run, and main.tsx hydrates it. Everything else is rendered in the browser.
 */
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';

export { PRERENDER_DIR } from '@parley/contracts/web';

import { AppRoot } from './app-root.tsx';
import { createQueryClient } from './lib/api.ts';
import { routes } from './routes.tsx';

export interface PrerenderedRoute {
  path: string;
  /** The page reads its query string (e.g. the blog's ?page=): serve it only for a bare path. */
  queryMatters: boolean;
}

export const PRERENDERED_ROUTES: PrerenderedRoute[] = [
  { path: '/', queryMatters: false },
  { path: '/use-cases', queryMatters: false },
  { path: '/blog', queryMatters: true },
  { path: '/book-demo', queryMatters: false },
  { path: '/voice-agent-preview', queryMatters: false },
  { path: '/agent-platform', queryMatters: false },
  { path: '/voice-wave-demo', queryMatters: false },
  { path: '/simulated-call-demo', queryMatters: false },
  { path: '/privacy-policy', queryMatters: false },
  { path: '/terms-conditions', queryMatters: false },
  { path: '/app-privacy', queryMatters: false },
];

/** The markup of `path` as the browser's first render will produce it. */
export async function render(path: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${path} answered a redirect or response`);
  if (context.errors) throw new Error(`${path} failed: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const client = createQueryClient({ server: true });
  try {
    return renderToString(
      <AppRoot client={client}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppRoot>,
    );
  } finally {
    client.clear();
  }
}
