import type pg from 'pg';
import type { EmailDb } from '../../db.ts';

/**
 * The record of every message sent (mail_messages and their tracking rows): recording the
 * composed messages, claiming one for sending and its outcome, pruning by the retention rule,
 * and the lookups the consumers and the SES notifications need. What Sent mail reads is in
 * sent-mail.repository.ts.
 */

/** A message ready to be recorded (composed, not yet sent). */
export interface NewMail {
  id: string;
  messageId: string;
  kind: string;
  dedupeKey: string | null;
  eventId: string | null;
  campaignId: string | null;
  fromAddress: string;
  toAddress: string;
  subject: string;
  html: string;
  text: string;
  raw: Buffer;
  hasCalendar: boolean;
  marketing: boolean;
  testMode: boolean;
  trackingId: string;
}

export interface ClaimedMail {
  id: string;
  fromAddress: string;
  toAddress: string;
  raw: Buffer;
  trackingId: string | null;
  attempts: number;
}

type Tx = Parameters<Parameters<EmailDb['$transaction']>[0]>[0];

/**
 * Kinds whose content carries a one-time secret (the invitation link): once the message is
 * sent, the stored copy keeps its headers only, so the link lives nowhere but in the
 * recipient's mailbox (and is never shown in the Sent mail view).
 */
export const SECRET_KINDS = ['admin_invitation'];
export const REMOVED_NOTE = '[content removed after sending: it held a one-time link]';

/** A message claimed for sending longer ago than this was interrupted by a stop. */
const SENDING_STALE_MS = 10 * 60_000;

