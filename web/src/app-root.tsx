import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode, useEffect } from 'react';
import { Toaster } from './components/toast/index.ts';

/** What surrounds the router in the browser and in the prerenderer alike (so hydration matches). */
export function AppRoot({ client, children }: { client: QueryClient; children: ReactNode }) {
  // After the first commit (for a prerendered page: once hydrated) the page answers input;
  // browser tests wait for this mark before they click.
  useEffect(() => {
    document.documentElement.dataset.appReady = '';
  }, []);
  return (
    <StrictMode>
      <QueryClientProvider client={client}>
        {children}
        <Toaster />
      </QueryClientProvider>
    </StrictMode>
  );
}
