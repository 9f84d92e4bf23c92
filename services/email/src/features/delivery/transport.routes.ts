import { MailTransportStatus } from '@parley/contracts';
import type { ServiceDeps, ServiceInstance } from '@parley/kit';
import type { Transports } from './transports/index.ts';

/**
 * Where mail goes (the SMTP tab's transport choice and Sent mail): the transport in force as
 * the settings are saved now, the admin's choice, and which choices this service can honour.
 */
export async function transportRoutes(
  app: ServiceInstance,
  opts: { deps: ServiceDeps; transports: Transports },
) {
  app.get(
    '/api/admin/email/transport',
    { onRequest: opts.deps.auth.admin, schema: { response: { 200: MailTransportStatus } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return opts.transports.status();
    },
  );
}
