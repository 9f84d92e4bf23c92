import { escapeMarkup } from '@parley/kit';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient.js';
import type { CallProvider } from './types.ts';

/** Longest we wait for Twilio to accept a call (its own default is 30 s). */
const PLACE_TIMEOUT_MS = 15_000;
const TWILIO_API = 'https://api.twilio.com';

/**
 * The status callback URL of one conversation: the conversation id rides in the query string,
 * which Twilio's signature covers, so a callback finds its row even before the callSid is stored.
 */
export function statusCallbackUrl(base: string, conversationId: string): string {
  return `${base}?conversation=${encodeURIComponent(conversationId)}`;
}

/** Twilio's HTTP client, sending to another base URL than api.twilio.com (a proxy, or a local stand-in). */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(
    private readonly base: URL,
    opts: ConstructorParameters<typeof twilio.RequestClient>[0],
  ) {
    super(opts);
  }

  override request<T>(opts: RequestClient.RequestOptions<T>) {
    const uri = new URL(opts.uri);
    const rebased = new URL(
      `${this.base.pathname.replace(/\/$/, '')}${uri.pathname}${uri.search}`,
      this.base,
    );
    return super.request<T>({ ...opts, uri: rebased.href });
  }
}

/** Twilio (official SDK): the call speaks the greeting (TwiML) and reports its status to us. */
export function twilioProvider(opts: {
  accountSid: string;
  authToken: string;
  from: string;
  statusCallbackUrl: string;
  /** Base URL of Twilio's REST API (default https://api.twilio.com). */
  apiBaseUrl?: string;
}): CallProvider {
  const http =
    opts.apiBaseUrl && opts.apiBaseUrl !== TWILIO_API
      ? new RebasedRequestClient(new URL(opts.apiBaseUrl), { timeout: PLACE_TIMEOUT_MS })
      : new twilio.RequestClient({ timeout: PLACE_TIMEOUT_MS });
  const client = twilio(opts.accountSid, opts.authToken, { httpClient: http });
  return {
    name: 'twilio',
    simulated: false,
    async place({ to, message, conversationId }) {
      const call = await client.calls.create({
        to,
        from: opts.from,
        twiml: `<Response><Say voice="Polly.Joanna">${escapeMarkup(message)}</Say></Response>`,
        statusCallback: statusCallbackUrl(opts.statusCallbackUrl, conversationId),
        statusCallbackMethod: 'POST',
        statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      });
      return { callSid: call.sid };
    },
  };
}

/** Twilio's request signature check (X-Twilio-Signature over the public URL and the form fields). */
export function isValidTwilioSignature(
  authToken: string,
  signature: string,
  url: string,
  params: Record<string, string>,
): boolean {
  return twilio.validateRequest(authToken, signature, url, params);
}
