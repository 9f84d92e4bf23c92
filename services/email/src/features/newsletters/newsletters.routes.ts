import {
  ConvertBlogBody,
  ConvertBlogParams,
  DeletedResponse,
  ErrorBody,
  FixHtmlBody,
  FixHtmlResponse,
  IncludeTestQuery,
  MergeCheckResponse,
  Newsletter,
  NewsletterAnalytics,
  NewsletterAudience,
  NewsletterAudienceCount,
  NewsletterAudienceSummary,
  NewsletterBlogPostList,
  NewsletterEngagementReport,
  NewsletterIdParams,
  NewsletterInput,
  NewsletterList,
  NewsletterMergeCheckBody,
  NewsletterPreview,
  NewsletterPreviewQuery,
  NewsletterSendResponse,
  ResendNewsletterBody,
  ScheduleNewsletterBody,
  SendNewsletterBody,
} from '@parley/contracts';
import type { ServiceDeps, ServiceInstance } from '@parley/kit';
import { Type } from 'typebox';
import type { NewslettersRepository } from './newsletters.repository.ts';
import type { NewslettersService } from './newsletters.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const sendErrors = { ...errors, 429: ErrorBody, 500: ErrorBody };

/** Newsletters (email marketing §2 Newsletter screen, §7 newsletter calls, §8 errors). Admin only. */
export async function newsletterRoutes(
  app: ServiceInstance,
  ctx: { deps: ServiceDeps; repo: NewslettersRepository; service: NewslettersService },
) {
  const { deps, repo, service } = ctx;
  const admin = deps.auth.admin;
  /** A call without a body (the spec's convert sends none) is read as `{}`: the body's rules then say what is missing. */
  const emptyBody = async (request: { body: unknown }) => {
    request.body ??= {};
  };

  app.get(
    '/api/admin/newsletters',
    { onRequest: admin, schema: { response: { 200: NewsletterList, ...errors } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return repo.list();
    },
  );

  app.post(
    '/api/admin/newsletters',
    {
      onRequest: admin,
      preValidation: emptyBody,
      schema: { body: NewsletterInput, response: { 201: Newsletter, ...errors } },
    },
    async (request, reply) => {
      const n = await service.create(request.body);
      request.log.info({ newsletterId: n.id, by: request.admin?.adminId }, 'newsletter created');
      return reply.status(201).send(n);
    },
  );

  // Fixed paths before /:id (find-my-way prefers static segments anyway).
  app.get(
    '/api/admin/newsletters/blog-posts',
    { onRequest: admin, schema: { response: { 200: NewsletterBlogPostList, ...errors } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { posts: await service.blogPosts() };
    },
  );

  app.get(
    '/api/admin/newsletters/audience',
    { onRequest: admin, schema: { response: { 200: NewsletterAudienceSummary, ...errors } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.audienceSummary();
    },
  );

  app.post(
    '/api/admin/newsletters/audience/count',
    {
      onRequest: admin,
      schema: {
        body: Type.Object({ audience: NewsletterAudience }),
        response: { 200: NewsletterAudienceCount, ...errors },
      },
    },
    async (request) => ({ recipients: await service.audienceCount(request.body.audience) }),
  );

  app.get(
    '/api/admin/newsletters/analytics',
    {
      onRequest: admin,
      schema: { querystring: IncludeTestQuery, response: { 200: NewsletterAnalytics, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.analytics(undefined, request.query.includeTest === true);
    },
  );

  app.post(
    '/api/admin/newsletters/convert-blog/:id',
    {
      onRequest: admin,
      preValidation: emptyBody,
      // The spec sends no body; the customisations and preheader are optional.
      schema: {
        params: ConvertBlogParams,
        body: ConvertBlogBody,
        response: { 201: Newsletter, ...errors },
      },
    },
    async (request, reply) => {
      const n = await service.convert(request.params.id, request.body);
      request.log.info(
        { newsletterId: n.id, blogPostId: request.params.id, by: request.admin?.adminId },
        'blog post converted to a newsletter',
      );
      return reply.status(201).send(n);
    },
  );

  app.post(
    '/api/admin/campaigns/fix-html',
    {
      onRequest: admin,
      // The spec's call sends no body: every draft fixed at once. The screen asks for a dry run first.
      preValidation: emptyBody,
      schema: { body: FixHtmlBody, response: { 200: FixHtmlResponse, ...errors } },
    },
    async (request) => {
      const r = await service.fixHtml(request.body);
      request.log.info(
        {
          dryRun: r.dryRun,
          kinds: r.kinds,
          fixed: r.fixedCount,
          proposed: r.dryRun ? r.items.length : undefined,
          skipped: r.skipped.length,
          checked: r.checkedCount,
          by: request.admin?.adminId,
        },
        'fix html',
      );
      return r;
    },
  );

  app.get(
    '/api/admin/newsletters/:id',
    { onRequest: admin, schema: { params: NewsletterIdParams, response: { 200: Newsletter, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return repo.require(request.params.id);
    },
  );

  app.delete(
    '/api/admin/newsletters/:id',
    {
      onRequest: admin,
      schema: { params: NewsletterIdParams, response: { 200: DeletedResponse, ...errors } },
    },
    async (request) => {
      await service.delete(request.params.id);
      request.log.info({ newsletterId: request.params.id, by: request.admin?.adminId }, 'newsletter deleted');
      return { success: true as const, message: 'Newsletter deleted' };
    },
  );

  app.get(
    '/api/admin/newsletters/:id/preview',
    {
      onRequest: admin,
      schema: {
        params: NewsletterIdParams,
        querystring: NewsletterPreviewQuery,
        response: { 200: NewsletterPreview, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.preview(request.params.id, request.query.contact);
    },
  );

  app.post(
    '/api/admin/newsletters/:id/merge-check',
    {
      onRequest: admin,
      schema: {
        params: NewsletterIdParams,
        body: NewsletterMergeCheckBody,
        response: { 200: MergeCheckResponse, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.mergeCheck(request.params.id, request.body.audience, request.body.testMode === true);
    },
  );

  app.post(
    '/api/admin/newsletters/:id/send',
    {
      onRequest: admin,
      schema: {
        params: NewsletterIdParams,
        body: SendNewsletterBody,
        response: { 200: NewsletterSendResponse, ...sendErrors },
      },
    },
    async (request) => {
      const r = await service.send(request.params.id, request.body);
      request.log.info(
        {
          newsletterId: r.newsletterId,
          sendId: r.sendId,
          recipients: r.recipients,
          by: request.admin?.adminId,
        },
        'newsletter launched',
      );
      return r;
    },
  );

  app.post(
    '/api/admin/newsletters/:id/schedule',
    {
      onRequest: admin,
      preValidation: emptyBody,
      schema: {
        params: NewsletterIdParams,
        body: ScheduleNewsletterBody,
        response: { 200: NewsletterSendResponse, ...sendErrors },
      },
    },
    async (request) => {
      const r = await service.schedule(request.params.id, request.body);
      request.log.info(
        { newsletterId: r.newsletterId, at: r.newsletter.scheduledAt, by: request.admin?.adminId },
        'newsletter scheduled',
      );
      return r;
    },
  );

  app.post(
    '/api/admin/newsletters/:id/unschedule',
    {
      onRequest: admin,
      schema: { params: NewsletterIdParams, response: { 200: NewsletterSendResponse, ...sendErrors } },
    },
    async (request) => {
      const r = await service.unschedule(request.params.id);
      request.log.info(
        { newsletterId: r.newsletterId, by: request.admin?.adminId },
        'newsletter unscheduled',
      );
      return r;
    },
  );

  app.post(
    '/api/admin/newsletters/:id/resume',
    {
      onRequest: admin,
      schema: { params: NewsletterIdParams, response: { 200: NewsletterSendResponse, ...sendErrors } },
    },
    async (request) => {
      const r = await service.resume(request.params.id);
      request.log.info({ newsletterId: r.newsletterId, by: request.admin?.adminId }, 'newsletter resumed');
      return r;
    },
  );

  app.post(
    '/api/admin/newsletters/:id/resend',
    {
      onRequest: admin,
      preValidation: emptyBody,
      schema: {
        params: NewsletterIdParams,
        body: ResendNewsletterBody,
        response: { 200: NewsletterSendResponse, ...sendErrors },
      },
    },
    async (request) => {
      const r = await service.resend(request.params.id, request.body);
      request.log.info({ newsletterId: r.newsletterId, recipients: r.recipients }, 'newsletter resent');
      return r;
    },
  );

  app.get(
    '/api/admin/newsletters/:id/analytics',
    {
      onRequest: admin,
      schema: {
        params: NewsletterIdParams,
        querystring: IncludeTestQuery,
        response: { 200: NewsletterAnalytics, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.analytics(request.params.id, request.query.includeTest === true);
    },
  );

  app.get(
    '/api/admin/newsletters/:id/engagement-report',
    {
      onRequest: admin,
      schema: {
        params: NewsletterIdParams,
        querystring: IncludeTestQuery,
        response: { 200: NewsletterEngagementReport, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.engagement(request.params.id, request.query.includeTest === true);
    },
  );
}
