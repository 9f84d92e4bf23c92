import {
  ErrorBody,
  MAX_TEST_EMAILS,
  TestEmailBody,
  TestEmailResponse,
  TestTrackingBody,
  TestTrackingResponse,
} from '@parley/contracts';
import type { ServiceDeps, ServiceInstance } from '@parley/kit';
import { testEmail, testTrackingEmail } from './domain/messages.ts';
import type { Mailer } from './mailer.service.ts';
import type { Transports } from './transports/index.ts';

/** An address we may put in a header: something@something, no spaces or header syntax. */
const ADDRESS = /^[^\s@<>(),;:"\\[\]]+@[^\s@<>(),;:"\\[\]]+$/;

/** The spec's rule (non-empty, contains @), made safe for a header; duplicates dropped. */
export function validTestAddresses(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const e of entries) {
    const a = e.trim();
    if (a && ADDRESS.test(a) && a.length <= 254) seen.add(a);
  }
  return [...seen];
}

/** The settings screen's test sends (Testing and SMTP tabs). */
export async function testMailRoutes(
  app: ServiceInstance,
  opts: { deps: ServiceDeps; mailer: Mailer; transports: Transports },
) {
  const { deps, mailer, transports } = opts;

  app.post(
    '/api/admin/settings/test-email',
    {
      onRequest: deps.auth.admin,
      schema: { body: TestEmailBody, response: { 200: TestEmailResponse, 400: ErrorBody, 422: ErrorBody } },
    },
    async (request, reply) => {
      const addresses = validTestAddresses(request.body.emails);
      if (!addresses.length) return reply.status(400).send(noValidEmailsBody());
      if (addresses.length > MAX_TEST_EMAILS)
        return reply.status(400).send({
          error: 'Too many emails',
          message: `Please enter at most ${MAX_TEST_EMAILS} test email addresses`,
        });
      // The settings as saved now (a test right after an SMTP save tests the new server); the
      // brand, sender and delivery below read the cache this refreshed.
      const transport = await transports.get({ fresh: true });
      const brand = await mailer.brand();
      const results = await mailer.sendNow(
        addresses.map((address) => ({
          kind: 'test',
          to: { address },
          content: testEmail(brand, transport.description),
          autoSubmitted: true,
        })),
      );
      const failed = results.filter((r) => r.result !== 'sent');
      const body = {
        transport: transport.name,
        results: results.map(({ trackingId: _, ...r }) => r),
      };
      if (failed.length === results.length)
        return reply.status(422).send({
          error: 'Test emails failed',
          message: `Failed to send test emails: ${failed[0]?.error ?? 'the mail server refused them'}`,
        });
      request.log.info({ sent: results.length - failed.length, failed: failed.length }, 'test emails sent');
      return failed.length
        ? {
            success: false,
            message: `Sent to ${results.length - failed.length} of ${results.length}; ${failed.map((f) => `${f.to}: ${f.error}`).join('; ')}`,
            ...body,
          }
        : { success: true, message: 'Test emails sent successfully', ...body };
    },
  );

  app.post(
    '/api/admin/email/test-tracking',
    {
      onRequest: deps.auth.admin,
      schema: {
        body: TestTrackingBody,
        response: { 200: TestTrackingResponse, 400: ErrorBody, 422: ErrorBody },
      },
    },
    async (request, reply) => {
      const [address] = validTestAddresses([request.body.email]);
      if (!address) return reply.status(400).send(noValidEmailsBody());
      const transport = await transports.get({ fresh: true });
      const brand = await mailer.brand();
      const [r] = await mailer.sendNow([
        {
          kind: 'test_tracking',
          to: { address },
          // The visible unsubscribe link and List-Unsubscribe come with `marketing`.
          content: testTrackingEmail(brand),
          marketing: true,
          track: true,
        },
      ]);
      if (r?.result !== 'sent')
        return reply.status(422).send({
          error: 'Test tracking failed',
          message: `Failed to send test tracking email: ${r?.error ?? 'not sent'}`,
        });
      return {
        success: true,
        message: 'Test tracking email sent',
        transport: transport.name,
        trackingId: r.trackingId,
        id: r.id,
      };
    },
  );
}

/** The spec's notice: 'No valid emails' / 'Please enter at least one valid email address'. */
function noValidEmailsBody() {
  return { error: 'No valid emails', message: 'Please enter at least one valid email address' };
}
