import { SENT_MAIL_COUNT_CAP, type SentMailSummary } from '@parley/contracts';
import type pg from 'pg';
import type { EmailDb } from '../../db.ts';

/**
 * Sent mail's reads: the page of every message sent (the stored messages of mail_messages and,
 * from their recipient rows, the campaign mails), the campaigns with mail, one message and one
 * campaign mail; and the ids a campaign mail goes by in Sent mail. The messages' writes are in
 * mail.repository.ts.
 */

export interface MailListQuery {
  limit: number;
  offset: number;
  /** The previous page's nextCursor. */
  before?: string;
  /** An address or its beginning, any case. */
  to?: string;
  campaignId?: number;
  kind?: string;
  /** Recipient or subject, anywhere in them (a campaign mail's subject as written). */
  q?: string;
  /** Campaign mail composed longer ago than this many days is not listed (the retention rule). */
  retentionDays: number;
}

/**
 * A campaign mail as its recipient row lists it: the route fills in what composing it again
 * gives (the personalised subject, the size, the Message-ID).
 */
export interface CampaignMailRef {
  sendId: number;
  trackingId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  sendingAt: Date;
}

/** A campaign mail's id in Sent mail: its tracking id's 16 bytes written as a uuid. */
export const campaignMailId = (trackingId: string) => {
  const h = Buffer.from(trackingId, 'base64url').toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};
/** The tracking id a Sent mail id names, if it is a campaign mail's. */
export const trackingIdOfMailId = (id: string) =>
  Buffer.from(id.replace(/-/g, ''), 'hex').toString('base64url');

/**
 * A page position: the last row's time, its source (m: mail_messages, r: a campaign recipient
 * row) and its id there. The pages are ordered by time, source, id, newest first.
 */
