import { SENT_MAIL_COUNT_CAP, type SentMailSummary } from '@parley/contracts';
import type pg from 'pg';
import type { EmailDb } from '../db.ts';

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

export type MailSummary = SentMailSummary;

export interface MailListQuery {
  limit: number;
  offset: number;
  /** The previous page's nextCursor. */
  before?: string;
  /** An address or its beginning, any case. */
  to?: string;
  campaignId?: number;
  kind?: string;
  /** Recipient or subject, anywhere in them. */
  q?: string;
}

/** A page position: the last row's creation time and id. */
const cursorOf = (createdAt: Date, id: string) =>
  Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');
function parseCursor(cursor: string): { at: string; id: string } | null {
  const [at, id, more] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (more !== undefined || !at || !id || Number.isNaN(Date.parse(at))) return null;
  return /^[0-9a-f-]{36}$/i.test(id) ? { at, id } : null;
}
const likePrefix = (s: string) => `${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const likeAnywhere = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface SummaryRow {
  id: string;
  message_id: string;
  kind: string;
  from_address: string;
  to_address: string;
  subject: string;
  status: SentMailSummary['status'];
  transport: string | null;
  has_calendar: boolean;
  marketing: boolean;
  size_bytes: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  campaign_id: string | null;
  test_mode: boolean;
  rendered: boolean;
}

const SUMMARY_COLUMNS = `"id", "message_id", "kind", "from_address", "to_address", "subject", "status", "transport",
  "has_calendar", "marketing", "size_bytes", "last_error", "created_at", "sent_at", "campaign_id", "test_mode",
  ("raw" IS NULL) AS rendered`;

function toSummary(r: SummaryRow): SentMailSummary {
  const campaignId = r.campaign_id !== null && /^\d{1,9}$/.test(r.campaign_id) ? Number(r.campaign_id) : null;
  return {
    id: r.id,
    messageId: r.message_id,
    kind: r.kind,
    from: r.from_address,
    to: r.to_address,
    subject: r.subject,
    status: r.status,
    transport: r.transport,
    hasCalendar: r.has_calendar,
    marketing: r.marketing,
    sizeBytes: r.size_bytes,
    lastError: r.last_error,
    createdAt: r.created_at.toISOString(),
    sentAt: r.sent_at?.toISOString() ?? null,
    campaignId,
    testMode: r.test_mode,
    rendered: r.rendered,
  };
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
  constructor(
    private readonly db: EmailDb,
    private readonly pool: pg.Pool,
  ) {}

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
   * A page of Sent mail, newest first (keyset: `before`; `offset` still works for small
   * offsets). The filters use the indexes of the migration sent_mail_every_message; the count
   * stops at SENT_MAIL_COUNT_CAP.
   */
  async list(opts: MailListQuery): Promise<{
    items: MailSummary[];
    total: number;
    totalExact: boolean;
    nextCursor: string | null;
  }> {
    const where: string[] = [];
    const values: unknown[] = [];
    const add = (sql: (p: string) => string, value: unknown) => {
      values.push(value);
      where.push(sql(`$${values.length}`));
    };
    if (opts.to) add((p) => `lower("to_address") LIKE ${p}`, likePrefix(opts.to));
    if (opts.campaignId !== undefined) add((p) => `"campaign_id" = ${p}`, String(opts.campaignId));
    if (opts.kind) add((p) => `"kind" = ${p}`, opts.kind);
    if (opts.q) add((p) => `("to_address" ILIKE ${p} OR "subject" ILIKE ${p})`, likeAnywhere(opts.q));
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const count = this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM "mail_messages" ${filter} LIMIT ${SENT_MAIL_COUNT_CAP + 1}) x`,
      [...values],
    );
    const cursor = opts.before ? parseCursor(opts.before) : null;
    if (cursor) {
      values.push(cursor.at, cursor.id);
      // The first condition is what an index on the creation time can seek to; the second breaks ties.
      const at = `$${values.length - 1}::timestamptz`;
      where.push(`"created_at" <= ${at} AND ("created_at", "id") < (${at}, $${values.length}::uuid)`);
    }
    const page = this.pool.query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM "mail_messages" ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY "created_at" DESC, "id" DESC LIMIT ${opts.limit + 1} OFFSET ${cursor ? 0 : opts.offset}`,
      values,
    );
    const [{ rows }, counted] = await Promise.all([page, count]);
    const n = counted.rows[0]?.n ?? 0;
    const items = rows.slice(0, opts.limit);
    const last = items.at(-1);
    return {
      items: items.map(toSummary),
      total: Math.min(n, SENT_MAIL_COUNT_CAP),
      totalExact: n <= SENT_MAIL_COUNT_CAP,
      nextCursor: rows.length > opts.limit && last ? cursorOf(last.created_at, last.id) : null,
    };
  }

  /** The campaigns and newsletters that sent mail, newest first (Sent mail's campaign filter). */
  async campaignsWithMail(): Promise<Array<{ id: number; name: string; kind: 'campaign' | 'newsletter' }>> {
    const { rows } = await this.pool.query<{ id: number; name: string; newsletter: boolean }>(
      `SELECT c."id", coalesce(n."name", c."name") AS name, c."newsletter_id" IS NOT NULL AS newsletter
       FROM "email_campaigns" c LEFT JOIN "newsletters" n ON n."id" = c."newsletter_id"
       WHERE c."current_send_id" IS NOT NULL ORDER BY c."id" DESC LIMIT 200`,
    );
    return rows.map((r) => ({ id: r.id, name: r.name, kind: r.newsletter ? 'newsletter' : 'campaign' }));
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

  async get(id: string) {
    const row = await this.db.mailMessage.findUnique({ where: { id }, include: { tracking: true } });
    // Campaign mail names its tracking row (tracking_id) instead of being linked from it.
    if (row && !row.tracking && row.trackingId)
      return {
        ...row,
        tracking: await this.db.emailTracking.findUnique({ where: { trackingId: row.trackingId } }),
      };
    return row;
  }

  /** The tracking row of a message SES knows by its own id. */
  async trackingOfProviderId(
    providerMessageId: string,
  ): Promise<{ trackingId: string; email: string } | null> {
    const { rows } = await this.pool.query<{ tracking_id: string; email: string }>(
      `SELECT t."tracking_id", t."email" FROM "mail_messages" m
         JOIN "email_tracking" t ON t."mail_message_id" = m."id" OR t."tracking_id" = m."tracking_id"
        WHERE m."provider_message_id" = $1 LIMIT 1`,
      [providerMessageId],
    );
    return rows[0] ? { trackingId: rows[0].tracking_id, email: rows[0].email } : null;
  }
}
