import type { Writable } from 'node:stream';
import type { DeliveryLogEntry, DeliveryLogPage, DeliveryLogQuery, DeliveryLogSend } from '@parley/contracts';
import { notFound } from '@parley/kit';
import type pg from 'pg';
import { copyCsv, spreadsheetSafe } from '../../shared/csv-export.ts';

/**
 * A campaign's delivery log: each recipient of one send with its outcome (queued, sent,
 * failed, unknown, bounced, complained), opens, clicks and unsubscribe, from the send's
 * recipient rows and their tracking rows (nothing is written for it). Pages are in address
 * order, keyset on the send's unique (send_id, email_key) index, so the 2,000th page costs what
 * the first does; the rare outcomes (bounced, complained, unsubscribed) are found through
 * partial indexes of the campaign's tracking rows. The CSV export streams the same rows with
 * PostgreSQL's COPY (memory stays flat at any size).
 */

/** The outcome a recipient row and its tracking row make (DELIVERY_STATUSES). */
const STATUS_SQL = `CASE WHEN t."complained_at" IS NOT NULL THEN 'complained'
  WHEN t."bounced_at" IS NOT NULL THEN 'bounced'
  WHEN r."status" IN ('pending', 'sending') THEN 'queued'
  ELSE r."status"::text END`;

