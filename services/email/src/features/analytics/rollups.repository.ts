import { inTransaction } from '@parley/kit';
import type pg from 'pg';

/**
 * The analytics rollups' upkeep (ADR 0067; the tables, triggers and rebuild function are in
 * the analytics_rollups migration). The triggers on email_tracking write each statement's
 * change as delta rows; `compact` folds them into one row per key, so a report reads a few
 * rows per campaign and quarter-hour however many statements wrote them. `rebuild` writes both
 * rollups again from the raw tracking rows (the operator's `rollups rebuild` command).
 */
export class RollupsRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Folds the committed delta rows into their keys' folded rows, each rollup in one statement
   * (readers see before or after, never both). Returns the delta rows folded.
   */
  async compact(): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      // One compaction at a time across replicas; the others skip this round.
      const lock = await client.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [
        COMPACTION_LOCK,
      ]);
      if (!lock.rows[0]?.got) return 0;
      const mail = await client.query<{ n: string }>({
        name: 'email_rollup_mail_compact',
        text: `WITH moved AS (DELETE FROM "email_rollup_mail" WHERE NOT "folded" RETURNING *),
          folded AS (
            INSERT INTO "email_rollup_mail" ("campaign_id", "test_mode", "address_book_id", "quarter", "folded",
              "first_sent_at", "sent", "bounced", "opened", "proxy_only", "clicked", "engaged", "engaged_delivered",
              "unsubscribed", "complained", "unsent_bounced", "failed")
            SELECT "campaign_id", "test_mode", "address_book_id", "quarter", true, min("first_sent_at"),
              sum("sent"), sum("bounced"), sum("opened"), sum("proxy_only"), sum("clicked"), sum("engaged"),
              sum("engaged_delivered"), sum("unsubscribed"), sum("complained"), sum("unsent_bounced"), sum("failed")
            FROM moved GROUP BY 1, 2, 3, 4
            ON CONFLICT ("campaign_id", "test_mode", "address_book_id", "quarter") WHERE "folded" DO UPDATE SET
              "first_sent_at" = LEAST("email_rollup_mail"."first_sent_at", excluded."first_sent_at"),
              "sent" = "email_rollup_mail"."sent" + excluded."sent",
              "bounced" = "email_rollup_mail"."bounced" + excluded."bounced",
              "opened" = "email_rollup_mail"."opened" + excluded."opened",
              "proxy_only" = "email_rollup_mail"."proxy_only" + excluded."proxy_only",
              "clicked" = "email_rollup_mail"."clicked" + excluded."clicked",
              "engaged" = "email_rollup_mail"."engaged" + excluded."engaged",
              "engaged_delivered" = "email_rollup_mail"."engaged_delivered" + excluded."engaged_delivered",
              "unsubscribed" = "email_rollup_mail"."unsubscribed" + excluded."unsubscribed",
              "complained" = "email_rollup_mail"."complained" + excluded."complained",
              "unsent_bounced" = "email_rollup_mail"."unsent_bounced" + excluded."unsent_bounced",
              "failed" = "email_rollup_mail"."failed" + excluded."failed"
          )
          SELECT count(*) AS n FROM moved`,
      });
      const activity = await client.query<{ n: string }>({
        name: 'email_rollup_activity_compact',
        text: `WITH moved AS (DELETE FROM "email_rollup_activity" WHERE NOT "folded" RETURNING *),
          folded AS (
            INSERT INTO "email_rollup_activity" ("campaign_id", "test_mode", "quarter", "folded",
              "opens", "proxy_opens", "clicks", "bounces", "unsubscribes")
            SELECT "campaign_id", "test_mode", "quarter", true,
              sum("opens"), sum("proxy_opens"), sum("clicks"), sum("bounces"), sum("unsubscribes")
            FROM moved GROUP BY 1, 2, 3
            ON CONFLICT ("campaign_id", "test_mode", "quarter") WHERE "folded" DO UPDATE SET
              "opens" = "email_rollup_activity"."opens" + excluded."opens",
              "proxy_opens" = "email_rollup_activity"."proxy_opens" + excluded."proxy_opens",
              "clicks" = "email_rollup_activity"."clicks" + excluded."clicks",
              "bounces" = "email_rollup_activity"."bounces" + excluded."bounces",
              "unsubscribes" = "email_rollup_activity"."unsubscribes" + excluded."unsubscribes"
          )
          SELECT count(*) AS n FROM moved`,
      });
      return Number(mail.rows[0]?.n ?? 0) + Number(activity.rows[0]?.n ?? 0);
    });
  }

  /**
   * Both rollups again from the raw tracking rows, in one transaction (tracking writes wait for
   * it). Returns the folded rows written.
   */
  async rebuild(): Promise<{ mailRows: number; activityRows: number }> {
    return inTransaction(this.pool, async (client) => {
      await client.query(`SET LOCAL work_mem = '256MB'`);
      await client.query('SELECT "email_rollups_rebuild"()');
      const { rows } = await client.query<{ mail: string; activity: string }>(
        `SELECT (SELECT count(*) FROM "email_rollup_mail") AS mail, (SELECT count(*) FROM "email_rollup_activity") AS activity`,
      );
      return { mailRows: Number(rows[0]?.mail ?? 0), activityRows: Number(rows[0]?.activity ?? 0) };
    });
  }
}

/** Advisory lock key of the rollups' compaction (any constant unique in this database). */
const COMPACTION_LOCK = 0x726f_6c6c;
