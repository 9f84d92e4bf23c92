import {
  CALL_STATUSES,
  CallBody,
  CallResponse,
  type CallStatus,
  ConversationsResponse,
  callablePhone,
  DemoCallBody,
  DemoCallResponse,
  ErrorBody,
  usE164,
  VoiceOverview,
} from '@parley/contracts';
import { badRequest, HttpError, type ServiceDeps, type ServiceInstance } from '@parley/kit';
import type { FastifyRequest } from 'fastify';
import type { VoiceSettings } from '../config.ts';
import type { CallProvider } from '../providers/calls/types.ts';
import type { CallsRepository, DemoRefusal } from '../repo/calls.repository.ts';
import type { SpeechService } from '../speech.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody, 502: ErrorBody };
const DEFAULT_GREETING =
  'Hello! This is the Parley AI assistant calling. I can answer your questions and book appointments. How can I help you today?';
const DEMO_GREETING = (name: string) =>
  `Hi ${name}, this is Parley's AI agent, calling because you asked for a demo. I can answer questions about your business line, or book a consultation with our team. What would you like to try?`;
const REFUSALS: Record<DemoRefusal, string> = {
  number:
    'This number has already received the maximum number of demo calls today. Please try again tomorrow.',
  ip: 'You have reached the maximum number of demo calls for today. Please try again tomorrow.',
  busy: 'All demo lines are busy right now. Please try again in a minute.',
};
const STATUS_PATH = '/api/voice/twilio/status';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Calls: admin calls and history, the public demo call, Twilio's signed status callbacks. */
export async function callRoutes(
  app: ServiceInstance,
  ctx: {
    repo: CallsRepository;
    provider: CallProvider;
    speech: SpeechService;
    settings: VoiceSettings;
    twilioAuthToken: string | undefined;
    deps: ServiceDeps;
    now: () => Date;
  },
) {
  const { repo, provider, speech, settings, deps, now } = ctx;

  /**
   * Places a reserved call, outside any transaction, and records the outcome: the provider's
   * callSid, or its refusal (502; the reservation then counts against no limit).
   */
  async function place(request: FastifyRequest, conversationId: string, to: string, message: string) {
    let callSid: string;
    try {
      ({ callSid } = await provider.place({ to, message, conversationId }));
    } catch (err) {
      request.log.error({ err, provider: provider.name, conversationId }, 'call failed');
      await repo.recordPlaceFailed(conversationId, err instanceof Error ? err.message : String(err));
      throw new HttpError(502, 'The call could not be placed. Please try again.');
    }
    await repo.recordPlaced(conversationId, callSid);
    return callSid;
  }

  app.post(
    '/api/voice/call',
    { onRequest: deps.auth.admin, schema: { body: CallBody, response: { 200: CallResponse, ...errors } } },
    async (request) => {
      const raw = request.body.phoneNumber?.trim();
      if (!raw) throw badRequest('Please enter a phone number');
      const phone = callablePhone(raw);
      if (!phone) throw badRequest('Please enter a valid phone number');
      const message = request.body.message?.trim() || DEFAULT_GREETING;
      // The row exists before the call, so even the earliest status report finds it.
      const id = await repo.reserve({ phone, kind: 'admin', simulated: provider.simulated, transcript: [] });
      const callSid = await place(request, id, phone, message);
      request.log.info({ callSid, conversationId: id, by: request.admin?.adminId }, 'call placed');
      return { callSid };
    },
  );

  app.get(
    '/api/voice/conversations',
    { onRequest: deps.auth.admin, schema: { response: { 200: ConversationsResponse, ...errors } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { conversations: await repo.list() };
    },
  );

  app.get(
    '/api/voice/overview',
    { onRequest: deps.auth.admin, schema: { response: { 200: VoiceOverview, ...errors } } },
    async () => {
      const stats = await repo.stats(now());
      return {
        speechEngine: speech.engine.name,
        speechModel: speech.engine.model,
        callProvider: provider.name,
        simulatedCalls: provider.simulated,
        activeCalls: stats.active,
        callsToday: stats.today,
        synthesesSinceStart: speech.synthesized,
      };
    },
  );

  app.post(
    '/api/voice/demo-call',
    {
      config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: { body: DemoCallBody, response: { 200: DemoCallResponse, ...errors } },
    },
    async (request) => {
      const name = request.body.name?.trim().slice(0, 60) || 'there';
      const phone = usE164(request.body.phone_number ?? '');
      if (!phone) throw badRequest('Please enter a valid 10-digit US phone number');
      const reserved = await repo.reserveDemoCall(
        { phone, simulated: provider.simulated, transcript: [], callerName: name, clientIp: request.ip },
        settings.demo,
        now(),
      );
      if (typeof reserved === 'string') {
        request.log.warn({ refusal: reserved }, 'demo call refused');
        throw new HttpError(429, REFUSALS[reserved], { 'retry-after': reserved === 'busy' ? '60' : '3600' });
      }
      const callSid = await place(request, reserved.id, phone, DEMO_GREETING(name));
      return { status: 'initiated', callSid };
    },
  );

  // Twilio posts form fields; only this route parses them.
  await app.register(async (hooks) => {
    hooks.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    hooks.post(STATUS_PATH, { schema: { response: errors } }, async (request, reply) => {
      if (!ctx.twilioAuthToken) throw new HttpError(404, 'Twilio is not configured');
      const signature = request.headers['x-twilio-signature'];
      const params = (request.body ?? {}) as Record<string, string>;
      if (
        typeof signature !== 'string' ||
        // Signed over the URL Twilio was given: the public origin, the path and the query
        // (which names the conversation), as the request arrives here through the gateway.
        !(await import('../providers/calls/twilio.ts')).isValidTwilioSignature(
          ctx.twilioAuthToken,
          signature,
          `${settings.publicBaseUrl}${request.url}`,
          params,
        )
      ) {
        request.log.warn('twilio callback with a missing or wrong signature refused');
        throw new HttpError(403, 'Invalid signature');
      }
      // The "initiated" event may report CallStatus=initiated: the call exists, still queued.
      const status = (params.CallStatus === 'initiated' ? 'queued' : params.CallStatus) as CallStatus;
      if (!params.CallSid || !(CALL_STATUSES as readonly string[]).includes(status))
        throw badRequest('Unknown call status');
      const duration = params.CallDuration ? Number(params.CallDuration) : undefined;
      const conversation = (request.query as { conversation?: unknown }).conversation;
      await repo.updateStatus(
        {
          callSid: params.CallSid,
          ...(typeof conversation === 'string' && UUID.test(conversation)
            ? { conversationId: conversation }
            : {}),
        },
        status,
        duration !== undefined && Number.isFinite(duration) ? { duration } : {},
      );
      return reply.type('text/xml').send('<Response/>');
    });
  });
}
