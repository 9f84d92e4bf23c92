import { BrandCrawlResponse, BrandSettingsResponse, ErrorBody } from '@parley/contracts';
import { HttpError, type ServiceInstance } from '@parley/kit';
import { CrawlError } from '../crawl/safe-fetch.ts';
import type { RouteContext } from './context.ts';

export async function brandRoutes(app: ServiceInstance, ctx: RouteContext) {
  const { deps, config, brand } = ctx;

  app.get(
    '/api/admin/brand/settings',
    { onRequest: deps.auth.admin, schema: { response: { 200: BrandSettingsResponse } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { success: true as const, settings: await brand.settings() };
    },
  );

  app.post(
    '/api/admin/brand/crawl',
    {
      onRequest: deps.auth.admin,
      // A crawl costs up to 10 s of outside requests: a few a minute is plenty for an admin.
      config: { rateLimit: { max: config.SETTINGS_CRAWL_RATE_LIMIT ?? 10, timeWindow: '1 minute' } },
      schema: { response: { 200: BrandCrawlResponse, 400: ErrorBody, 422: ErrorBody, 429: ErrorBody } },
    },
    async (request) => {
      try {
        return { analysis: await brand.crawl() };
      } catch (err) {
        if (!(err instanceof CrawlError)) throw err;
        request.log.info({ reason: err.reason, why: err.message }, 'brand crawl refused or failed');
        // Refused by the policy: the request is at fault (400). The site failed: 422.
        throw new HttpError(err.reason === 'refused' ? 400 : 422, `Brand analysis failed: ${err.message}`);
      }
    },
  );
}
