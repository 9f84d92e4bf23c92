import {
  ContactAccepted,
  ContactBody,
  ContactRequestPage,
  ContactRequestsQuery,
  ErrorBody,
} from '@parley/contracts';
import type { ServiceDeps, ServiceInstance } from '@parley/kit';
import { parseContact } from '../domain/booking-rules.ts';
import type { BookingRepository } from '../repo/bookings.repository.ts';

export async function contactRoutes(
  app: ServiceInstance,
  opts: { repo: BookingRepository; deps: ServiceDeps; publicWriteLimit: number },
) {
  const { repo, deps } = opts;

  app.post(
    '/api/contact',
    {
      schema: { body: ContactBody, response: { 201: ContactAccepted, 400: ErrorBody } },
      config: { rateLimit: { max: opts.publicWriteLimit, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const created = await repo.createContactRequest({ ...request.body, ...parseContact(request.body) });
      return reply.status(201).send({ success: true as const, id: created.id });
    },
  );

  app.get(
    '/api/contact-requests',
    {
      onRequest: deps.auth.admin,
      schema: { querystring: ContactRequestsQuery, response: { 200: ContactRequestPage } },
    },
    async (request) => repo.listContactRequests(request.query.limit ?? 100, request.query.offset ?? 0),
  );
}
