import type { Writable } from 'node:stream';
import type { DeliveryLogEntry, DeliveryLogPage, DeliveryLogQuery, DeliveryLogSend } from '@parley/contracts';
import { notFound } from '@parley/kit';
import { type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import type pg from 'pg';
import type { DB, EmailCampaignRecipient, EmailTracking } from '../../generated/kysely/database.ts';
import { copyCsv, spreadsheetSafe } from '../../shared/csv-export.ts';
import { selectMailings } from '../../shared/mailings.repository.ts';
import { db, firstRow, rows } from '../../shared/sql.ts';

/**
 * A campaign's delivery log: each recipient of one send with its outcome (queued, sent,
 * failed, unknown, bounced, complained), opens, clicks and unsubscribe, from the send's
 * recipient rows and their tracking rows (nothing is written for it). Pages are in address
 * order, keyset on the send's unique (send_id, email_key) index, so the 2,000th page costs what
 * the first does; the rare outcomes (bounced, complained, unsubscribed) are found through
 * partial indexes of the campaign's tracking rows. The CSV export streams the same rows with
 * PostgreSQL's COPY (memory stays flat at any size).
 */

/** Conditions and columns on a send's recipient row (r) and its tracking row (t). */
const rt = expressionBuilder<DB & { r: EmailCampaignRecipient; t: EmailTracking }, 'r' | 't'>();

type DeliveryStatus = DeliveryLogEntry['status'];

/** The outcome a recipient row and its tracking row make (DELIVERY_STATUSES). */
const STATUS = sql<DeliveryStatus>`CASE WHEN ${rt.ref('t.complained_at')} IS NOT NULL THEN 'complained'
  WHEN ${rt.ref('t.bounced_at')} IS NOT NULL THEN 'bounced'
  WHEN ${rt.ref('r.status')} IN ('pending', 'sending') THEN 'queued'
  ELSE ${rt.ref('r.status')}::text END`;

const NOT_BOUNCED = [rt('t.bounced_at', 'is', null), rt('t.complained_at', 'is', null)];
const STATUS_WHERE: Record<NonNullable<DeliveryLogQuery['status']>, Expression<SqlBool>> = {
  queued: rt.and([rt('r.status', 'in', ['pending', 'sending']), ...NOT_BOUNCED]),
  sent: rt.and([rt('r.status', '=', 'sent'), ...NOT_BOUNCED]),
  failed: rt.and([rt('r.status', '=', 'failed'), ...NOT_BOUNCED]),
  unknown: rt.and([rt('r.status', '=', 'unknown'), ...NOT_BOUNCED]),
  bounced: rt.and([rt('t.bounced_at', 'is not', null), rt('t.complained_at', 'is', null)]),
  complained: rt('t.complained_at', 'is not', null),
};

const cursorOf = (emailKey: string) => Buffer.from(emailKey, 'utf8').toString('base64url');
const keyOf = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');
const likePrefix = (s: string) =>
  `${s
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const filtered = (q: DeliveryLogQuery) =>
  Boolean(
    q.status ||
      q.opened !== undefined ||
      q.clicked !== undefined ||
      q.unsubscribed !== undefined ||
      q.q?.trim(),
  );

/** The conditions of a query over one send. */
function filterOf(sendId: number, campaignId: number, q: DeliveryLogQuery): Array<Expression<SqlBool>> {
  const where: Array<Expression<SqlBool>> = [rt('r.send_id', '=', sendId)];
  // Naming the campaign lets the rare outcomes come from the partial indexes of its tracking rows.
  let viaCampaign = false;
  if (q.status) {
    where.push(STATUS_WHERE[q.status]);
    viaCampaign ||= q.status === 'bounced' || q.status === 'complained';
  }
  const isNull = (yes: boolean) => (yes ? 'is not' : 'is');
  if (q.opened !== undefined) where.push(rt('t.opened_at', isNull(q.opened), null));
  if (q.clicked !== undefined) where.push(rt('t.clicked_at', isNull(q.clicked), null));
  if (q.unsubscribed !== undefined) {
    where.push(rt('t.unsubscribed_at', isNull(q.unsubscribed), null));
    viaCampaign ||= q.unsubscribed;
  }
  if (viaCampaign) where.push(rt('t.campaign_id', '=', String(campaignId)));
  if (q.q?.trim()) where.push(rt('r.email_key', 'like', likePrefix(q.q)));
  return where;
}

/** A send's recipient rows (r) with their tracking rows (t) that meet `where`. */
const recipientsWhere = (where: Array<Expression<SqlBool>>) =>
  db
    .selectFrom('email_campaign_recipients as r')
    .innerJoin('email_tracking as t', 't.tracking_id', 'r.tracking_id')
    .where(rt.and(where));

/** The CSV cell of a time (UTC, to the second). */
const csvTime = (col: Expression<Date | null>) =>
  sql<string | null>`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;
/** A text cell a spreadsheet will not run as a formula (spreadsheetSafe writes SQL text: given the column's). */
const csvSafe = (col: Expression<string | null>) =>
  sql.raw<string | null>(spreadsheetSafe(sql`${col}`.compile(db).sql));

const iso = (d: Date | null) => d?.toISOString() ?? null;

export class DeliveryLog {
  constructor(private readonly pool: pg.Pool) {}

  /** The campaign's sends, newest first; 404 when there is no such campaign. */
  private async sends(campaignId: number) {
    const [c, sends] = await Promise.all([
      firstRow(this.pool, selectMailings().select('c.current_send_id').where('c.id', '=', campaignId)),
      rows(
        this.pool,
        db
          .selectFrom('email_campaign_sends')
          .select(['id', 'kind', 'test_mode', 'status', 'started_at', 'total'])
          .where('campaign_id', '=', campaignId)
          .orderBy('id', 'desc')
          .$narrowType<{ kind: DeliveryLogSend['kind'] }>(),
      ),
    ]);
    if (!c) throw notFound('Campaign not found');
    return {
      current: c.current_send_id,
      name: c.name,
      kind: c.newsletter ? ('newsletter' as const) : ('campaign' as const),
      sends: sends.map(
        (s): DeliveryLogSend => ({
          id: s.id,
          kind: s.kind,
          testMode: s.test_mode,
          status: s.status,
          startedAt: iso(s.started_at),
          total: s.total,
        }),
      ),
    };
  }

  /** The send a query is about: the one named (it must be the campaign's), else the current one. */
  private async sendOf(campaignId: number, sendId: number | undefined) {
    const { sends, current, name, kind } = await this.sends(campaignId);
    const id = sendId ?? current ?? sends[0]?.id ?? null;
    const send = id === null ? null : (sends.find((s) => s.id === id) ?? null);
    if (sendId !== undefined && !send) throw notFound('Send not found');
    return { send, sends, name, kind };
  }

  async page(campaignId: number, q: DeliveryLogQuery): Promise<DeliveryLogPage> {
    const { send, sends, name, kind } = await this.sendOf(campaignId, q.sendId);
    const head = { campaignId, name, kind, sends };
    if (!send) return { ...head, send: null, counts: null, items: [], nextCursor: null };
    const limit = q.limit ?? 50;
    const where = filterOf(send.id, campaignId, q);
    if (q.after) where.push(rt('r.email_key', '>', keyOf(q.after)));
    const [page, counts] = await Promise.all([
      rows(
        this.pool,
        recipientsWhere(where)
          .select([
            'r.email',
            'r.email_key',
            'r.contact_id',
            STATUS.as('status'),
            'r.attempts',
            'r.last_error',
            'r.sent_at',
            't.open_count',
            't.proxy_open_count',
            't.click_count',
            't.opened_at',
            't.clicked_at',
            't.unsubscribed_at',
          ])
          .orderBy('r.email_key')
          .limit(limit + 1),
      ),
      // The send's figures once, with its unfiltered first page (the screen keeps them while filtering).
      q.after || filtered(q) ? null : this.counts(send, campaignId, sends),
    ]);
    const items = page.slice(0, limit);
    const last = items.at(-1);
    return {
      ...head,
      send,
      counts,
      items: items.map((r) => ({
        email: r.email,
        contactId: r.contact_id === null ? null : Number(r.contact_id),
        status: r.status,
        attempts: r.attempts,
        lastError: r.last_error,
        sentAt: iso(r.sent_at),
        opens: r.open_count,
        proxyOpens: r.proxy_open_count,
        clicks: r.click_count,
        openedAt: iso(r.opened_at),
        clickedAt: iso(r.clicked_at),
        unsubscribedAt: iso(r.unsubscribed_at),
      })),
      nextCursor: page.length > limit && last ? cursorOf(last.email_key) : null,
    };
  }

  /**
   * The whole send's figures without a pass over its rows: the outcomes a finished send keeps
   * (exact after late settles: docs/architecture.md, Email, Campaigns), or, while it sends, a count by
   * outcome on
   * its (send_id, status, …) index; bounced, complained and unsubscribed from the partial
   * indexes of the campaign's tracking rows that have them (rare), taken out of the outcome they
   * override; opened and clicked from the campaign's tracking rows, through the send's own
   * rows only when the campaign has another send of the same mode (a resend).
   */
  private async counts(
    send: DeliveryLogSend,
    campaignId: number,
    sends: DeliveryLogSend[],
  ): Promise<NonNullable<DeliveryLogPage['counts']>> {
    const finished = send.status === 'done' || send.status === 'cancelled';
    const shared = sends.some((s) => s.id !== send.id && s.testMode === send.testMode);
    const [outcomes, rare, engaged] = await Promise.all([
      finished ? this.keptOutcomes(send.id) : this.countedOutcomes(send.id),
      rows(
        this.pool,
        db
          .selectFrom('email_tracking as t')
          .innerJoin('email_campaign_recipients as r', 'r.tracking_id', 't.tracking_id')
          .select((eb) => [
            'r.status',
            eb
              .cast<number>(eb.fn.countAll().filterWhere('t.complained_at', 'is not', null), 'integer')
              .as('complained'),
            eb
              .cast<number>(
                eb.fn
                  .countAll()
                  .filterWhere(
                    eb.and([eb('t.complained_at', 'is', null), eb('t.bounced_at', 'is not', null)]),
                  ),
                'integer',
              )
              .as('bounced'),
            eb
              .cast<number>(eb.fn.countAll().filterWhere('t.unsubscribed_at', 'is not', null), 'integer')
              .as('unsubscribed'),
          ])
          .where('t.campaign_id', '=', String(campaignId))
          .where('r.send_id', '=', send.id)
          .where((eb) =>
            eb.or([
              eb('t.bounced_at', 'is not', null),
              eb('t.complained_at', 'is not', null),
              eb('t.unsubscribed_at', 'is not', null),
            ]),
          )
          .groupBy('r.status'),
      ),
      firstRow(
        this.pool,
        db
          .selectFrom('email_tracking as t')
          .select((eb) => [
            eb.cast<number>(eb.fn.count('t.opened_at'), 'integer').as('opened'),
            eb.cast<number>(eb.fn.count('t.clicked_at'), 'integer').as('clicked'),
          ])
          .where('t.campaign_id', '=', String(campaignId))
          .where('t.test_mode', '=', send.testMode)
          .$if(shared, (qb) =>
            qb.where(
              't.tracking_id',
              'in',
              db.selectFrom('email_campaign_recipients').select('tracking_id').where('send_id', '=', send.id),
            ),
          ),
      ),
    ]);
    const by = new Map<string, number>();
    for (const o of outcomes) {
      const key = o.status === 'pending' || o.status === 'sending' ? 'queued' : o.status;
      by.set(key, (by.get(key) ?? 0) + o.n);
    }
    let bounced = 0;
    let complained = 0;
    let unsubscribed = 0;
    for (const r of rare) {
      // A bounce or complaint overrides the row's own outcome (STATUS).
      const key = r.status === 'pending' || r.status === 'sending' ? 'queued' : r.status;
      by.set(key, (by.get(key) ?? 0) - r.bounced - r.complained);
      bounced += r.bounced;
      complained += r.complained;
      unsubscribed += r.unsubscribed;
    }
    const n = (k: string) => Math.max(0, by.get(k) ?? 0);
    return {
      total: send.total,
      queued: n('queued'),
      sent: n('sent'),
      failed: n('failed'),
      unknown: n('unknown'),
      bounced,
      complained,
      opened: engaged?.opened ?? 0,
      clicked: engaged?.clicked ?? 0,
      unsubscribed,
    };
  }

  /** A finished send's outcomes as it keeps them (none when there is no such send). */
  private async keptOutcomes(sendId: number): Promise<Array<{ status: string; n: number }>> {
    const s = await firstRow(
      this.pool,
      db
        .selectFrom('email_campaign_sends')
        .select(['sent_count', 'failed_count', 'unknown_count', 'total'])
        .where('id', '=', sendId),
    );
    if (!s) return [];
    return [
      { status: 'sent', n: s.sent_count },
      { status: 'failed', n: s.failed_count },
      { status: 'unknown', n: s.unknown_count },
      { status: 'pending', n: s.total - s.sent_count - s.failed_count - s.unknown_count },
    ];
  }

  /** A sending send's outcomes, counted on its (send_id, status, …) index. */
  private async countedOutcomes(sendId: number): Promise<Array<{ status: string; n: number }>> {
    return rows(
      this.pool,
      db
        .selectFrom('email_campaign_recipients')
        .select((eb) => ['status', eb.cast<number>(eb.fn.countAll(), 'integer').as('n')])
        .where('send_id', '=', sendId)
        .groupBy('status'),
    );
  }

  /** The send the export is of (for its file name), before the stream starts. */
  async exportTarget(campaignId: number, sendId: number | undefined) {
    const { send, name } = await this.sendOf(campaignId, sendId);
    return { send, name };
  }

  /**
   * Streams the log of one send as CSV into `out` (the page's filters, every row): a UTF-8 BOM
   * for spreadsheets, every cell quoted, and a cell a spreadsheet would run as a formula
   * (starting with = + - @ tab or CR) prefixed with an apostrophe (as the contact export).
   */
  async exportCsv(campaignId: number, sendId: number, q: DeliveryLogQuery, out: Writable): Promise<void> {
    const query = recipientsWhere(filterOf(sendId, campaignId, q))
      .select((eb) => [
        csvSafe(eb.ref('r.email')).as('Email'),
        STATUS.as('Status'),
        csvTime(eb.ref('r.sent_at')).as('Sent (UTC)'),
        'r.attempts as Attempts',
        't.open_count as Opens',
        eb.ref('t.proxy_open_count').as('Proxy opens'),
        't.click_count as Clicks',
        csvTime(eb.ref('t.opened_at')).as('First opened (UTC)'),
        csvTime(eb.ref('t.clicked_at')).as('First clicked (UTC)'),
        csvTime(eb.ref('t.unsubscribed_at')).as('Unsubscribed (UTC)'),
        csvSafe(eb.ref('r.last_error')).as('Error'),
      ])
      .orderBy('r.email_key')
      .compile();
    // COPY takes no parameters: the statement's are written in as literals (csv-export.ts).
    await copyCsv(
      this.pool,
      (client) =>
        query.sql.replace(/\$(\d+)/g, (_, n: string) =>
          client.escapeLiteral(String(query.parameters[Number(n) - 1])),
        ),
      out,
    );
  }
}

/** '<campaign name>-delivery-log-YYYY-MM-DD.csv', the name reduced to what every file system accepts. */
export function deliveryLogFileName(name: string, now: Date): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 60) || 'campaign';
  return `${base}-delivery-log-${now.toISOString().slice(0, 10)}.csv`;
}
