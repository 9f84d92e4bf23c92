import type { Logger } from 'pino';
import { createInProcessBus } from './in-process.ts';
import { createNatsBus } from './nats.ts';
import type { EventBus } from './types.ts';

export * from './in-process.ts';
export * from './inbox.ts';
export * from './nats.ts';
export * from './outbox.ts';
export * from './types.ts';

/** The bus chosen by config: JetStream when NATS_URL is set, in-process otherwise. */
export async function createBus(opts: { natsUrl?: string; name: string; logger: Logger }): Promise<EventBus> {
  return opts.natsUrl
    ? createNatsBus({ url: opts.natsUrl, name: opts.name, logger: opts.logger })
    : createInProcessBus({ logger: opts.logger });
}
