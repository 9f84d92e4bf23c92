import type { RouteObject } from 'react-router';
import { PublicLayout } from './components/layout/public-layout.tsx';
import { RouteError, withRouteBoundaries } from './components/layout/route-error.tsx';

/**
 * The route table of the web app (spec §2), shared by the browser (main.tsx) and the
 * build-time prerenderer (entry-server.tsx). Every page is a lazy route so it ships in its
 * own chunk; the public layout (nav bar + booking modal) is in the entry chunk so the
 * frame paints at once. The admin screens have their own frame: the sign-in screens stand
 * alone, the others (the console's entry /admin included) share the admin shell: the guard and
 * the one admin navigation. Every route gets its own error boundary, drawn inside its layout,
 * and a page whose chunk failed to load can load it again (withRouteBoundaries).
 */
const table: RouteObject[] = [
  {
    Component: PublicLayout,
    ErrorBoundary: RouteError,
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./pages/home.tsx')).default }) },
      { path: 'blog', lazy: async () => ({ Component: (await import('./blog/list-page.tsx')).default }) },
      {
        path: 'blog/:slug',
        lazy: async () => ({ Component: (await import('./blog/post-page.tsx')).default }),
      },
      {
        path: 'voice-agent-preview',
        lazy: async () => ({ Component: (await import('./pages/demos/platform-preview/page.tsx')).default }),
      },
      {
        path: 'agent-platform',
        lazy: async () => ({ Component: (await import('./pages/demos/platform-preview/page.tsx')).default }),
      },
      {
        path: 'voice-wave-demo',
        lazy: async () => ({ Component: (await import('./pages/demos/voice-wave/page.tsx')).default }),
      },
      {
        path: 'simulated-call-demo',
        lazy: async () => ({ Component: (await import('./pages/demos/simulated-call/page.tsx')).default }),
      },
      {
        path: 'privacy-policy',
        lazy: async () => ({ Component: (await import('./pages/legal/privacy-policy.tsx')).default }),
      },
      {
        path: 'terms-conditions',
        lazy: async () => ({ Component: (await import('./pages/legal/terms-conditions.tsx')).default }),
      },
      {
        path: 'app-privacy',
        lazy: async () => ({ Component: (await import('./pages/legal/app-privacy.tsx')).default }),
      },
      {
        path: 'book-demo',
        lazy: async () => ({ Component: (await import('./pages/book-demo.tsx')).default }),
      },
      {
        path: 'use-cases',
        lazy: async () => ({ Component: (await import('./pages/use-cases/page.tsx')).default }),
      },
      { path: '*', lazy: async () => ({ Component: (await import('./pages/not-found.tsx')).default }) },
    ],
  },
  {
    ErrorBoundary: RouteError,
    children: [
      {
        path: 'admin/login',
        lazy: async () => ({ Component: (await import('./admin/auth/login-page.tsx')).default }),
      },
      {
        path: 'admin/invite/:token',
        lazy: async () => ({ Component: (await import('./admin/auth/invite-page.tsx')).default }),
      },
      {
        path: 'admin/simple',
        lazy: async () => ({ Component: (await import('./admin/auth/test-login-page.tsx')).SimpleLoginPage }),
      },
      {
        path: 'admin/test',
        lazy: async () => ({ Component: (await import('./admin/auth/test-login-page.tsx')).TestLoginPage }),
      },
      {
        path: 'admin/change-password',
        lazy: async () => ({ Component: (await import('./admin/auth/change-password-page.tsx')).default }),
      },
      {
        lazy: async () => ({ Component: (await import('./admin/pages/shell.tsx')).default }),
        children: [
          {
            path: 'admin',
            lazy: async () => ({ Component: (await import('./admin/pages/console.tsx')).default }),
          },
          {
            path: 'admin/main',
            lazy: async () => ({ Component: (await import('./admin/pages/console.tsx')).default }),
          },
          {
            path: 'admin/dashboard',
            lazy: async () => ({ Component: (await import('./admin/pages/dashboard.tsx')).default }),
          },
          {
            path: 'bookings-admin',
            lazy: async () => ({ Component: (await import('./admin/bookings/page.tsx')).default }),
          },
          {
            path: 'admin/bookings',
            lazy: async () => ({ Component: (await import('./admin/bookings/page.tsx')).default }),
          },
          {
            path: 'admin/users',
            lazy: async () => ({ Component: (await import('./admin/users/page.tsx')).default }),
          },
          {
            path: 'blog-admin',
            lazy: async () => ({ Component: (await import('./admin/blog/page.tsx')).default }),
          },
          {
            path: 'admin/blog',
            lazy: async () => ({ Component: (await import('./admin/blog/console-tab.tsx')).ConsoleBlogTab }),
          },
          {
            path: 'admin/voice-ai',
            lazy: async () => ({ Component: (await import('./admin/voice/page.tsx')).default }),
          },
          {
            path: 'admin/settings',
            lazy: async () => ({ Component: (await import('./admin/settings/page.tsx')).default }),
          },
          {
            path: 'admin/address-books',
            lazy: async () => ({
              Component: (await import('./admin/email/audience/address-books/page.tsx')).default,
            }),
          },
          {
            path: 'admin/email',
            lazy: async () => ({ Component: (await import('./admin/email/page.tsx')).default }),
          },
          {
            path: 'admin/email/sent',
            lazy: async () => ({ Component: (await import('./admin/email/sent-mail/page.tsx')).default }),
          },
          {
            path: 'admin/email/campaigns/:id/delivery',
            lazy: async () => ({
              Component: (await import('./admin/email/campaigns/delivery-log.tsx')).default,
            }),
          },
          {
            path: 'admin/newsletters',
            lazy: async () => ({ Component: (await import('./admin/newsletters/page.tsx')).default }),
          },
        ],
      },
    ],
  },
];

export const routes: RouteObject[] = withRouteBoundaries(table);
