import { sql } from 'kysely';
import type pg from 'pg';
import type { EmailDb } from '../../db.ts';
import { db, execute, firstRow, rows } from '../../shared/sql.ts';

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
    const found = await execute(
      this.pool,
      db
        .selectFrom('inbox_events')
        .select((eb) => eb.lit(1).as('one'))
        .where('consumer', '=', durable)
        .where('event_id', '=', eventId),
    );
    return found > 0;
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
    await execute(
      this.pool,
      db
        .updateTable('mail_messages')
        .set({
          status: 'unknown',
          updated_at: sql`now()`,
          last_error: 'the service stopped while sending; not resent (at most once)',
        })
        .where('event_id', '=', eventId)
        .where('status', '=', 'sending')
        .where('sending_at', '<', sql<Date>`now() - ${SENDING_STALE_MS} * interval '1 millisecond'`),
    );
    const pending = await rows(
      this.pool,
      db
        .selectFrom('mail_messages')
        .select('id')
        .where('event_id', '=', eventId)
        .where('status', '=', 'pending')
        .orderBy('created_at')
        .orderBy('id'),
    );
    return pending.map((r) => r.id);
  }

  /** Claims a pending message for one sender (two deliveries never send the same message). */
  async claim(id: string): Promise<ClaimedMail | null> {
    const r = await firstRow(
      this.pool,
      db
        .updateTable('mail_messages as m')
        .set((eb) => ({
          status: 'sending',
          sending_at: sql`now()`,
          attempts: eb('m.attempts', '+', 1),
          updated_at: sql`now()`,
        }))
        .where('m.id', '=', id)
        .where('m.status', '=', 'pending')
        .returning((eb) => [
          'm.id',
          'm.from_address',
          'm.to_address',
          'm.raw',
          'm.attempts',
          eb
            .selectFrom('email_tracking as t')
            .select('t.tracking_id')
            .whereRef('t.mail_message_id', '=', 'm.id')
            .as('tracking_id'),
        ]),
    );
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
    await execute(
      this.pool,
      db
        .with('m', (qb) =>
          qb
            .updateTable('mail_messages')
            .set((eb) => {
              // A kind with a one-time secret keeps its headers only (SECRET_KINDS).
              const secret = eb('kind', '=', eb.fn.any(eb.val(SECRET_KINDS)));
              return {
                status: 'sent',
                sent_at: sql`now()`,
                updated_at: sql`now()`,
                transport,
                provider_message_id: providerMessageId,
                last_error: null,
                html: eb.case().when(secret).then(null).else(eb.ref('html')).end(),
                text: eb.case().when(secret).then(REMOVED_NOTE).else(eb.ref('text')).end(),
                raw: eb
                  .case()
                  .when(secret)
                  .then(
                    sql<Buffer>`substring(${eb.ref('raw')} FROM 1 FOR position('\\x0d0a0d0a'::bytea IN ${eb.ref('raw')}) + 3) || convert_to(${REMOVED_NOTE}, 'UTF8')`,
                  )
                  .else(eb.ref('raw'))
                  .end(),
              };
            })
            .where('id', '=', id)
            .returning('id'),
        )
        .updateTable('email_tracking')
        .set((eb) => ({
          sent_at: sql`now()`,
          updated_at: sql`now()`,
          status: eb.case().when('status', '=', 'pending').then('sent').else(eb.ref('status')).end(),
        }))
        .where('mail_message_id', 'in', (eb) => eb.selectFrom('m').select('m.id')),
    );
  }

  /** A temporary failure: back to pending, to be retried by the next delivery. */
  async markDeferred(id: string, transport: string, error: string): Promise<void> {
    await execute(
      this.pool,
      db
        .updateTable('mail_messages')
        .set({ status: 'pending', transport, last_error: error, updated_at: sql`now()` })
        .where('id', '=', id),
    );
  }

  /** Refused for good; the tracking row says `bounced` (a permanent refusal) or `failed`. */
  async markFailed(
    id: string,
    transport: string,
    error: string,
    trackingStatus: 'bounced' | 'failed',
  ): Promise<void> {
    await execute(
      this.pool,
      db
        .with('m', (qb) =>
          qb
            .updateTable('mail_messages')
            .set({ status: 'failed', transport, last_error: error, updated_at: sql`now()` })
            .where('id', '=', id)
            .returning('id'),
        )
        .updateTable('email_tracking')
        .set({ status: trackingStatus, error_message: error, updated_at: sql`now()` })
        .where('mail_message_id', 'in', (eb) => eb.selectFrom('m').select('m.id')),
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
      const deleted = await execute(
        this.pool,
        db
          .deleteFrom('mail_messages')
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('mail_messages')
              .select('id')
              .where('created_at', '<', sql<Date>`now() - ${days} * interval '1 day'`)
              .orderBy('created_at')
              .limit(batch)
              .forUpdate()
              .skipLocked(),
          ),
      );
      total += deleted;
      if (deleted < batch) return total;
    }
  }

  /** The tracking row of a message SES knows by its own id (transactional or campaign mail). */
  async trackingOfProviderId(
    providerMessageId: string,
  ): Promise<{ trackingId: string; email: string } | null> {
    const r = await firstRow(
      this.pool,
      db
        .selectFrom('mail_messages as m')
        .innerJoin('email_tracking as t', 't.mail_message_id', 'm.id')
        .select(['t.tracking_id', 't.email'])
        .where('m.provider_message_id', '=', providerMessageId)
        .unionAll(
          db
            .selectFrom('email_campaign_recipients as r')
            .innerJoin('email_tracking as t', 't.tracking_id', 'r.tracking_id')
            .select(['t.tracking_id', 't.email'])
            .where('r.provider_message_id', '=', providerMessageId),
        )
        .limit(1),
    );
    return r ? { trackingId: r.tracking_id, email: r.email } : null;
  }
}
