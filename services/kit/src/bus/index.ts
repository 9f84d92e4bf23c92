import type { Logger } from 'pino';
import { createLocalBus } from './local.ts';
import { createNatsBus } from './nats.ts';
import type { EventBus } from './types.ts';

export * from './consumer.ts';
export * from './dead-letters.ts';
export * from './dispatcher.ts';
export * from './events-cli.ts';
export * from './inbox.ts';
export * from './local.ts';
export * from './nats.ts';
export * from './outbox.ts';
export * from './retry.ts';
export * from './sql.ts';
export * from './types.ts';

/**
 * The bus chosen by config: JetStream when NATS_URL is set; otherwise the local bus, whose
 * durable log lives in its own PostgreSQL database (embedded mode only).
 */
export async function createBus(opts: {
  natsUrl?: string | undefined;
  busDatabaseUrl?: string | undefined;
  name: string;
  logger: Logger;
}): Promise<EventBus> {
  if (opts.natsUrl) return createNatsBus({ url: opts.natsUrl, name: opts.name, logger: opts.logger });
  if (!opts.busDatabaseUrl)
    throw new Error('No event bus configured: set NATS_URL (or run the embedded platform with `pnpm start`)');
  return createLocalBus({ databaseUrl: opts.busDatabaseUrl, logger: opts.logger });
}
