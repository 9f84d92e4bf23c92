import type { ServiceDeps } from '@parley/kit';
import type { EmailConfig } from './config.ts';
import type { EmailDb } from './db.ts';

/** What every part of the email service receives from the composition root. */
export interface EmailContext {
  deps: ServiceDeps<EmailConfig & ServiceDeps['config']>;
  db: EmailDb;
}
