import { PassThrough } from 'node:stream';
import { CampaignIdParams, DeliveryLogPage, DeliveryLogQuery, ErrorBody } from '@parley/contracts';
import { HttpError, notFound, type ServiceDeps, type ServiceInstance } from '@parley/kit';
import { type DeliveryLog, deliveryLogFileName } from './delivery-log.repository.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** A campaign's (or a newsletter's campaign's) delivery log: a page, or every row as CSV. */
export async function deliveryLogRoutes(app: ServiceInstance, opts: { deps: ServiceDeps; log: DeliveryLog }) {
  const { deps, log } = opts;

  app.get(
    '/api/admin/email/campaigns/:id/delivery-log',
    {
      onRequest: deps.auth.admin,
      schema: {
        params: CampaignIdParams,
        querystring: DeliveryLogQuery,
        response: { 200: DeliveryLogPage, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return log.page(request.params.id, request.query);
    },
  );

  app.get(
    '/api/admin/email/campaigns/:id/delivery-log/export',
    // No response schema: the answer is a CSV stream (errors are JSON through the error handler).
    { onRequest: deps.auth.admin, schema: { params: CampaignIdParams, querystring: DeliveryLogQuery } },
    async (request, reply) => {
      const { send, name } = await log.exportTarget(request.params.id, request.query.sendId);
      if (!send) throw notFound('This campaign has not been sent yet: it has no delivery log');
      const out = new PassThrough();
      log.exportCsv(request.params.id, send.id, request.query, out).catch((err) => {
        // The client went away, or the database failed mid-stream: the download is cut short.
        request.log.warn({ err, campaignId: request.params.id }, 'delivery log export ended early');
        out.destroy(err instanceof Error ? err : new HttpError(500, 'export failed'));
      });
      const file = deliveryLogFileName(name, deps.now());
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="${file.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file)}`,
        )
        .send(out);
    },
  );
}