/** mail_messages and their tracking rows: the record of every send. */
export class MailRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Whether consumer `durable` has applied event `eventId` already (its inbox row). */
  async handled(durable: string, eventId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM "inbox_events" WHERE "consumer" = $1 AND "event_id" = $2::uuid',
      [durable, eventId],
    );
    return (rowCount ?? 0) > 0;
  }

  /**
   * Records messages and their tracking rows in the caller's transaction. A message whose
   * dedupe key exists already (a redelivered event) is skipped.
   */
  async insert(tx: Tx, mails: NewMail[]): Promise<number> {
    if (!mails.length) return 0;
    const created = await tx.mailMessage.createManyAndReturn({
      data: mails.map((m) => ({
        id: m.id,
        messageId: m.messageId,
        kind: m.kind,
        dedupeKey: m.dedupeKey,
        eventId: m.eventId,
        campaignId: m.campaignId,
        fromAddress: m.fromAddress,
        toAddress: m.toAddress,
        subject: m.subject,
        html: m.html,
        text: m.text,
        raw: new Uint8Array(m.raw),
        sizeBytes: m.raw.length,
        hasCalendar: m.hasCalendar,
        marketing: m.marketing,
        testMode: m.testMode,
      })),
      skipDuplicates: true,
      select: { id: true },
    });
    const ids = new Set(created.map((c) => c.id));
    const tracked = mails.filter((m) => ids.has(m.id));
    if (tracked.length) {
      await tx.emailTracking.createMany({
        data: tracked.map((m) => ({
          trackingId: m.trackingId,
          mailMessageId: m.id,
          campaignId: m.campaignId,
          email: m.toAddress.toLowerCase(),
        })),
      });
    }
    return tracked.length;
  }

  /** Messages of an event still to send; interrupted sends become `unknown` (never resent). */
  async pendingOfEvent(eventId: string): Promise<string[]> {
    await this.pool.query(
      `UPDATE "mail_messages" SET "status" = 'unknown', "updated_at" = now(),
         "last_error" = 'the service stopped while sending; not resent (at most once)'
       WHERE "event_id" = $1 AND "status" = 'sending' AND "sending_at" < now() - $2 * interval '1 millisecond'`,
      [eventId, SENDING_STALE_MS],
    );
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT "id" FROM "mail_messages" WHERE "event_id" = $1 AND "status" = 'pending' ORDER BY "created_at", "id"`,
      [eventId],
    );
    return rows.map((r) => r.id);
  }

  /** Claims a pending message for one sender (two deliveries never send the same message). */
  async claim(id: string): Promise<ClaimedMail | null> {
    const { rows } = await this.pool.query<{
      id: string;
      from_address: string;
      to_address: string;
      raw: Buffer;
      attempts: number;
      tracking_id: string | null;
    }>(
      `UPDATE "mail_messages" m SET "status" = 'sending', "sending_at" = now(), "attempts" = m."attempts" + 1, "updated_at" = now()
        WHERE m."id" = $1 AND m."status" = 'pending'
        RETURNING m."id", m."from_address", m."to_address", m."raw", m."attempts",
          (SELECT t."tracking_id" FROM "email_tracking" t WHERE t."mail_message_id" = m."id") AS "tracking_id"`,
      [id],
    );
    const r = rows[0];
    return r
      ? {
          id: r.id,
          fromAddress: r.from_address,
          toAddress: r.to_address,
          raw: r.raw,
          attempts: r.attempts,
          trackingId: r.tracking_id,
        }
      : null;
  }

  async markSent(id: string, transport: string, providerMessageId: string | null): Promise<void> {
    await this.pool.query(
      `WITH m AS (
         UPDATE "mail_messages" SET "status" = 'sent', "sent_at" = now(), "updated_at" = now(), "transport" = $2,
           "provider_message_id" = $3, "last_error" = NULL,
           "html" = CASE WHEN "kind" = ANY($4::text[]) THEN NULL ELSE "html" END,
           "text" = CASE WHEN "kind" = ANY($4::text[]) THEN $5 ELSE "text" END,
           "raw" = CASE WHEN "kind" = ANY($4::text[])
             THEN substring("raw" FROM 1 FOR position('\\x0d0a0d0a'::bytea IN "raw") + 3) || convert_to($5, 'UTF8')
             ELSE "raw" END
         WHERE "id" = $1 RETURNING "id")
       UPDATE "email_tracking" SET "sent_at" = now(), "updated_at" = now(),
         "status" = CASE WHEN "status" = 'pending' THEN 'sent' ELSE "status" END
       WHERE "mail_message_id" IN (SELECT "id" FROM m)`,
      [id, transport, providerMessageId, SECRET_KINDS, REMOVED_NOTE],
    );
  }

  /** A temporary failure: back to pending, to be retried by the next delivery. */
  async markDeferred(id: string, transport: string, error: string): Promise<void> {
    await this.pool.query(
      `UPDATE "mail_messages" SET "status" = 'pending', "transport" = $2, "last_error" = $3, "updated_at" = now() WHERE "id" = $1`,
      [id, transport, error],
    );
  }

  /** Refused for good; the tracking row says `bounced` (a permanent refusal) or `failed`. */
  async markFailed(
    id: string,
    transport: string,
    error: string,
    trackingStatus: 'bounced' | 'failed',
  ): Promise<void> {
    await this.pool.query(
      `WITH m AS (
         UPDATE "mail_messages" SET "status" = 'failed', "transport" = $2, "last_error" = $3, "updated_at" = now()
         WHERE "id" = $1 RETURNING "id")
       UPDATE "email_tracking" SET "status" = $4, "error_message" = $3, "updated_at" = now()
       WHERE "mail_message_id" IN (SELECT "id" FROM m)`,
      [id, transport, error, trackingStatus],
    );
  }

  /**
   * Deletes the messages older than `days` (the retention rule), `batch` per statement, so a
   * prune never holds many locks or a long transaction; replicas pruning at once skip each
   * other's rows. Answers how many went.
   */
  async prune(days: number, batch: number): Promise<number> {
    let total = 0;
    for (;;) {
      const { rowCount } = await this.pool.query(
        `DELETE FROM "mail_messages" WHERE "id" IN (
           SELECT "id" FROM "mail_messages" WHERE "created_at" < now() - $1 * interval '1 day'
           ORDER BY "created_at" LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [days, batch],
      );
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < batch) return total;
    }
  }

  /** The tracking row of a message SES knows by its own id (transactional or campaign mail). */
  async trackingOfProviderId(
    providerMessageId: string,
  ): Promise<{ trackingId: string; email: string } | null> {
    const { rows } = await this.pool.query<{ tracking_id: string; email: string }>(
      `SELECT t."tracking_id", t."email" FROM "mail_messages" m
         JOIN "email_tracking" t ON t."mail_message_id" = m."id"
        WHERE m."provider_message_id" = $1
       UNION ALL
       SELECT t."tracking_id", t."email" FROM "email_campaign_recipients" r
         JOIN "email_tracking" t ON t."tracking_id" = r."tracking_id"
        WHERE r."provider_message_id" = $1
       LIMIT 1`,
      [providerMessageId],
    );
    return rows[0] ? { trackingId: rows[0].tracking_id, email: rows[0].email } : null;
  }
}
