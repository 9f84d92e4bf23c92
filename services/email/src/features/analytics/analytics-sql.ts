import { sql } from 'kysely';
import type { EmailRollupMail } from '../../generated/kysely/database.ts';
import { total } from '../../shared/rollups-sql.ts';
import { type MailCounts, NO_MAIL } from './domain/analytics.ts';

/**
 * The analytics answers' shared SQL on the rollups of campaign mail (ADR 0067; the rollups'
 * readers are in shared/rollups-sql.ts): the report counters as MailCounts, and a mailing's kind.
 */

/** The report counters of email_rollup_mail, in the MailCounts order (a rename fails the typecheck). */
const MAIL_COUNTERS = [
  ['sent', 'sent'],
  ['bounced', 'bounced'],
  ['opened', 'opened'],
  ['proxy_only', 'proxyOnly'],
  ['clicked', 'clicked'],
  ['engaged', 'engaged'],
  ['unsubscribed', 'unsubscribed'],
  ['complained', 'complained'],
] as const satisfies ReadonlyArray<readonly [keyof EmailRollupMail, keyof MailCounts]>;

/** The MailCounts of the rows grouped, as columns named by MailCounts. */
export const mailCounts = () => MAIL_COUNTERS.map(([column, name]) => total(column).as(name));

export type CountsRow = Record<keyof MailCounts, number>;

export const countsOf = (r: CountsRow | undefined): MailCounts => {
  const out = { ...NO_MAIL };
  if (r) for (const [, name] of MAIL_COUNTERS) out[name] = r[name];
  return out;
};

/** Which kind of mailing an email_campaigns row `c` is (a newsletter's sends run as a campaign). */
export const KIND = sql<
  'campaign' | 'newsletter'
>`CASE WHEN c."newsletter_id" IS NULL THEN 'campaign' ELSE 'newsletter' END`;
