import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The web bundle. In production the gateway serves `dist/` and answers `/api` on the same
 * origin; in development `/api` (and the health probes) are proxied to the gateway started by
 * `pnpm start` (PARLEY_API_URL overrides the default http://localhost:3000).
 */
const apiTarget = process.env.PARLEY_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
    // Read by the web benchmark (initial JS of a route = its chunks and their static imports).
    manifest: true,
  },
});
