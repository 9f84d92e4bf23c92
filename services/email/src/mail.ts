import type { ServiceInstance } from '@parley/kit';
import type { EmailContext } from './context.ts';

/** Mail delivery (SMTP, SES, local mailbox), transactional mails, tracking, unsubscribe, bounces. */
export async function registerMail(_app: ServiceInstance, _ctx: EmailContext): Promise<void> {}
