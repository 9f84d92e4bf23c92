import {
  DeletedResponse,
  ErrorBody,
  SEGMENT_MESSAGES,
  Segment,
  SegmentCount,
  SegmentCountBody,
  SegmentIdParams,
  SegmentInput,
  SegmentList,
  SegmentResponse,
  type SegmentRule,
} from '@parley/contracts';
import { badRequest, conflict, notFound, type ServiceInstance } from '@parley/kit';
import { checkRule } from './domain/segment-rule.ts';
import { type AudienceRouteContext, audienceErrors } from './routes-context.ts';
import type { SegmentsRepository } from './segments.repository.ts';

/** Segments: saved rules over the contacts, with live counts (docs/adr/0070-segments.md). */
export async function segmentRoutes(
  app: ServiceInstance,
  ctx: AudienceRouteContext & { segments: SegmentsRepository },
) {
  const { deps, segments } = ctx;
  const errors = audienceErrors(ErrorBody);
  const admin = deps.auth.admin;

  const checked = (rule: SegmentRule) => {
    const r = checkRule(rule);
    if (!r.ok) throw badRequest(r.message);
    return r.rule;
  };
  const nameOf = (name: string) => {
    const trimmed = name.trim();
    if (!trimmed) throw badRequest(SEGMENT_MESSAGES.nameNeeded);
    return trimmed;
  };
  const named = async <T>(write: () => Promise<T>) => {
    try {
      return await write();
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw conflict(SEGMENT_MESSAGES.nameTaken);
      throw err;
    }
  };

  app.get(
    '/api/admin/email/segments',
    { onRequest: admin, schema: { response: { 200: SegmentList, ...errors } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { segments: await segments.list() };
    },
  );

  app.post(
    '/api/admin/email/segments',
    { onRequest: admin, schema: { body: SegmentInput, response: { 201: SegmentResponse, ...errors } } },
    async (request, reply) => {
      const rule = checked(request.body.rule);
      const segment = await named(() => segments.create(nameOf(request.body.name), rule));
      request.log.info({ segmentId: segment.id, by: request.admin?.adminId }, 'segment created');
      return reply.code(201).send({ success: true as const, message: SEGMENT_MESSAGES.created, segment });
    },
  );

  // Before '/:id' routes read their parameter: a rule not saved yet (the editor's live count).
  app.post(
    '/api/admin/email/segments/count',
    { onRequest: admin, schema: { body: SegmentCountBody, response: { 200: SegmentCount, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return segments.count(checked(request.body.rule));
    },
  );

  app.get(
    '/api/admin/email/segments/:id',
    { onRequest: admin, schema: { params: SegmentIdParams, response: { 200: Segment, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const segment = await segments.get(request.params.id);
      if (!segment) throw notFound(SEGMENT_MESSAGES.notFound);
      return segment;
    },
  );

  app.get(
    '/api/admin/email/segments/:id/count',
    { onRequest: admin, schema: { params: SegmentIdParams, response: { 200: SegmentCount, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const segment = await segments.get(request.params.id);
      if (!segment) throw notFound(SEGMENT_MESSAGES.notFound);
      return segments.count(segment.rule);
    },
  );

  app.put(
    '/api/admin/email/segments/:id',
    {
      onRequest: admin,
      schema: { params: SegmentIdParams, body: SegmentInput, response: { 200: SegmentResponse, ...errors } },
    },
    async (request) => {
      const rule = checked(request.body.rule);
      const segment = await named(() => segments.update(request.params.id, nameOf(request.body.name), rule));
      if (!segment) throw notFound(SEGMENT_MESSAGES.notFound);
      request.log.info({ segmentId: segment.id, by: request.admin?.adminId }, 'segment saved');
      return { success: true as const, message: SEGMENT_MESSAGES.updated, segment };
    },
  );

  app.delete(
    '/api/admin/email/segments/:id',
    { onRequest: admin, schema: { params: SegmentIdParams, response: { 200: DeletedResponse, ...errors } } },
    async (request) => {
      if (!(await segments.delete(request.params.id))) throw notFound(SEGMENT_MESSAGES.notFound);
      request.log.info({ segmentId: request.params.id, by: request.admin?.adminId }, 'segment deleted');
      return { success: true as const, message: SEGMENT_MESSAGES.deleted };
    },
  );
}
