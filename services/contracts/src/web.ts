/**
 * The contract between the web build and the gateway that serves it: prerendered pages
 * (web/src/entry-server.tsx) are listed in `prerendered/manifest.json` of the bundle, and
 * their absolute URLs carry a placeholder origin that the gateway replaces per request.
 */
export const PRERENDER_DIR = 'prerendered';
export const PRERENDER_ORIGIN_PLACEHOLDER = 'https://parley-origin.invalid';

/** manifest.json: page path → its HTML file (in PRERENDER_DIR) and whether its query string matters. */
export type PrerenderManifest = Record<string, { file: string; queryMatters: boolean }>;

/** The site's name in titles and sharing tags (the web app's pages and a blog post's head alike). */
export const SITE_NAME = 'Parley';
