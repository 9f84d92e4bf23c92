import { escapeMarkup } from '@parley/kit';
import twilio from 'twilio';
import type { CallProvider } from './types.ts';

/** Twilio (official SDK): the call speaks the greeting (TwiML) and reports its status to us. */
export function twilioProvider(opts: {
  accountSid: string;
  authToken: string;
  from: string;
  statusCallbackUrl: string;
}): CallProvider {
  const client = twilio(opts.accountSid, opts.authToken);
  return {
    name: 'twilio',
    simulated: false,
    async place({ to, message }) {
      const call = await client.calls.create({
        to,
        from: opts.from,
        twiml: `<Response><Say voice="Polly.Joanna">${escapeMarkup(message)}</Say></Response>`,
        statusCallback: opts.statusCallbackUrl,
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
