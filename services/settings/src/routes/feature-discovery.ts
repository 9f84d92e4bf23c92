import {
  ErrorBody,
  FeatureInsightsResponse,
  FeatureRecommendationsQuery,
  FeatureRecommendationsResponse,
} from '@parley/contracts';
import type { ServiceInstance } from '@parley/kit';
import type { RouteContext } from './context.ts';

/** Feature discovery (spec §7): recommendations from the admin's activity, and insights. */
export async function featureDiscoveryRoutes(app: ServiceInstance, ctx: RouteContext) {
  const { deps, features } = ctx;

  app.get(
    '/api/admin/feature-recommendations',
    {
      onRequest: deps.auth.admin,
      schema: {
        querystring: FeatureRecommendationsQuery,
        response: { 200: FeatureRecommendationsResponse, 400: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return features.recommendations(request.query.page);
    },
  );

  app.get(
    '/api/admin/feature-insights',
    { onRequest: deps.auth.admin, schema: { response: { 200: FeatureInsightsResponse } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return features.insights();
    },
  );
}
