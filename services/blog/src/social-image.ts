import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { renderAsync } from '@resvg/resvg-js';

/**
 * PNG renderings of stored SVG images, for social previews: Slack, LinkedIn, Facebook and X
 * ignore an SVG `og:image`. Rendered with resvg and the DejaVu fonts shipped as a dependency
 * (a container has no system fonts; the same fonts everywhere give the same picture), and
 * kept in a small memory cache: a post's preview is fetched by a few crawlers, then by none.
 */

const require = createRequire(import.meta.url);
const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) => join(FONT_DIR, f));
/** How every rendering is made (the tests render with the same fonts). */
export const RENDER_OPTIONS = {
  fitTo: { mode: 'width' as const, value: 1200 },
  font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'DejaVu Sans' },
};

/** Renderings kept (about 60 KB each). */
const CACHE_ENTRIES = 64;
const cache = new Map<string, Buffer>();

/** Rendered on libuv's thread pool (tens of milliseconds): the event loop goes on meanwhile. */
export async function svgToPng(id: string, svg: Buffer): Promise<Buffer> {
  const hit = cache.get(id);
  if (hit) {
    // Most recently used last: the oldest entry is the first to go.
    cache.delete(id);
    cache.set(id, hit);
    return hit;
  }
  const png = (await renderAsync(svg, RENDER_OPTIONS)).asPng();
  cache.set(id, png);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return png;
}
