import { randomUUID } from 'node:crypto';
import {
  CAMPAIGN_MESSAGES,
  Campaign,
  CampaignIdParams,
  CampaignInput,
  CampaignList,
  CampaignMergeCheckBody,
  CampaignProgress,
  CampaignRecipientPage,
  CampaignRecipientsQuery,
  DeletedResponse,
  ErrorBody,
  MergeCheckResponse,
  plural,
  ResendCampaignBody,
  SAMPLE_CONTACT,
  SendCampaignBody,
  SendCampaignResponse,
  SendTestBody,
  SendTestResponse,
} from '@parley/contracts';
import { HttpError, type ServiceDeps, type ServiceInstance } from '@parley/kit';
import type { EmailDb } from '../../db.ts';
import type { SegmentsRepository } from '../audience/segments.repository.ts';
import type { DeliveryHandle } from '../delivery/index.ts';
import { validTestAddresses } from '../delivery/test-mail.routes.ts';
import type { CampaignsRepository } from './campaigns.repository.ts';
import { validateInput } from './domain/campaign-input.ts';
import { CampaignComposer } from './domain/compose.ts';
import type { LaunchResult, LaunchService } from './launch.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const sendErrors = { ...errors, 429: ErrorBody, 500: ErrorBody };

/** Campaigns (email marketing §2 Campaigns tab, §4 states, §5 validation, §7 calls, §8 errors). */
export async function campaignRoutes(
  app: ServiceInstance,
  ctx: {
    deps: ServiceDeps;
    db: EmailDb;
    repo: CampaignsRepository;
    launches: LaunchService;
    mail: DeliveryHandle;
    segments: SegmentsRepository;
  },
) {
  const { deps, repo, launches, mail, segments } = ctx;
  const admin = deps.auth.admin;

  app.get(
    '/api/admin/email/campaigns',
    { onRequest: admin, schema: { response: { 200: CampaignList, ...errors } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { campaigns: await repo.list() };
    },
  );

  app.post(
    '/api/admin/email/campaigns',
    { onRequest: admin, schema: { body: CampaignInput, response: { 201: Campaign, ...errors } } },
    async (request, reply) => {
      const c = await repo.create(request.body);
      request.log.info({ campaignId: c.id, by: request.admin?.adminId }, 'campaign created');
      return reply.status(201).send(c);
    },
  );

  app.get(
    '/api/admin/email/campaigns/:id',
    { onRequest: admin, schema: { params: CampaignIdParams, response: { 200: Campaign, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return repo.require(request.params.id);
    },
  );

  app.patch(
    '/api/admin/email/campaigns/:id',
    {
      onRequest: admin,
      schema: { params: CampaignIdParams, body: CampaignInput, response: { 200: Campaign, ...errors } },
    },
    async (request) => repo.update(request.params.id, request.body),
  );

  app.delete(
    '/api/admin/email/campaigns/:id',
    { onRequest: admin, schema: { params: CampaignIdParams, response: { 200: DeletedResponse, ...errors } } },
    async (request) => {
      await repo.delete(request.params.id);
      request.log.info({ campaignId: request.params.id, by: request.admin?.adminId }, 'campaign deleted');
      return { success: true as const, message: 'Campaign deleted' };
    },
  );

  app.post(
    '/api/admin/email/campaigns/:id/duplicate',
    { onRequest: admin, schema: { params: CampaignIdParams, response: { 201: Campaign, ...errors } } },
    async (request, reply) => reply.status(201).send(await repo.duplicate(request.params.id)),
  );

  app.get(
    '/api/admin/email/campaigns/:id/progress',
    {
      onRequest: admin,
      schema: { params: CampaignIdParams, response: { 200: CampaignProgress, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return (await repo.require(request.params.id)).progress;
    },
  );

  app.get(
    '/api/admin/email/campaigns/:id/recipients',
    {
      onRequest: admin,
      schema: {
        params: CampaignIdParams,
        querystring: CampaignRecipientsQuery,
        response: { 200: CampaignRecipientPage, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      return repo.recipients(request.params.id, {
        ...(q.sendId !== undefined ? { sendId: q.sendId } : {}),
        ...(q.status ? { status: q.status } : {}),
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      });
    },
  );

  app.post(
    '/api/admin/email/campaigns/:id/merge-check',
    {
      onRequest: admin,
      schema: {
        params: CampaignIdParams,
        body: CampaignMergeCheckBody,
        response: { 200: MergeCheckResponse, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const b = request.body;
      const c = await repo.require(request.params.id);
      return launches.mergeCheck(
        { subject: c.subject, html: c.htmlContent, text: c.textContent },
        {
          addressBookIds: b.addressBookIds ?? c.targetAddressBookIds,
          contactIds: b.contactIds ?? c.targetContactIds,
          segments: await segments.forSend(b.segmentIds ?? c.targetSegmentIds),
        },
        b.testMode === true,
      );
    },
  );

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    app.post(
      `/api/admin/email/campaigns/:id/${action}`,
      { onRequest: admin, schema: { params: CampaignIdParams, response: { 200: Campaign, ...sendErrors } } },
      async (request) => {
        // A newsletter's companion campaign is the newsletter's to drive (404 here).
        await repo.require(request.params.id);
        await launches[action](request.params.id);
        request.log.info({ campaignId: request.params.id, by: request.admin?.adminId }, `campaign ${action}`);
        return repo.require(request.params.id);
      },
    );
  }

  const launched = async (id: number, r: LaunchResult): Promise<SendCampaignResponse> => {
    const campaign = await repo.require(id);
    const who = r.testMode
      ? `${plural(r.recipients, 'test address', 'test addresses')} (test mode; ${plural(r.originalRecipients, 'live recipient')})`
      : plural(r.recipients, 'recipient');
    return {
      success: true,
      message: r.scheduled
        ? `Campaign scheduled for ${campaign.scheduledAt}: ${who}`
        : r.testMode
          ? `Test-mode send to ${who}; the campaign stays as it was`
          : `Campaign is being sent to ${who}`,
      campaignId: id,
      sendId: r.sendId,
      testMode: r.testMode,
      recipients: r.recipients,
      originalRecipients: r.originalRecipients,
      queued: r.scheduled ? 0 : r.recipients,
      sent: campaign.progress.sent,
      failed: campaign.progress.failed,
      campaign,
    };
  };

  /** Anything but the catalogue's answers becomes the spec's 'Failed to send campaign'. */
  const guarded = async <T>(
    request: { log: { error: (o: object, m: string) => void } },
    fn: () => Promise<T>,
  ) => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HttpError) throw err;
      request.log.error({ err }, 'campaign send failed');
      throw new HttpError(500, CAMPAIGN_MESSAGES.failed);
    }
  };

  app.post(
    '/api/admin/email/campaigns/:id/send',
    {
      onRequest: admin,
      schema: {
        params: CampaignIdParams,
        body: SendCampaignBody,
        response: { 200: SendCampaignResponse, ...sendErrors },
      },
    },
    async (request) => {
      const b = request.body;
      if (b.confirmSend !== true) throw new HttpError(400, CAMPAIGN_MESSAGES.confirm);
      const c = await repo.require(request.params.id);
      const chosenSegments = await segments.forSend(b.segmentIds ?? c.targetSegmentIds);
      const r = await guarded(request, () =>
        launches.launch(c.id, {
          kind: 'send',
          addressBookIds: b.addressBookIds ?? c.targetAddressBookIds,
          contactIds: b.contactIds ?? c.targetContactIds,
          segments: chosenSegments,
          testRequested: b.testMode === true,
        }),
      );
      request.log.info(
        {
          campaignId: c.id,
          sendId: r.sendId,
          recipients: r.recipients,
          testMode: r.testMode,
          by: request.admin?.adminId,
        },
        r.scheduled ? 'campaign scheduled' : 'campaign launched',
      );
      return launched(c.id, r);
    },
  );

  app.post(
    '/api/admin/email/campaigns/:id/resend',
    {
      onRequest: admin,
      schema: {
        params: CampaignIdParams,
        body: ResendCampaignBody,
        response: { 200: SendCampaignResponse, ...sendErrors },
      },
    },
    async (request) => {
      const b = request.body;
      if (!b.contactIds.length && !b.addressBookIds?.length)
        throw new HttpError(400, `${CAMPAIGN_MESSAGES.noContacts}: ${CAMPAIGN_MESSAGES.noContactsResend}`);
      const c = await repo.require(request.params.id);
      const r = await guarded(request, () =>
        launches.launch(c.id, {
          kind: 'resend',
          addressBookIds: b.addressBookIds ?? [],
          contactIds: b.contactIds,
          testRequested: false,
        }),
      );
      request.log.info({ campaignId: c.id, sendId: r.sendId, recipients: r.recipients }, 'campaign resent');
      return launched(c.id, r);
    },
  );

  app.post(
    '/api/admin/email/send-test',
    {
      onRequest: admin,
      schema: { body: SendTestBody, response: { 200: SendTestResponse, ...errors, 422: ErrorBody } },
    },
    async (request, reply) => {
      const b = request.body;
      const entries = typeof b.testRecipients === 'string' ? [b.testRecipients] : b.testRecipients;
      if (entries.length > 1) throw new HttpError(400, 'Send one test address per call');
      const [to] = validTestAddresses(entries);
      if (!to)
        return reply
          .status(400)
          .send({ error: 'No valid emails', message: 'Please enter at least one valid email address' });
      let base: Partial<Campaign> = {};
      if (b.campaignId !== undefined) {
        base = await repo.require(b.campaignId);
        if (base.status !== 'draft')
          throw new HttpError(409, `${CAMPAIGN_MESSAGES.notDraft}: this campaign is ${base.status}`);
      }
      // The settings as saved now (the transport and the default sender), and the cache the
      // delivery below reads refreshed with them: a test right after a save uses the new ones.
      const transport = await mail.transports.get({ fresh: true });
      const sender = await mail.mailer.sender();
      const merged = {
        subject: b.subject ?? base.subject ?? '',
        fromName: b.fromName ?? base.fromName ?? sender.name ?? 'Parley',
        fromEmail: b.fromEmail ?? base.fromEmail ?? sender.address,
        htmlContent: b.htmlContent ?? base.htmlContent ?? '',
        textContent: b.textContent !== undefined ? b.textContent : (base.textContent ?? null),
      };
      const v = validateInput(
        { name: 'test', subject: merged.subject, fromName: merged.fromName, fromEmail: merged.fromEmail },
        true,
      );
      if (!merged.htmlContent.trim())
        return reply
          .status(400)
          .send({ error: 'No Content', message: 'Please add HTML content before sending a test' });
      const composer = new CampaignComposer(
        {
          ...merged,
          subject: v.subject as string,
          fromName: v.fromName as string,
          fromEmail: v.fromEmail as string,
        },
        { origin: mail.mailer.origin, signer: mail.signer, test: true },
      );
      const trackingId = randomUUID().replace(/-/g, '').slice(0, 22);
      const m = await composer.compose({ ...SAMPLE_CONTACT, email: to }, trackingId);
      const id = randomUUID();
      await ctx.db.$transaction((tx) =>
        mail.mail.insert(tx, [
          {
            id,
            messageId: m.messageId,
            kind: 'campaign_test',
            dedupeKey: null,
            eventId: null,
            campaignId: null,
            fromAddress: composer.from.address,
            toAddress: to,
            subject: m.subject,
            html: m.html,
            text: m.text,
            raw: m.raw,
            hasCalendar: false,
            marketing: true,
            testMode: false,
            trackingId,
          },
        ]),
      );
      const r = await mail.mailer.deliver(id, { retry: false });
      if (r.result !== 'sent')
        return reply.status(422).send({
          error: 'Test Send Failed',
          message: `Failed to send test email: ${r.error ?? 'not sent'}`,
        });
      request.log.info({ campaignId: b.campaignId ?? null, mailId: id }, 'campaign test sent');
      return {
        success: true,
        message: `Test email sent to ${to}`,
        to,
        result: r.result,
        id,
        transport: transport.name,
      };
    },
  );
}
