import { sql } from 'kysely';
import type { EmailRollupActivity, EmailRollupMail } from '../generated/kysely/database.ts';
import { db } from './sql.ts';

/**
 * The rollups of campaign mail (ADR 0067), read by Analytics and Deliverability alike: kept by
 * the tracking triggers in the writers' transactions, so a report reads a few rows per campaign
 * and quarter-hour (never the tracking rows or the events) and is current as soon as a write
 * commits. A rollup's figure for a key is the sum of its rows (folded and not yet folded).
 * Campaign ids are joined to `email_campaigns` here, so a deleted draft's test mail never shows.
 */

/** sum(column) of the rows in the group, as an integer (0 for none). */
export const total = <C extends keyof EmailRollupMail | keyof EmailRollupActivity>(column: C, table = 'r') =>
  sql<number>`coalesce(sum(${sql.ref(`${table}.${column}`)}), 0)::int`;

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
