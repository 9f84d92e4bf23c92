import {
  DeadLettersResponse,
  DiagnosticRunResponse,
  DiagnosticTestParams,
  ErrorBody,
  ReplayDeadLettersBody,
  ReplayDeadLettersResponse,
} from '@parley/contracts';
import { conflict, notFound, type ServiceInstance } from '@parley/kit';
import type { RouteContext } from './context.ts';

export async function diagnosticsRoutes(app: ServiceInstance, ctx: RouteContext) {
  const { deps, probe } = ctx;

  // Static paths first in meaning too: find-my-way prefers them over :testId.
  app.get(
    '/api/admin/diagnostics/dead-letters',
    { onRequest: deps.auth.admin, schema: { response: { 200: DeadLettersResponse } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return probe.deadLetters();
    },
  );

  app.post(
    '/api/admin/diagnostics/dead-letters/replay',
    {
      onRequest: deps.auth.admin,
      schema: {
        body: ReplayDeadLettersBody,
        response: { 200: ReplayDeadLettersResponse, 400: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const { service, ids } = request.body;
      const answer = await probe.replay(service, ids);
      if (!answer.ok) {
        // Not the caller's fault, but nothing a retry now would fix: said plainly, not as a 5xx.
        throw conflict(`${answer.message}, so its dead letters cannot be replayed now.`);
      }
      request.log.info({ service, queued: answer.value.queued }, 'dead letters queued for replay');
      return { service, queued: answer.value.queued };
    },
  );

  app.post(
    '/api/admin/diagnostics/:testId',
    {
      onRequest: deps.auth.admin,
      schema: {
        params: DiagnosticTestParams,
        response: { 200: DiagnosticRunResponse, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const result = await probe.runTest(request.params.testId);
      if (!result) throw notFound(`There is no diagnostic test named ${request.params.testId}`);
      return result;
    },
  );
}
