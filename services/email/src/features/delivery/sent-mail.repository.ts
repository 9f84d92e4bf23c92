import { SENT_MAIL_COUNT_CAP, type SentMailSummary } from '@parley/contracts';
import { type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import type pg from 'pg';
import type { EmailDb } from '../../db.ts';
import type {
  DB,
  EmailCampaign,
  EmailCampaignRecipient,
  EmailCampaignSend,
} from '../../generated/kysely/database.ts';
import { selectMailings } from '../../shared/mailings.repository.ts';
import { db, firstRow, type Row, rows } from '../../shared/sql.ts';

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
  /** The contact's attributes as the send wrote them ({{attr.key}}). */
  attributes: Readonly<Record<string, string | number | boolean>> | null;
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

/** Sent mail's columns of a stored message (transactional mail, earlier local-mailbox copies). */
function selectMessages() {
  return db
    .selectFrom('mail_messages')
    .select((eb) => [
      sql<'m' | 'r'>`'m'`.as('src'),
      sql<string>`${eb.ref('id')}::text`.as('key'),
      sql<string>`${eb.ref('id')}::text`.as('id'),
      'message_id',
      'kind',
      'from_address',
      'to_address',
      'subject',
      sql<SentMailSummary['status']>`${eb.ref('status')}::text`.as('status'),
      'transport',
      'has_calendar',
      'marketing',
      'size_bytes',
      'last_error',
      'created_at',
      'sent_at',
      'campaign_id',
      'test_mode',
      sql<number | null>`NULL::int`.as('send_id'),
      sql<string | null>`NULL::text`.as('first_name'),
      sql<string | null>`NULL::text`.as('last_name'),
      sql<string | null>`NULL::text`.as('company'),
      sql<unknown>`NULL::jsonb`.as('attributes'),
    ]);
}

type SummaryRow = Row<ReturnType<typeof selectMessages>>;

/** Conditions on mail_messages (unqualified, as the statements name its columns). */
const mm = expressionBuilder<DB, 'mail_messages'>();
/** Conditions and columns on a campaign mail's recipient row (r), its send (s) and campaign (c). */
const rsc = expressionBuilder<
  DB & { r: EmailCampaignRecipient; s: EmailCampaignSend; c: EmailCampaign },
  'r' | 's' | 'c'
>();

/**
 * Sent mail's columns of a campaign mail's recipient row (r) of its send (s, campaign c): its
 * time is when it was composed (the claim), its id the tracking id (key: the row's id, as long as any, so
 * that keys sort as text), its
 * subject as written until the route personalises it. In the order of selectMessages (a UNION ALL).
 */
const RECIPIENT_COLUMNS = [
  sql<'m' | 'r'>`'r'`.as('src'),
  sql<string>`lpad(${rsc.ref('r.id')}::text, 19, '0')`.as('key'),
  rsc.ref('r.tracking_id').as('id'),
  rsc.ref('r.tracking_id').as('message_id'),
  sql<string>`CASE WHEN ${rsc.ref('c.newsletter_id')} IS NULL THEN 'campaign' ELSE 'newsletter' END`.as(
    'kind',
  ),
  rsc.fn.coalesce('s.from_email', 'c.from_email').as('from_address'),
  rsc.ref('r.email').as('to_address'),
  rsc.fn.coalesce('s.subject', 'c.subject').as('subject'),
  sql<SentMailSummary['status']>`${rsc.ref('r.status')}::text`.as('status'),
  rsc.ref('r.transport').as('transport'),
  rsc.lit(false).as('has_calendar'),
  rsc.lit(true).as('marketing'),
  rsc.lit(0).as('size_bytes'),
  rsc.ref('r.last_error').as('last_error'),
  rsc.ref('r.sending_at').$notNull().as('created_at'),
  rsc.ref('r.sent_at').as('sent_at'),
  sql<string | null>`${rsc.ref('s.campaign_id')}::text`.as('campaign_id'),
  rsc.ref('s.test_mode').as('test_mode'),
  rsc.ref('s.id').as('send_id'),
  rsc.ref('r.first_name').as('first_name'),
  rsc.ref('r.last_name').as('last_name'),
  rsc.ref('r.company').as('company'),
  rsc.ref('r.attributes').as('attributes'),
] as const;

/** The outcomes of a campaign mail the transport had (or may have had): what Sent mail lists. */
const LISTED_STATUSES = ['sent', 'failed', 'unknown'] as const;

/** `days` before now (the retention rule). */
const daysAgo = (days: number) => sql<Date>`now() - ${days}::int * interval '1 day'`;

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
          attributes: r.attributes as CampaignMailRef['attributes'],
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
    const cursor = opts.before ? parseCursor(opts.before) : null;
    const offset = cursor ? 0 : opts.offset;
    const take = opts.limit + 1 + offset;

    // Stored messages.
    const m: Array<Expression<SqlBool>> = [];
    if (opts.to) m.push(mm(mm.fn<string>('lower', ['to_address']), 'like', likePrefix(opts.to)));
    if (opts.campaignId !== undefined) m.push(mm('campaign_id', '=', String(opts.campaignId)));
    if (opts.kind) m.push(mm('kind', '=', opts.kind));
    if (opts.q) {
      const q = likeAnywhere(opts.q);
      m.push(mm.or([mm('to_address', 'ilike', q), mm('subject', 'ilike', q)]));
    }
    // Campaign mail, from the recipient rows of the sends that composed any within the retention.
    const withCampaigns = !opts.kind || opts.kind === 'campaign' || opts.kind === 'newsletter';
    const sends: Array<Expression<SqlBool>> = [];
    const r: Array<Expression<SqlBool>> = [];
    if (withCampaigns) {
      const since = daysAgo(opts.retentionDays);
      sends.push(rsc(rsc.fn.coalesce('s.finished_at', sql<Date>`now()`), '>=', since));
      if (opts.campaignId !== undefined) sends.push(rsc('s.campaign_id', '=', opts.campaignId));
      if (opts.kind === 'campaign') sends.push(rsc('c.newsletter_id', 'is', null));
      if (opts.kind === 'newsletter') sends.push(rsc('c.newsletter_id', 'is not', null));
      r.push(rsc('r.send_id', '=', rsc.ref('s.id')), rsc('r.sending_at', '>=', since));
      // An address's beginning: found on the send's (send_id, email_key) index ("C" collation).
      if (opts.to) r.push(rsc('r.email_key', 'like', likePrefix(opts.to)));
      if (opts.q) {
        const q = likeAnywhere(opts.q);
        r.push(
          rsc.or([rsc('r.email', 'ilike', q), rsc(rsc.fn.coalesce('s.subject', 'c.subject'), 'ilike', q)]),
        );
      }
    }
    // The count reads the filters only; the page's position comes after them.
    const mCount = [...m];
    const rCount = [...r];
    if (cursor) {
      // The first condition is what an index on the time can seek to; the second breaks ties.
      const at = sql<Date>`${cursor.at}::timestamptz`;
      if (cursor.src === 'm') {
        const id = sql<string>`${cursor.id}::uuid`;
        m.push(
          mm('created_at', '<=', at),
          sql<SqlBool>`(${mm.ref('created_at')}, ${mm.ref('id')}) < (${at}, ${id})`,
        );
      } else m.push(mm('created_at', '<=', at));
      if (withCampaigns && cursor.src === 'r') {
        const id = sql<string>`${cursor.id}::bigint`;
        r.push(
          rsc('r.sending_at', '<=', at),
          sql<SqlBool>`(${rsc.ref('r.sending_at')}, ${rsc.ref('r.id')}) < (${at}, ${id})`,
        );
      } else if (withCampaigns) r.push(rsc('r.sending_at', '<', at));
    }

    // Each operand of the UNIONs below has its own ORDER BY and LIMIT: Kysely does not
    // parenthesise a set operand, so each is read as a derived table.
    const messages = db
      .selectFrom(
        selectMessages()
          .$if(m.length > 0, (qb) => qb.where(mm.and(m)))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(take)
          .as('m'),
      )
      .selectAll();
    const messagesCount = db
      .selectFrom('mail_messages')
      .select((eb) => eb.lit(1).as('one'))
      .$if(mCount.length > 0, (qb) => qb.where(mm.and(mCount)))
      .limit(SENT_MAIL_COUNT_CAP + 1);

    /** A send's listed rows of `status`, newest first (its (send_id, status, sending_at, id) index). */
    const newestFirst = (status: Expression<SqlBool>) =>
      db
        .selectFrom(
          db
            .selectFrom('email_campaign_recipients as r')
            .selectAll('r')
            .where(rsc.and([...r, status]))
            .orderBy('r.sending_at', 'desc')
            .orderBy('r.id', 'desc')
            .limit(take)
            .as('o'),
        )
        .selectAll();
    // With an address, its few rows come from the address index; else each outcome in time order.
    const recipientRows = opts.to
      ? newestFirst(rsc('r.status', 'in', LISTED_STATUSES))
      : newestFirst(rsc('r.status', '=', 'sent')).unionAll([
          newestFirst(rsc('r.status', '=', 'failed')),
          newestFirst(rsc('r.status', '=', 'unknown')),
        ]);
    const fromSends = () =>
      db.selectFrom('email_campaign_sends as s').innerJoin('email_campaigns as c', 'c.id', 's.campaign_id');
    const campaign = fromSends()
      .crossJoinLateral(recipientRows.as('r'))
      .select(RECIPIENT_COLUMNS)
      .where(rsc.and(sends))
      .orderBy('created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(take);
    const campaignCount = fromSends()
      .innerJoin('email_campaign_recipients as r', (join) =>
        join.on(rsc.and([...rCount, rsc('r.status', 'in', LISTED_STATUSES)])),
      )
      .select((eb) => eb.lit(1).as('one'))
      .where(rsc.and(sends))
      .limit(SENT_MAIL_COUNT_CAP + 1);

    const listed = withCampaigns ? messages.unionAll(db.selectFrom(campaign.as('c')).selectAll()) : messages;
    const counted = db.selectFrom(messagesCount.as('m')).selectAll();
    const [page, count] = await Promise.all([
      rows(
        this.pool,
        db
          .selectFrom(listed.as('u'))
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('src', 'desc')
          .orderBy((eb) => sql`${eb.ref('key')}::text COLLATE "C"`, 'desc')
          .limit(opts.limit + 1)
          .offset(offset),
      ),
      firstRow(
        this.pool,
        db
          .selectFrom(
            (withCampaigns ? counted.unionAll(db.selectFrom(campaignCount.as('c')).selectAll()) : counted).as(
              'x',
            ),
          )
          .select(sql<number>`least(count(*), ${SENT_MAIL_COUNT_CAP + 1})::int`.as('n')),
      ),
    ]);
    const n = count?.n ?? 0;
    const items = page.slice(0, opts.limit);
    const last = items.at(-1);
    return {
      items: items.map(toSummary),
      total: Math.min(n, SENT_MAIL_COUNT_CAP),
      totalExact: n <= SENT_MAIL_COUNT_CAP,
      nextCursor:
        page.length > opts.limit && last
          ? cursorOf({ at: last.created_at.toISOString(), src: last.src, id: last.key })
          : null,
    };
  }

  /** The campaigns and newsletters that sent mail, newest first (Sent mail's campaign filter). */
  async campaignsWithMail(): Promise<Array<{ id: number; name: string; kind: 'campaign' | 'newsletter' }>> {
    const found = await rows(
      this.pool,
      selectMailings()
        .select('c.id')
        .where('c.current_send_id', 'is not', null)
        .orderBy('c.id', 'desc')
        .limit(200),
    );
    return found.map((r) => ({ id: r.id, name: r.name, kind: r.newsletter ? 'newsletter' : 'campaign' }));
  }

  async get(id: string) {
    return this.db.mailMessage.findUnique({ where: { id }, include: { tracking: true } });
  }

  /** A campaign mail by its tracking id, as Sent mail shows it (null: no such mail listed). */
  async campaignMail(trackingId: string, retentionDays: number) {
    const row = await firstRow(
      this.pool,
      db
        .selectFrom('email_campaign_recipients as r')
        .innerJoin('email_campaign_sends as s', 's.id', 'r.send_id')
        .innerJoin('email_campaigns as c', 'c.id', 's.campaign_id')
        .select([...RECIPIENT_COLUMNS, 'r.sending_at'])
        .where('r.tracking_id', '=', trackingId)
        .where('r.status', 'in', LISTED_STATUSES)
        .where('r.sending_at', '>=', daysAgo(retentionDays)),
    );
    if (!row) return null;
    const tracking = await this.db.emailTracking.findUnique({ where: { trackingId } });
    return { summary: toSummary(row), tracking };
  }
}
