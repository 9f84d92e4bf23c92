import type { ServiceDeps } from '@parley/kit';
import { claimEvent, inTransaction, pgExecutor, type ServiceInstance } from '@parley/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Logger = ServiceDeps['logger'];

import type pg from 'pg';
import type { MailRepository } from '../delivery/mail.repository.ts';
import type { Suppress } from '../delivery/suppress.ts';
import {
  isTrustedSnsUrl,
  parseSnsMessage,
  SnsCertificateUnavailable,
  SnsVerificationError,
  sesOutcomeOf,
  verifySnsMessage,
} from './domain/sns.ts';
import { recordOutcome } from './tracking.repository.ts';

/**
 * SES bounce, complaint and delivery notifications through an SNS HTTP(S) subscription. The
 * gateway forwards the request untouched; this route accepts only the configured topics
 * (SNS_TOPIC_ARNS; none configured = every message refused, no subscription confirmed),
 * verifies SNS's signature (certificate from an SNS host only, fetched only after the cheap
 * checks passed), refuses stale messages, confirms the subscription, and records each
 * notification once (its MessageId in the inbox): hard bounce → bounced and suppressed;
 * complaint → unsubscribed and suppressed; soft bounces counted (3 in a row → bounced).
 *
 * Refusals are 403. When the certificate or the confirmation URL cannot be reached the answer
 * is 503 with Retry-After, logged: SNS retries a delivery that was not answered 2xx, and a
 * genuine message then gets through once the fetch works again (docs/adr/0059-sns-only-configured-topics.md).
 */
export async function sesRoutes(
  app: ServiceInstance,
  opts: {
    pool: pg.Pool;
    mail: MailRepository;
    suppress: Suppress;
    logger: Logger;
    testOrigins: string[];
    topicArns: string[];
    fetch?: typeof fetch;
  },
) {
  const { pool, mail, suppress, testOrigins, topicArns } = opts;
  const http = opts.fetch ?? fetch;
  const certs = new Map<string, Promise<string>>();
  /** A GET of an SNS URL; a network failure or timeout is SnsCertificateUnavailable. */
  const fetchSns = async (url: string, what: string) => {
    try {
      return await http(url, { redirect: 'error', signal: AbortSignal.timeout(5000) });
    } catch (err) {
      throw new SnsCertificateUnavailable(`${what} could not be fetched: ${(err as Error).message}`);
    }
  };
  const certificate = (url: string) => {
    let pem = certs.get(url);
    if (!pem) {
      pem = (async () => {
        const res = await fetchSns(url, 'the signing certificate');
        // SNS failing is transient; any other answer means the URL names no certificate.
        if (res.status >= 500)
          throw new SnsCertificateUnavailable(`the signing certificate answered ${res.status}`);
        if (!res.ok) throw new SnsVerificationError(`signing certificate answered ${res.status}`);
        const text = await res.text();
        if (!text.includes('BEGIN CERTIFICATE')) throw new SnsVerificationError('not a PEM certificate');
        return text;
      })();
      certs.set(url, pem);
      // A failed fetch is not remembered.
      pem.catch(() => certs.delete(url));
    }
    return pem;
  };

  // SNS posts JSON labelled text/plain; read every body as text and parse it here.
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (_r, body, done) => done(null, body),
  );

  const unavailable = (request: FastifyRequest, reply: FastifyReply, err: SnsCertificateUnavailable) => {
    request.log.warn({ reason: err.message }, 'SNS message not verified yet; SNS will retry');
    return reply
      .status(503)
      .header('retry-after', '60')
      .send({ error: 'Service Unavailable', message: `${err.message}; please retry` });
  };

  app.post('/api/email/ses/notifications', { bodyLimit: 256 * 1024 }, async (request, reply) => {
    let message: ReturnType<typeof parseSnsMessage>;
    try {
      message = parseSnsMessage(request.body);
      await verifySnsMessage(message, { certificate, testOrigins, topicArns });
    } catch (err) {
      if (err instanceof SnsCertificateUnavailable) return unavailable(request, reply, err);
      if (!(err instanceof SnsVerificationError)) throw err;
      request.log.warn({ reason: err.message }, 'SNS message refused');
      return reply.status(403).send({ error: 'Forbidden', message: `SNS message refused: ${err.message}` });
    }
    if (message.Type === 'SubscriptionConfirmation') {
      if (!message.SubscribeURL || !isTrustedSnsUrl(message.SubscribeURL, testOrigins))
        return reply.status(400).send({ error: 'Bad Request', message: 'SubscribeURL is not an SNS URL' });
      let res: Response;
      try {
        res = await fetchSns(message.SubscribeURL, 'the subscription confirmation');
      } catch (err) {
        if (err instanceof SnsCertificateUnavailable) return unavailable(request, reply, err);
        throw err;
      }
      if (res.status >= 500)
        return unavailable(
          request,
          reply,
          new SnsCertificateUnavailable(`the subscription confirmation answered ${res.status}`),
        );
      if (!res.ok)
        return reply.status(422).send({
          error: 'Unprocessable Entity',
          message: `SNS did not confirm the subscription (${res.status})`,
        });
      request.log.info({ topic: message.TopicArn }, 'SNS subscription confirmed');
      return { success: true, message: 'Subscription confirmed' };
    }
    if (message.Type === 'UnsubscribeConfirmation') return { success: true, message: 'Noted' };

    const outcome = sesOutcomeOf(message.Message);
    if (!outcome) return { success: true, message: 'Ignored: not a bounce, complaint or delivery' };
    const tracked = await mail.trackingOfProviderId(outcome.sesMessageId);
    if (outcome.kind === 'bounce')
      for (const r of outcome.recipients) await suppress(r.toLowerCase(), 'bounced', 'ses-bounce');
    // A complaint ends all marketing mail to the address: its contacts become unsubscribed.
    if (outcome.kind === 'complaint')
      for (const r of outcome.recipients) await suppress(r.toLowerCase(), 'complained', 'ses-complaint');
    const thirdSoftBounce: string[] = [];
    const first = await inTransaction(pool, async (client) => {
      // SNS may deliver a notification more than once: its MessageId (a uuid) is claimed once.
      if (!(await claimEvent(pgExecutor(client), 'email-ses-notifications', message.MessageId))) return false;
      for (const recipient of outcome.recipients) {
        const suppressAs = await recordOutcome(client, {
          trackingId: tracked && tracked.email === recipient.toLowerCase() ? tracked.trackingId : null,
          address: recipient,
          outcome: outcome.kind,
          reason: outcome.reason,
          source: 'ses',
          data: { sesMessageId: outcome.sesMessageId, snsMessageId: message.MessageId },
        });
        // The third soft bounce in a row makes the address bounced (suppressed after the commit).
        if (outcome.kind === 'soft_bounce' && suppressAs === 'bounced') thirdSoftBounce.push(recipient);
      }
      return true;
    });
    for (const r of thirdSoftBounce) await suppress(r.toLowerCase(), 'bounced', 'ses-soft-bounces');
    return { success: true, message: first ? `Recorded ${outcome.kind}` : 'Already recorded' };
  });
}
