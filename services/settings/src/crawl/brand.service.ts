import type { BrandAnalysis, BrandSettingsResponse } from '@parley/contracts';
import type { ServiceDeps } from '@parley/kit';
import type { BrandRefiner } from '../providers/brand-ai.ts';
import type { SettingsRepository } from '../repo/settings.repository.ts';
import type { CrawlLimits, crawlSite } from './crawler.ts';
import { CrawlError, type Resolver, SafeFetcher } from './safe-fetch.ts';

const BRAND_KEYS = [
  'brand_name',
  'brand_voice',
  'website_url',
  'support_email',
  'company_address',
  'company_phone',
] as const;

export interface BrandServiceOptions {
  repo: SettingsRepository;
  logger: ServiceDeps['logger'];
  refiner: BrandRefiner | null;
  /** Test-only exemptions from the address policy (SETTINGS_CRAWL_ALLOW_PRIVATE). */
  allowPrivate: ReadonlySet<string>;
  resolve?: Resolver;
  limits?: CrawlLimits;
  now: () => Date;
}

/** Brand intelligence: crawls the saved website, analyses it, keeps the result. */
export class BrandService {
  constructor(private readonly opts: BrandServiceOptions) {}

  async settings(): Promise<BrandSettingsResponse['settings']> {
    const [values, analysis] = await Promise.all([
      this.opts.repo.plainValues(BRAND_KEYS),
      this.opts.repo.latestAnalysis(),
    ]);
    const v = (k: (typeof BRAND_KEYS)[number]) => values.get(k) ?? null;
    return {
      brandName: v('brand_name'),
      brandVoice: v('brand_voice'),
      websiteUrl: v('website_url'),
      supportEmail: v('support_email'),
      companyAddress: v('company_address'),
      companyPhone: v('company_phone'),
      analysis,
    };
  }

  /** Crawls `website_url`; throws CrawlError (refused = policy, failed = the site). */
  async crawl(): Promise<BrandAnalysis> {
    const url = (await this.opts.repo.plainValues(['website_url'])).get('website_url');
    if (!url) throw new CrawlError('refused', 'Save the website URL in the Brand tab first');
    return this.analyze(url);
  }

  /** Crawls and analyses `url` (already saved or given by a test) and keeps the analysis. */
  async analyze(url: string): Promise<BrandAnalysis> {
    // The HTML and CSS parsers (cheerio, css-tree) load with the first crawl, not at start.
    const [{ crawlSite }, { analyzeSite }] = await Promise.all([
      import('./crawler.ts'),
      import('../domain/brand-analysis.ts'),
    ]);
    const fetcher = new SafeFetcher({
      allowPrivate: this.opts.allowPrivate,
      ...(this.opts.resolve ? { resolve: this.opts.resolve } : {}),
    });
    let site: Awaited<ReturnType<typeof crawlSite>>;
    try {
      site = await crawlSite(url, fetcher, this.opts.limits);
    } finally {
      await fetcher.close();
    }
    const { analysis: local, digest } = analyzeSite(site, this.opts.now());
    let analysis = local;
    if (this.opts.refiner) {
      try {
        analysis = await this.opts.refiner.refine(local, digest);
      } catch (err) {
        // The local analysis stands, labelled as such; the reason is logged (never the key).
        this.opts.logger.warn(
          { err: { message: (err as Error).message }, model: this.opts.refiner.model },
          'OpenAI brand refinement failed; keeping the local analysis',
        );
      }
    }
    await this.opts.repo.saveAnalysis(analysis);
    this.opts.logger.info(
      { url, provider: analysis.provider, sources: analysis.sources.length, skipped: site.skipped.length },
      'brand analysed',
    );
    return analysis;
  }
}
