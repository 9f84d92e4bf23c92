import type { ServiceInstance } from '@parley/kit';
import type { EmailContext } from '../../context.ts';
import type { DeliveryHandle } from '../delivery/index.ts';
import { DeliverabilityRepository } from './deliverability.repository.ts';
import { deliverabilityRoutes } from './deliverability.routes.ts';
import { DEFAULT_DNS_TIMEOUT_MS, parseNameServers } from './dns.ts';
import { SenderDomainChecks } from './domain-checks.service.ts';

/** Deliverability: the score, counts and recommendations of the tab, and the sender domain's DNS check. */
export async function registerDeliverability(
  app: ServiceInstance,
  ctx: EmailContext,
  mail: DeliveryHandle,
): Promise<{ checks: SenderDomainChecks }> {
  const { deps } = ctx;
  const config = deps.config;
  const checks = new SenderDomainChecks({
    config,
    settings: mail.settings,
    // Refused at start when it is not a list of addresses: a typo is found at deploy, not at the first check.
    servers: parseNameServers(config.DNS_SERVERS),
    timeoutMs: config.DNS_TIMEOUT_MS ?? DEFAULT_DNS_TIMEOUT_MS,
  });
  const repo = new DeliverabilityRepository(deps.pool);
  await app.register(async (scope) =>
    deliverabilityRoutes(scope, { deps, repo, checks, mailer: mail.mailer }),
  );
  return { checks };
}
