import type { ServiceDeps } from '@parley/kit';
import { claimEvent, pgExecutor, type ServiceInstance } from '@parley/kit';

type Logger = ServiceDeps['logger'];

import type pg from 'pg';
import {
  isTrustedSnsUrl,
  parseSnsMessage,
  SnsVerificationError,
  sesOutcomeOf,
  verifySnsMessage,
} from '../domain/sns.ts';
import type { Suppress } from '../providers/suppress.ts';
import type { MailRepository } from '../repo/mail.repository.ts';
import { recordOutcome } from '../repo/tracking.repository.ts';

/**
 * SES bounce, complaint and delivery notifications through an SNS HTTP(S) subscription. The
 * gateway forwards the request untouched; this route verifies SNS's signature (certificate
 * from an SNS host only), refuses stale messages, confirms the subscription, and records each
 * notification once (its MessageId in the inbox): hard bounce → bounced and suppressed;
 * complaint → unsubscribed and suppressed; soft bounces counted (3 in a row → bounced).
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
  const certificate = (url: string) => {
    let pem = certs.get(url);
    if (!pem) {
      pem = (async () => {
        const res = await http(url, { redirect: 'error', signal: AbortSignal.timeout(5000) });
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

  app.post('/api/email/ses/notifications', { bodyLimit: 256 * 1024 }, async (request, reply) => {
    let message: ReturnType<typeof parseSnsMessage>;
    try {
      message = parseSnsMessage(request.body);
      await verifySnsMessage(message, { certificate, testOrigins, topicArns });
    } catch (err) {
      if (!(err instanceof SnsVerificationError)) throw err;
      request.log.warn({ reason: err.message }, 'SNS message refused');
      return reply.status(403).send({ error: 'Forbidden', message: `SNS message refused: ${err.message}` });
    }
    if (message.Type === 'SubscriptionConfirmation') {
      if (!message.SubscribeURL || !isTrustedSnsUrl(message.SubscribeURL, testOrigins))
        return reply.status(400).send({ error: 'Bad Request', message: 'SubscribeURL is not an SNS URL' });
      const res = await http(message.SubscribeURL, { redirect: 'error', signal: AbortSignal.timeout(5000) });
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
    const client = await pool.connect();
    let first = true;
    try {
      await client.query('BEGIN');
      // SNS may deliver a notification more than once: its MessageId (a uuid) is claimed once.
      first = await claimEvent(pgExecutor(client), 'email-ses-notifications', message.MessageId);
      if (first) {
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
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
    for (const r of thirdSoftBounce) await suppress(r.toLowerCase(), 'bounced', 'ses-soft-bounces');
    return { success: true, message: first ? `Recorded ${outcome.kind}` : 'Already recorded' };
  });
}