const NOT_BOUNCED = `t."bounced_at" IS NULL AND t."complained_at" IS NULL`;
const STATUS_WHERE: Record<NonNullable<DeliveryLogQuery['status']>, string> = {
  queued: `r."status" IN ('pending', 'sending') AND ${NOT_BOUNCED}`,
  sent: `r."status" = 'sent' AND ${NOT_BOUNCED}`,
  failed: `r."status" = 'failed' AND ${NOT_BOUNCED}`,
  unknown: `r."status" = 'unknown' AND ${NOT_BOUNCED}`,
  bounced: `t."bounced_at" IS NOT NULL AND t."complained_at" IS NULL`,
  complained: `t."complained_at" IS NOT NULL`,
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

interface Filter {
  sql: string;
  values: unknown[];
}

/** The WHERE of a query over one send (`$1` is the send). */
function filterOf(sendId: number, campaignId: number, q: DeliveryLogQuery): Filter {
  const values: unknown[] = [sendId];
  const where = [`r."send_id" = $1`];
  // Naming the campaign lets the rare outcomes come from the partial indexes of its tracking rows.
  let viaCampaign = false;
  if (q.status) {
    where.push(STATUS_WHERE[q.status]);
    viaCampaign ||= q.status === 'bounced' || q.status === 'complained';
  }
  if (q.opened !== undefined) where.push(`t."opened_at" IS ${q.opened ? 'NOT ' : ''}NULL`);
  if (q.clicked !== undefined) where.push(`t."clicked_at" IS ${q.clicked ? 'NOT ' : ''}NULL`);
  if (q.unsubscribed !== undefined) {
    where.push(`t."unsubscribed_at" IS ${q.unsubscribed ? 'NOT ' : ''}NULL`);
    viaCampaign ||= q.unsubscribed;
  }
  if (viaCampaign) {
    values.push(String(campaignId));
    where.push(`t."campaign_id" = $${values.length}`);
  }
  if (q.q?.trim()) {
    values.push(likePrefix(q.q));
    where.push(`r."email_key" LIKE $${values.length}`);
  }
  return { sql: where.join(' AND '), values };
}

interface Row {
  email: string;
  email_key: string;
  contact_id: string | null;
  status: DeliveryLogEntry['status'];
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
  open_count: number;
  proxy_open_count: number;
  click_count: number;
  opened_at: Date | null;
  clicked_at: Date | null;
  unsubscribed_at: Date | null;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export class DeliveryLog {
  constructor(private readonly pool: pg.Pool) {}

  /** The campaign's sends, newest first; 404 when there is no such campaign. */
  private async sends(campaignId: number) {
    const [campaign, sends] = await Promise.all([
      this.pool.query<{ current_send_id: number | null; name: string; newsletter: boolean }>(
        `SELECT c."current_send_id", coalesce(n."name", c."name") AS name, c."newsletter_id" IS NOT NULL AS newsletter
         FROM "email_campaigns" c LEFT JOIN "newsletters" n ON n."id" = c."newsletter_id" WHERE c."id" = $1`,
        [campaignId],
      ),
      this.pool.query<{
        id: number;
        kind: 'send' | 'resend';
        test_mode: boolean;
        status: string;
        started_at: Date | null;
        total: number;
      }>(
        `SELECT "id", "kind", "test_mode", "status", "started_at", "total" FROM "email_campaign_sends"
         WHERE "campaign_id" = $1 ORDER BY "id" DESC`,
        [campaignId],
      ),
    ]);
    const c = campaign.rows[0];
    if (!c) throw notFound('Campaign not found');
    return {
      current: c.current_send_id,
      name: c.name,
      kind: c.newsletter ? ('newsletter' as const) : ('campaign' as const),
      sends: sends.rows.map(
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
    const f = filterOf(send.id, campaignId, q);
    const values = [...f.values];
    let where = f.sql;
    if (q.after) {
      values.push(keyOf(q.after));
      where += ` AND r."email_key" > $${values.length}`;
    }
    const [page, counts] = await Promise.all([
      this.pool.query<Row>(
        `SELECT r."email", r."email_key", r."contact_id", ${STATUS_SQL} AS status, r."attempts", r."last_error",
                r."sent_at", t."open_count", t."proxy_open_count", t."click_count", t."opened_at", t."clicked_at",
                t."unsubscribed_at"
         FROM "email_campaign_recipients" r JOIN "email_tracking" t ON t."tracking_id" = r."tracking_id"
         WHERE ${where} ORDER BY r."email_key" LIMIT ${limit + 1}`,
        values,
      ),
      // The send's figures once, with its unfiltered first page (the screen keeps them while filtering).
      q.after || filtered(q) ? null : this.counts(send, campaignId, sends),
    ]);
    const rows = page.rows.slice(0, limit);
    const last = rows.at(-1);
    return {
      ...head,
      send,
      counts,
      items: rows.map((r) => ({
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
      nextCursor: page.rows.length > limit && last ? cursorOf(last.email_key) : null,
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
      finished
        ? this.pool.query<{ status: string; n: number }>(
            `SELECT x.status, x.n FROM "email_campaign_sends" s, LATERAL (VALUES ('sent', s."sent_count"),
               ('failed', s."failed_count"), ('unknown', s."unknown_count"),
               ('pending', s."total" - s."sent_count" - s."failed_count" - s."unknown_count")) AS x(status, n)
             WHERE s."id" = $1`,
            [send.id],
          )
        : this.pool.query<{ status: string; n: number }>(
            `SELECT "status"::text AS status, count(*)::int AS n FROM "email_campaign_recipients"
             WHERE "send_id" = $1 GROUP BY "status"`,
            [send.id],
          ),
      this.pool.query<{ status: string; bounced: number; complained: number; unsubscribed: number }>(
        `SELECT r."status"::text AS status,
                count(*) FILTER (WHERE t."complained_at" IS NOT NULL)::int AS complained,
                count(*) FILTER (WHERE t."complained_at" IS NULL AND t."bounced_at" IS NOT NULL)::int AS bounced,
                count(*) FILTER (WHERE t."unsubscribed_at" IS NOT NULL)::int AS unsubscribed
         FROM "email_tracking" t JOIN "email_campaign_recipients" r ON r."tracking_id" = t."tracking_id"
         WHERE t."campaign_id" = $1 AND r."send_id" = $2
           AND (t."bounced_at" IS NOT NULL OR t."complained_at" IS NOT NULL OR t."unsubscribed_at" IS NOT NULL)
         GROUP BY r."status"`,
        [String(campaignId), send.id],
      ),
      this.pool.query<{ opened: number; clicked: number }>(
        `SELECT count(t."opened_at")::int AS opened, count(t."clicked_at")::int AS clicked
         FROM "email_tracking" t
         WHERE t."campaign_id" = $1 AND t."test_mode" = $2 ${
           shared
             ? `AND t."tracking_id" IN (SELECT "tracking_id" FROM "email_campaign_recipients" WHERE "send_id" = $3)`
             : ''
         }`,
        shared ? [String(campaignId), send.testMode, send.id] : [String(campaignId), send.testMode],
      ),
    ]);
    const by = new Map<string, number>();
    for (const o of outcomes.rows) {
      const key = o.status === 'pending' || o.status === 'sending' ? 'queued' : o.status;
      by.set(key, (by.get(key) ?? 0) + o.n);
    }
    let bounced = 0;
    let complained = 0;
    let unsubscribed = 0;
    for (const r of rare.rows) {
      // A bounce or complaint overrides the row's own outcome (STATUS_SQL).
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
      opened: engaged.rows[0]?.opened ?? 0,
      clicked: engaged.rows[0]?.clicked ?? 0,
      unsubscribed,
    };
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
    const f = filterOf(sendId, campaignId, q);
    const safe = spreadsheetSafe;
    const at = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;
    await copyCsv(
      this.pool,
      (client) => `
          SELECT ${safe('r."email"')} AS "Email", ${STATUS_SQL} AS "Status", ${at('r."sent_at"')} AS "Sent (UTC)",
                 r."attempts" AS "Attempts", t."open_count" AS "Opens", t."proxy_open_count" AS "Proxy opens",
                 t."click_count" AS "Clicks", ${at('t."opened_at"')} AS "First opened (UTC)",
                 ${at('t."clicked_at"')} AS "First clicked (UTC)", ${at('t."unsubscribed_at"')} AS "Unsubscribed (UTC)",
                 ${safe('r."last_error"')} AS "Error"
          FROM "email_campaign_recipients" r JOIN "email_tracking" t ON t."tracking_id" = r."tracking_id"
          WHERE ${f.sql.replace(/\$(\d+)/g, (_, n: string) => client.escapeLiteral(String(f.values[Number(n) - 1])))}
          ORDER BY r."email_key"`,
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
