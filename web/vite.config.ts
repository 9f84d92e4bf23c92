import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { jsBudget } from './js-budget.ts';

/**
 * The web bundle. In production the gateway serves `dist/` and answers `/api` on the same
 * origin; in development `/api` (and the health probes) are proxied to the gateway started by
 * `pnpm start` (PARLEY_API_URL overrides the default http://localhost:3000).
 */
const apiTarget = process.env.PARLEY_API_URL ?? 'http://localhost:3000';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), jsBudget()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    // Read by the JavaScript budget (js-budget.ts) and the web benchmark: the initial JS of a
    // route is its chunks and their static imports.
    manifest: true,
    // The browser build: what every first visit needs (the entry and all it imports) in the one
    // entry chunk. Left to itself, rolldown split it into six chunks (React Router alone into
    // three; the JSX runtime, clsx and lucide's icon factory), each one more request and its own
    // import/export overhead on every first visit: 3.3 KB gzipped of the home's 137.4 KB
    // (issue #32). The prerenderer's server bundle keeps the default.
    rolldownOptions: isSsrBuild
      ? {}
      : { output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } } },
  },
}));
