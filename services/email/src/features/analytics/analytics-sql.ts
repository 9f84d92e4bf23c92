import { sql } from 'kysely';
import type { EmailRollupActivity, EmailRollupMail } from '../../generated/kysely/database.ts';
import { db } from '../../shared/sql.ts';
import { type MailCounts, NO_MAIL } from './domain/analytics.ts';

/**
 * The SQL every analytics answer builds on: the rollups of campaign mail (ADR 0067), kept by
 * the tracking triggers in the writers' transactions, so a report reads a few rows per campaign
 * and quarter-hour (never the tracking rows or the events) and is current as soon as a write
 * commits. A rollup's figure for a key is the sum of its rows (folded and not yet folded).
 * Campaign ids are joined to `email_campaigns` by the readers, so a deleted draft's test mail
 * never shows.
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

/** sum(column) of the rows in the group, as an integer (0 for none). */
export const total = <C extends keyof EmailRollupMail | keyof EmailRollupActivity>(column: C, table = 'r') =>
  sql<number>`coalesce(sum(${sql.ref(`${table}.${column}`)}), 0)::int`;

/** The MailCounts of the rows grouped, as columns named by MailCounts. */
export const mailCounts = () => MAIL_COUNTERS.map(([column, name]) => total(column).as(name));

export type CountsRow = Record<keyof MailCounts, number>;

export const countsOf = (r: CountsRow | undefined): MailCounts => {
  const out = { ...NO_MAIL };
  if (r) for (const [, name] of MAIL_COUNTERS) out[name] = r[name];
  return out;
};

/**
 * The mail rollup's rows, as `r`: live mail only unless test mail is asked for, of campaigns
 * that exist.
 */
export const mailRollup = (includeTest: boolean) =>
  db
    .selectFrom('email_rollup_mail as r')
    .where((eb) =>
      eb.exists(eb.selectFrom('email_campaigns as c').select('c.id').whereRef('c.id', '=', 'r.campaign_id')),
    )
    .$if(!includeTest, (qb) => qb.where('r.test_mode', '=', false));

/** The activity rollup's rows, as `r`, with the same filters. */
export const activityRollup = (includeTest: boolean) =>
  db
    .selectFrom('email_rollup_activity as r')
    .where((eb) =>
      eb.exists(eb.selectFrom('email_campaigns as c').select('c.id').whereRef('c.id', '=', 'r.campaign_id')),
    )
    .$if(!includeTest, (qb) => qb.where('r.test_mode', '=', false));

/** Which kind of mailing an email_campaigns row `c` is (a newsletter's sends run as a campaign). */
export const KIND = sql<
  'campaign' | 'newsletter'
>`CASE WHEN c."newsletter_id" IS NULL THEN 'campaign' ELSE 'newsletter' END`;
