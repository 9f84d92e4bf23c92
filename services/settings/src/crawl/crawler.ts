import * as cheerio from 'cheerio';
import { type CrawledSite, importsOf, sameSiteLinks, stylesheetLinks } from '../domain/brand-analysis.ts';
import { CrawlError, type SafeFetcher } from './safe-fetch.ts';

export interface CrawlLimits {
  /** One deadline for the whole crawl (default 10 s). */
  deadlineMs?: number;
  /** Linked pages read besides the home page (default 3). */
  extraPages?: number;
  /** Stylesheets read, @imports included (default 8). */
  stylesheets?: number;
}

/**
 * Reads a website for its brand: the home page (which must succeed), then at once its
 * stylesheets and a few linked pages of the same site, then the stylesheets' @imports. A
 * document that fails after the home page is left out (it is named in `skipped`); everything
 * shares one deadline, so the crawl never takes longer than `deadlineMs`.
 */
export async function crawlSite(
  startUrl: string,
  fetcher: SafeFetcher,
  limits: CrawlLimits = {},
): Promise<CrawledSite & { skipped: Array<{ url: string; reason: string }> }> {
  const deadlineMs = limits.deadlineMs ?? 10_000;
  // A timer cleared when the crawl ends, so no abort reaches requests after it returned.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deadlineMs);
  try {
    return await crawlWithin(startUrl, fetcher, limits, deadline.signal, deadlineMs);
  } finally {
    clearTimeout(timer);
  }
}

async function crawlWithin(
  startUrl: string,
  fetcher: SafeFetcher,
  limits: CrawlLimits,
  signal: AbortSignal,
  deadlineMs: number,
): Promise<CrawledSite & { skipped: Array<{ url: string; reason: string }> }> {
  const skipped: Array<{ url: string; reason: string }> = [];
  let home: Awaited<ReturnType<SafeFetcher['get']>>;
  try {
    home = await fetcher.get(startUrl, 'html', signal);
  } catch (err) {
    if (err instanceof CrawlError && signal.aborted)
      throw new CrawlError('failed', `${startUrl} did not answer within ${deadlineMs / 1000} s`);
    throw err;
  }
  const $ = cheerio.load(home.text);
  const maxSheets = limits.stylesheets ?? 8;
  const sheetUrls = stylesheetLinks($, home.url).slice(0, maxSheets);
  const pageUrls = sameSiteLinks($, home.url, limits.extraPages ?? 3);

  const settle = async <T>(url: string, work: Promise<T>): Promise<T | null> => {
    try {
      return await work;
    } catch (err) {
      skipped.push({ url, reason: err instanceof CrawlError ? err.message : 'failed' });
      return null;
    }
  };
  const [sheets, pages] = await Promise.all([
    Promise.all(sheetUrls.map((u) => settle(u, fetcher.get(u, 'css', signal)))),
    Promise.all(pageUrls.map((u) => settle(u, fetcher.get(u, 'html', signal)))),
  ]);
  const stylesheets = sheets.filter((s) => s !== null).map((s) => ({ url: s.url, css: s.text }));
  const seen = new Set([...sheetUrls, ...stylesheets.map((s) => s.url)]);
  const imports = stylesheets
    .flatMap((s) => importsOf(s.css, s.url))
    .filter((u) => !seen.has(u) && seen.add(u))
    .slice(0, Math.max(0, maxSheets - stylesheets.length));
  const imported = await Promise.all(imports.map((u) => settle(u, fetcher.get(u, 'css', signal))));
  for (const s of imported) if (s) stylesheets.push({ url: s.url, css: s.text });

  return {
    url: startUrl,
    pages: [
      { url: home.url, html: home.text },
      ...pages.filter((p) => p !== null).map((p) => ({ url: p.url, html: p.text })),
    ],
    stylesheets,
    skipped,
  };
}
