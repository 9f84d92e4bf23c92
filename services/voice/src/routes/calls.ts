import {
  CALL_STATUSES,
  CallBody,
  CallResponse,
  type CallStatus,
  ConversationsResponse,
  DemoCallBody,
  DemoCallResponse,
  ErrorBody,
  normalizePhone,
  usE164,
  VoiceOverview,
} from '@parley/contracts';
import { badRequest, HttpError, type ServiceDeps, type ServiceInstance } from '@parley/kit';
import { isValidTwilioSignature } from '../calls/twilio.ts';
import type { CallProvider } from '../calls/types.ts';
import type { VoiceSettings } from '../config.ts';
import type { CallsRepository, DemoRefusal } from '../repo/calls.repository.ts';
import type { SpeechService } from '../speech/speech.service.ts';

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

  app.post(
    '/api/voice/call',
    { onRequest: deps.auth.admin, schema: { body: CallBody, response: { 200: CallResponse, ...errors } } },
    async (request) => {
      const raw = request.body.phoneNumber?.trim();
      if (!raw) throw badRequest('Please enter a phone number');
      const phone = normalizePhone(raw);
      if (!/^\+[1-9]\d{7,14}$/.test(phone)) throw badRequest('Please enter a valid phone number');
      const message = request.body.message?.trim() || DEFAULT_GREETING;
      const placed = await provider.place({ to: phone, message }).catch((err) => {
        request.log.error({ err, provider: provider.name }, 'call failed');
        throw new HttpError(502, 'The call could not be placed. Please try again.');
      });
      await repo.create({
        callSid: placed.callSid,
        phone,
        kind: 'admin',
        simulated: provider.simulated,
        transcript: [],
      });
      request.log.info({ callSid: placed.callSid, by: request.admin?.adminId }, 'call placed');
      return { callSid: placed.callSid };
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
      const result = await repo.createDemoCall(
        { phone, simulated: provider.simulated, transcript: [], callerName: name, clientIp: request.ip },
        settings.demo,
        now(),
        () => provider.place({ to: phone, message: DEMO_GREETING(name) }),
      );
      if (typeof result === 'string') {
        request.log.warn({ refusal: result }, 'demo call refused');
        throw new HttpError(429, REFUSALS[result], { 'retry-after': result === 'busy' ? '60' : '3600' });
      }
      return { status: 'initiated', callSid: result.callSid };
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
        !isValidTwilioSignature(
          ctx.twilioAuthToken,
          signature,
          `${settings.publicBaseUrl}${STATUS_PATH}`,
          params,
        )
      ) {
        request.log.warn('twilio callback with a missing or wrong signature refused');
        throw new HttpError(403, 'Invalid signature');
      }
      const status = params.CallStatus as CallStatus;
      if (!params.CallSid || !(CALL_STATUSES as readonly string[]).includes(status))
        throw badRequest('Unknown call status');
      const duration = params.CallDuration ? Number(params.CallDuration) : undefined;
      await repo.updateStatus(
        params.CallSid,
        status,
        duration !== undefined && Number.isFinite(duration) ? { duration } : {},
      );
      return reply.type('text/xml').send('<Response/>');
    });
  });
}
