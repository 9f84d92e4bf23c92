import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PRERENDER_DIR, PRERENDER_ORIGIN_PLACEHOLDER, type PrerenderManifest } from '@parley/contracts/web';

/**
 * The HTML documents of the web bundle: the SPA shell (index.html) and the prerendered public
 * pages (web/src/entry-server.tsx). Files are held in memory and re-read when their
 * modification time changes, so a rebuilt bundle is served at once without a disk read per visit.
 */
export class WebDocuments {
  private readonly files = new Map<string, { mtimeMs: number; text: string }>();

  constructor(private readonly dist: string) {}

  private async read(relative: string): Promise<string | null> {
    const file = join(this.dist, relative);
    const info = await stat(file).catch(() => null);
    if (!info) return null;
    const cached = this.files.get(file);
    if (cached && cached.mtimeMs === info.mtimeMs) return cached.text;
    const text = await readFile(file, 'utf8');
    this.files.set(file, { mtimeMs: info.mtimeMs, text });
    return text;
  }

  /**
   * The document for a page request: its prerendered HTML when there is one (and its query
   * string, if any, does not change what the page shows), else the SPA shell. Absolute URLs
   * in it use `origin`, the configured public origin.
   */
  async forPage(
    path: string,
    hasQuery: boolean,
    origin: string,
  ): Promise<{ html: string; prerendered: boolean }> {
    const manifestText = await this.read(join(PRERENDER_DIR, 'manifest.json'));
    const manifest: PrerenderManifest = manifestText ? JSON.parse(manifestText) : {};
    const entry = Object.hasOwn(manifest, path) ? manifest[path] : undefined;
    if (entry && !(entry.queryMatters && hasQuery)) {
      const html = await this.read(join(PRERENDER_DIR, entry.file));
      if (html) return { html: html.replaceAll(PRERENDER_ORIGIN_PLACEHOLDER, origin), prerendered: true };
    }
    return { html: (await this.read('index.html')) ?? '', prerendered: false };
  }
}