interface Cursor {
  at: string;
  src: 'm' | 'r';
  id: string;
}
const cursorOf = (c: Cursor) => Buffer.from(`${c.at}|${c.src}|${c.id}`).toString('base64url');
function parseCursor(cursor: string): Cursor | null {
  const [at, src, id, more] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (more !== undefined || !at || !id || Number.isNaN(Date.parse(at))) return null;
  if (src === 'm') return /^[0-9a-f-]{36}$/i.test(id) ? { at, src, id } : null;
  if (src === 'r') return /^\d{1,19}$/.test(id) ? { at, src, id } : null;
  return null;
}
const likePrefix = (s: string) => `${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const likeAnywhere = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface SummaryRow {
  src: 'm' | 'r';
  key: string;
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
  send_id: number | null;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
}

/** Sent mail's columns of a stored message (transactional mail, earlier local-mailbox copies). */
const MESSAGE_COLUMNS = `'m' AS src, "id"::text AS key, "id"::text AS id, "message_id", "kind", "from_address",
  "to_address", "subject", "status"::text AS status, "transport", "has_calendar", "marketing", "size_bytes",
  "last_error", "created_at", "sent_at", "campaign_id", "test_mode", NULL::int AS send_id, NULL::text AS first_name,
  NULL::text AS last_name, NULL::text AS company`;

/**
 * Sent mail's columns of a campaign mail's recipient row (r) of its send (s, campaign c): its
 * time is when it was composed (the claim), its id the tracking id (key: the row's id, as long as any, so
 * that keys sort as text), its
 * subject as written until the route personalises it.
 */
const RECIPIENT_COLUMNS = `'r' AS src, lpad(r."id"::text, 19, '0') AS key, r."tracking_id" AS id, r."tracking_id" AS message_id,
  CASE WHEN c."newsletter_id" IS NULL THEN 'campaign' ELSE 'newsletter' END AS kind,
  coalesce(s."from_email", c."from_email") AS from_address, r."email" AS to_address,
  coalesce(s."subject", c."subject") AS subject, r."status"::text AS status, r."transport", false AS has_calendar,
  true AS marketing, 0 AS size_bytes, r."last_error", r."sending_at" AS created_at, r."sent_at",
  s."campaign_id"::text AS campaign_id, s."test_mode", s."id" AS send_id, r."first_name", r."last_name", r."company"`;

/** The outcomes of a campaign mail the transport had (or may have had): what Sent mail lists. */
const LISTED_STATUSES = ['sent', 'failed', 'unknown'] as const;

export interface MailSummary extends SentMailSummary {
  /** A campaign mail: what the route composes it again from. */
  campaignMail: CampaignMailRef | null;
}

function toSummary(r: SummaryRow): MailSummary {
  const campaignId = r.campaign_id !== null && /^\d{1,9}$/.test(r.campaign_id) ? Number(r.campaign_id) : null;
  const campaignMail =
    r.src === 'r' && r.send_id !== null
      ? {
          sendId: r.send_id,
          trackingId: r.id,
          email: r.to_address,
          firstName: r.first_name,
          lastName: r.last_name,
          company: r.company,
          sendingAt: r.created_at,
        }
      : null;
  return {
    id: campaignMail ? campaignMailId(r.id) : r.id,
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
    rendered: campaignMail !== null,
    campaignMail,
  };
}

/** Sent mail: the pages and the single messages it shows. */
export class SentMailRepository {
  constructor(
    private readonly db: EmailDb,
    private readonly pool: pg.Pool,
  ) {}

  /**
   * A page of Sent mail, newest first (keyset: `before`; `offset` still works for small
   * offsets): the stored messages and, from their recipient rows, the campaign mails composed
   * within the retention rule (a send writes no row more for Sent mail). Each source is read in
   * its indexes' order (mail_messages: the migration sent_mail_every_message's; a send's
   * recipients: (send_id, status, sending_at, id), outcome by outcome) and the two merged. The
   * count stops at SENT_MAIL_COUNT_CAP.
   */
  async list(opts: MailListQuery): Promise<{
    items: MailSummary[];
    total: number;
    totalExact: boolean;
    nextCursor: string | null;
  }> {
    const values: unknown[] = [];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    const cursor = opts.before ? parseCursor(opts.before) : null;
    const offset = cursor ? 0 : opts.offset;
    const take = opts.limit + 1 + offset;

    // Stored messages.
    const m: string[] = [];
    if (opts.to) m.push(`lower("to_address") LIKE ${param(likePrefix(opts.to))}`);
    if (opts.campaignId !== undefined) m.push(`"campaign_id" = ${param(String(opts.campaignId))}`);
    if (opts.kind) m.push(`"kind" = ${param(opts.kind)}`);
    if (opts.q) {
      const q = param(likeAnywhere(opts.q));
      m.push(`("to_address" ILIKE ${q} OR "subject" ILIKE ${q})`);
    }
    // Campaign mail, from the recipient rows of the sends that composed any within the retention.
    const withCampaigns = !opts.kind || opts.kind === 'campaign' || opts.kind === 'newsletter';
    const sends: string[] = [];
    const r: string[] = [];
    if (withCampaigns) {
      const since = `now() - ${param(opts.retentionDays)}::int * interval '1 day'`;
      sends.push(`coalesce(s."finished_at", now()) >= ${since}`);
      if (opts.campaignId !== undefined) sends.push(`s."campaign_id" = ${param(opts.campaignId)}::int`);
      if (opts.kind === 'campaign') sends.push(`c."newsletter_id" IS NULL`);
      if (opts.kind === 'newsletter') sends.push(`c."newsletter_id" IS NOT NULL`);
      r.push(`r."send_id" = s."id"`, `r."sending_at" >= ${since}`);
      // An address's beginning: found on the send's (send_id, email_key) index ("C" collation).
      if (opts.to) r.push(`r."email_key" LIKE ${param(likePrefix(opts.to))}`);
      if (opts.q) {
        const q = param(likeAnywhere(opts.q));
        r.push(`(r."email" ILIKE ${q} OR coalesce(s."subject", c."subject") ILIKE ${q})`);
      }
    }
    // The count reads the filters' parameters only; the page's position comes after them.
    const filters = values.length;
    const mCount = [...m];
    const rCount = [...r];
    if (cursor) {
      // The first condition is what an index on the time can seek to; the second breaks ties.
      const at = `${param(cursor.at)}::timestamptz`;
      // Typed where it is used (an unused parameter would have no type).
      const id = cursor.src === 'm' || withCampaigns ? param(cursor.id) : '';
      m.push(
        cursor.src === 'm'
          ? `"created_at" <= ${at} AND ("created_at", "id") < (${at}, ${id}::uuid)`
          : `"created_at" <= ${at}`,
      );
      if (withCampaigns)
        r.push(
          cursor.src === 'r'
            ? `r."sending_at" <= ${at} AND (r."sending_at", r."id") < (${at}, ${id}::bigint)`
            : `r."sending_at" < ${at}`,
        );
    }
    const where = (w: string[]) => (w.length ? `WHERE ${w.join(' AND ')}` : '');
    const messages = `(SELECT ${MESSAGE_COLUMNS} FROM "mail_messages" ${where(m)}
      ORDER BY "created_at" DESC, "id" DESC LIMIT ${take})`;
    const messagesCount = `(SELECT 1 FROM "mail_messages" ${where(mCount)} LIMIT ${SENT_MAIL_COUNT_CAP + 1})`;

    const outcome = (status: string) =>
      `(SELECT r.* FROM "email_campaign_recipients" r WHERE ${[...r, `r."status" = '${status}'`].join(' AND ')}
        ORDER BY r."sending_at" DESC, r."id" DESC LIMIT ${take})`;
    // With an address, its few rows come from the address index; else each outcome in time order.
    const rows = opts.to
      ? `(SELECT r.* FROM "email_campaign_recipients" r
          WHERE ${[...r, `r."status" IN ('sent', 'failed', 'unknown')`].join(' AND ')}
          ORDER BY r."sending_at" DESC, r."id" DESC LIMIT ${take})`
      : LISTED_STATUSES.map(outcome).join(' UNION ALL ');
    const fromSends = `FROM "email_campaign_sends" s JOIN "email_campaigns" c ON c."id" = s."campaign_id"`;
    const campaign = `(SELECT ${RECIPIENT_COLUMNS} ${fromSends} CROSS JOIN LATERAL (${rows}) r
      WHERE ${sends.join(' AND ')} ORDER BY created_at DESC, r."id" DESC LIMIT ${take})`;
    const campaignCount = `(SELECT 1 ${fromSends} JOIN "email_campaign_recipients" r ON ${rCount.join(' AND ')}
      AND r."status" IN ('sent', 'failed', 'unknown') WHERE ${sends.join(' AND ')} LIMIT ${SENT_MAIL_COUNT_CAP + 1})`;

    const [page, counted] = await Promise.all([
      this.pool.query<SummaryRow>(
        `SELECT * FROM (${withCampaigns ? `${messages} UNION ALL ${campaign}` : messages}) u
         ORDER BY created_at DESC, src DESC, key::text COLLATE "C" DESC LIMIT ${opts.limit + 1} OFFSET ${offset}`,
        values,
      ),
      this.pool.query<{ n: number }>(
        `SELECT least(count(*), ${SENT_MAIL_COUNT_CAP + 1})::int AS n FROM (${
          withCampaigns ? `${messagesCount} UNION ALL ${campaignCount}` : messagesCount
        }) x`,
        values.slice(0, filters),
      ),
    ]);
    const n = counted.rows[0]?.n ?? 0;
    const items = page.rows.slice(0, opts.limit);
    const last = items.at(-1);
    return {
      items: items.map(toSummary),
      total: Math.min(n, SENT_MAIL_COUNT_CAP),
      totalExact: n <= SENT_MAIL_COUNT_CAP,
      nextCursor:
        page.rows.length > opts.limit && last
          ? cursorOf({ at: last.created_at.toISOString(), src: last.src, id: last.key })
          : null,
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

  async get(id: string) {
    return this.db.mailMessage.findUnique({ where: { id }, include: { tracking: true } });
  }

  /** A campaign mail by its tracking id, as Sent mail shows it (null: no such mail listed). */
  async campaignMail(trackingId: string, retentionDays: number) {
    const { rows } = await this.pool.query<SummaryRow & { sending_at: Date }>(
      `SELECT ${RECIPIENT_COLUMNS}, r."sending_at"
       FROM "email_campaign_recipients" r JOIN "email_campaign_sends" s ON s."id" = r."send_id"
         JOIN "email_campaigns" c ON c."id" = s."campaign_id"
       WHERE r."tracking_id" = $1 AND r."status" IN ('sent', 'failed', 'unknown')
         AND r."sending_at" >= now() - $2::int * interval '1 day'`,
      [trackingId, retentionDays],
    );
    const row = rows[0];
    if (!row) return null;
    const tracking = await this.db.emailTracking.findUnique({ where: { trackingId } });
    return { summary: toSummary(row), tracking };
  }
}
