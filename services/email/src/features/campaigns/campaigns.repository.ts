import { randomBytes } from 'node:crypto';
import {
  CAMPAIGN_COPY_SUFFIX,
  CAMPAIGN_LIMITS,
  CAMPAIGN_MESSAGES,
  type Campaign,
  type CampaignInput,
  type CampaignProgress,
  type CampaignRecipient,
  type CampaignStatus,
  type TestSendSummary,
} from '@parley/contracts';
import { conflict, notFound } from '@parley/kit';
import type pg from 'pg';
import { rate } from '../analytics/domain/analytics.ts';
import { type CleanInput, subjectTip, validateInput } from './domain/campaign-input.ts';

/** email_campaigns and what the campaign card shows of its sends (SQL through the pool). */

interface CampaignRow {
  id: number;
  name: string;
  subject: string;
  from_name: string;
  from_email: string;
  html_content: string;
  text_content: string | null;
  status: CampaignStatus;
  scheduled_at: Date | null;
  sent_at: Date | null;
  total_recipients: number;
  sent_count: number;
  delivered_count: number;
  bounce_count: number;
  unsubscribe_count: number;
  target_address_books: string;
  target_contacts: string;
  tracking_id: string;
  current_send_id: number | null;
  created_at: Date;
  updated_at: Date;
  // tracking aggregates
  opens: string | null;
  clicks: string | null;
  bounces: string | null;
  unsubscribes: string | null;
  // the current send
  s_kind: 'send' | 'resend' | null;
  s_status: string | null;
  s_test_mode: boolean | null;
  s_total: number | null;
  s_original: number | null;
  s_sent: number | null;
  s_failed: number | null;
  s_unknown: number | null;
  s_started_at: Date | null;
  s_finished_at: Date | null;
  // the test-mode sends: how many, and the newest
  test_sends: number;
  ts_id: number | null;
  ts_status: TestSendSummary['status'] | null;
  ts_total: number | null;
  ts_original: number | null;
  ts_started_at: Date | null;
  ts_finished_at: Date | null;
}

export interface LiveCounts {
  pending: number;
  sending: number;
  sent: number;
  failed: number;
  unknown: number;
  rate: number;
}

const SELECT = `
  SELECT c.*, t.opens, t.clicks, t.bounces, t.unsubscribes,
         s."kind" AS s_kind, s."status"::text AS s_status, s."test_mode" AS s_test_mode, s."total" AS s_total,
         s."original_recipients" AS s_original, s."sent_count" AS s_sent, s."failed_count" AS s_failed,
         s."unknown_count" AS s_unknown, s."started_at" AS s_started_at, s."finished_at" AS s_finished_at,
         ts.n AS test_sends, tl."id" AS ts_id, tl."status"::text AS ts_status, tl."total" AS ts_total,
         tl."original_recipients" AS ts_original, tl."started_at" AS ts_started_at, tl."finished_at" AS ts_finished_at
  FROM "email_campaigns" c
  LEFT JOIN "email_campaign_sends" s ON s."id" = c."current_send_id"
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE "opened_at" IS NOT NULL) AS opens,
           count(*) FILTER (WHERE "clicked_at" IS NOT NULL) AS clicks,
           count(*) FILTER (WHERE "bounced_at" IS NOT NULL) AS bounces,
           count(*) FILTER (WHERE "unsubscribed_at" IS NOT NULL) AS unsubscribes
    FROM "email_tracking" WHERE "campaign_id" = c."id"::text AND "test_mode" = false
  ) t ON true
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS n, max(x."id") AS last_id
    FROM "email_campaign_sends" x WHERE x."campaign_id" = c."id" AND x."test_mode"
  ) ts ON true
  LEFT JOIN "email_campaign_sends" tl ON tl."id" = ts.last_id`;

const parsedList = (text: string): number[] => {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x) => Number.isInteger(x)) : [];
  } catch {
    return [];
  }
};

function toCampaign(r: CampaignRow, live: LiveCounts | null, test: LiveCounts | null): Campaign {
  const opens = Number(r.opens ?? 0);
  const clicks = Number(r.clicks ?? 0);
  const bounces = Math.max(r.bounce_count, Number(r.bounces ?? 0));
  const unsubscribes = Math.max(r.unsubscribe_count, Number(r.unsubscribes ?? 0));
  const sendStatus = r.s_status;
  const progress: CampaignProgress = {
    sendId: r.current_send_id,
    kind: r.s_kind,
    status: r.status,
    testMode: Boolean(r.s_test_mode),
    total: r.s_total ?? 0,
    originalRecipients: r.s_original ?? 0,
    sent: live ? live.sent : (r.s_sent ?? 0),
    failed: live ? live.failed : (r.s_failed ?? 0),
    unknown: live ? live.unknown : (r.s_unknown ?? 0),
    sending: live ? live.sending : 0,
    remaining: live ? live.pending : sendStatus === 'scheduled' ? (r.s_total ?? 0) : 0,
    rate: live ? live.rate : 0,
    startedAt: r.s_started_at?.toISOString() ?? null,
    finishedAt: r.s_finished_at?.toISOString() ?? null,
  };
  return {
    id: r.id,
    name: r.name,
    subject: r.subject,
    fromName: r.from_name,
    fromEmail: r.from_email,
    htmlContent: r.html_content,
    textContent: r.text_content,
    status: r.status,
    scheduledAt: r.scheduled_at?.toISOString() ?? null,
    sentAt: r.sent_at?.toISOString() ?? null,
    targetAddressBooks: r.target_address_books,
    targetContacts: r.target_contacts,
    targetAddressBookIds: parsedList(r.target_address_books),
    targetContactIds: parsedList(r.target_contacts),
    trackingId: r.tracking_id,
    totalRecipients: r.total_recipients,
    sentCount: r.sent_count,
    deliveredCount: Math.max(r.delivered_count, r.sent_count - bounces),
    openCount: opens,
    clickCount: clicks,
    bounceCount: bounces,
    unsubscribeCount: unsubscribes,
    openRate: rate(opens, r.sent_count),
    clickRate: rate(clicks, r.sent_count),
    subjectTip: subjectTip(r.subject),
    progress,
    testSends: {
      count: r.test_sends ?? 0,
      last:
        r.ts_id === null || r.ts_status === null
          ? null
          : {
              sendId: r.ts_id,
              status: r.ts_status,
              recipients: r.ts_total ?? 0,
              originalRecipients: r.ts_original ?? 0,
              sent: test?.sent ?? 0,
              failed: (test?.failed ?? 0) + (test?.unknown ?? 0),
              startedAt: r.ts_started_at?.toISOString() ?? null,
              finishedAt: r.ts_finished_at?.toISOString() ?? null,
            },
    },
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

const COLUMNS: Record<keyof CleanInput, string> = {
  name: 'name',
  subject: 'subject',
  fromName: 'from_name',
  fromEmail: 'from_email',
  htmlContent: 'html_content',
  textContent: 'text_content',
  scheduledAt: 'scheduled_at',
  targetAddressBooks: 'target_address_books',
  targetContacts: 'target_contacts',
};

export const newCampaignTrackingId = () => `cmp_${randomBytes(12).toString('base64url')}`;

/** A draft's name and content, as 'Fix HTML Issues' reads and writes it. */
export interface DraftContent {
  name: string;
  html: string;
  text: string | null;
}

/** Drafts whose stored HTML 'Fix HTML Issues' normalises (campaigns and newsletters alike). */
export interface FixableDrafts {
  fixableDraftIds(): Promise<number[]>;
  draftContent(id: number): Promise<DraftContent | null>;
  replaceDraftContent(id: number, was: DraftContent, now: Omit<DraftContent, 'name'>): Promise<boolean>;
}

/** A draft's name and content from either table 'Fix HTML Issues' reads (same columns). */
export async function readDraftContent(
  pool: pg.Pool,
  table: 'email_campaigns' | 'newsletters',
  id: number,
): Promise<DraftContent | null> {
  const { rows } = await pool.query<{ name: string; html_content: string; text_content: string | null }>(
    `SELECT "name", "html_content", "text_content" FROM "${table}" WHERE "id" = $1`,
    [id],
  );
  const r = rows[0];
  return r ? { name: r.name, html: r.html_content, text: r.text_content } : null;
}

export class CampaignsRepository implements FixableDrafts {
  constructor(private readonly pool: pg.Pool) {}

  private async liveCounts(sendIds: number[]): Promise<Map<number, LiveCounts>> {
    const out = new Map<number, LiveCounts>();
    if (!sendIds.length) return out;
    const { rows } = await this.pool.query<{
      send_id: number;
      pending: string;
      sending: string;
      sent: string;
      failed: string;
      unknown: string;
      recent: string;
    }>(
      `SELECT "send_id",
              count(*) FILTER (WHERE "status" = 'pending') AS pending,
              count(*) FILTER (WHERE "status" = 'sending') AS sending,
              count(*) FILTER (WHERE "status" = 'sent') AS sent,
              count(*) FILTER (WHERE "status" = 'failed') AS failed,
              count(*) FILTER (WHERE "status" = 'unknown') AS unknown,
              count(*) FILTER (WHERE "status" = 'sent' AND "sent_at" > now() - interval '10 seconds') AS recent
       FROM "email_campaign_recipients" WHERE "send_id" = ANY($1::int[]) GROUP BY "send_id"`,
      [sendIds],
    );
    for (const r of rows)
      out.set(r.send_id, {
        pending: Number(r.pending),
        sending: Number(r.sending),
        sent: Number(r.sent),
        failed: Number(r.failed),
        unknown: Number(r.unknown),
        rate: Number(r.recent) / 10,
      });
    for (const id of sendIds)
      if (!out.has(id)) out.set(id, { pending: 0, sending: 0, sent: 0, failed: 0, unknown: 0, rate: 0 });
    return out;
  }

  private async hydrate(rows: CampaignRow[]): Promise<Campaign[]> {
    const active = rows
      .filter((r) => r.current_send_id !== null && (r.s_status === 'sending' || r.s_status === 'paused'))
      .map((r) => r.current_send_id as number);
    // The newest test send's outcome, counted from its few recipients (the test addresses).
    const tests = rows.map((r) => r.ts_id).filter((id): id is number => id !== null);
    const live = await this.liveCounts([...active, ...tests]);
    return rows.map((r) =>
      toCampaign(
        r,
        r.current_send_id !== null && active.includes(r.current_send_id)
          ? (live.get(r.current_send_id) ?? null)
          : null,
        r.ts_id !== null ? (live.get(r.ts_id) ?? null) : null,
      ),
    );
  }

  /** The Campaigns tab: newsletters' companion campaigns are not on it. */
  async list(): Promise<Campaign[]> {
    const { rows } = await this.pool.query<CampaignRow>(
      `${SELECT} WHERE c."newsletter_id" IS NULL ORDER BY c."created_at" DESC, c."id" DESC`,
    );
    return this.hydrate(rows);
  }

  /** A campaign of the Campaigns tab (a newsletter's companion is not one: null). */
  async get(id: number): Promise<Campaign | null> {
    const { rows } = await this.pool.query<CampaignRow>(
      `${SELECT} WHERE c."id" = $1 AND c."newsletter_id" IS NULL`,
      [id],
    );
    return rows.length ? ((await this.hydrate(rows))[0] ?? null) : null;
  }

  /** Campaigns by id, newsletters' companions included (the newsletters read theirs here). */
  async byIds(ids: number[]): Promise<Map<number, Campaign>> {
    if (!ids.length) return new Map();
    const { rows } = await this.pool.query<CampaignRow>(`${SELECT} WHERE c."id" = ANY($1::int[])`, [ids]);
    return new Map((await this.hydrate(rows)).map((c) => [c.id, c]));
  }

  async require(id: number): Promise<Campaign> {
    const c = await this.get(id);
    if (!c) throw notFound('Campaign not found');
    return c;
  }

  async create(input: CampaignInput): Promise<Campaign> {
    const v = validateInput(input, true);
    const { rows } = await this.pool.query<{ id: number }>(
      `INSERT INTO "email_campaigns" ("name", "subject", "from_name", "from_email", "html_content", "text_content",
         "scheduled_at", "target_address_books", "target_contacts", "tracking_id")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING "id"`,
      [
        v.name,
        v.subject,
        v.fromName,
        v.fromEmail,
        v.htmlContent ?? '',
        v.textContent ?? null,
        v.scheduledAt ?? null,
        v.targetAddressBooks ?? '[]',
        v.targetContacts ?? '[]',
        newCampaignTrackingId(),
      ],
    );
    return this.require(rows[0]?.id as number);
  }

  /** Drafts only (409 otherwise). */
  async update(id: number, input: CampaignInput): Promise<Campaign> {
    const v = validateInput(input, false);
    const sets: string[] = [];
    const values: unknown[] = [id];
    for (const [k, col] of Object.entries(COLUMNS) as Array<[keyof CleanInput, string]>) {
      if (v[k] === undefined) continue;
      values.push(v[k]);
      sets.push(`"${col}" = $${values.length}`);
    }
    sets.push(`"updated_at" = now()`);
    const { rowCount } = await this.pool.query(
      `UPDATE "email_campaigns" SET ${sets.join(', ')} WHERE "id" = $1 AND "status" = 'draft' AND "newsletter_id" IS NULL`,
      values,
    );
    if (!rowCount) {
      await this.require(id);
      throw conflict(`${CAMPAIGN_MESSAGES.notDraft}: this campaign is not a draft`);
    }
    return this.require(id);
  }

  /** Drafts only (409 otherwise). */
  async delete(id: number): Promise<void> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM "email_campaigns" WHERE "id" = $1 AND "status" = 'draft' AND "newsletter_id" IS NULL`,
      [id],
    );
    if (!rowCount) {
      const c = await this.require(id);
      throw conflict(`Only draft campaigns can be deleted: this campaign is ${c.status}`);
    }
  }

  /** A new draft with the same content and targets, named with the copy suffix. */
  async duplicate(id: number): Promise<Campaign> {
    const { rows } = await this.pool.query<{ id: number }>(
      `INSERT INTO "email_campaigns" ("name", "subject", "from_name", "from_email", "html_content", "text_content",
         "target_address_books", "target_contacts", "tracking_id")
       SELECT left("name", ${CAMPAIGN_LIMITS.name - CAMPAIGN_COPY_SUFFIX.length}) || $2, "subject", "from_name", "from_email",
              "html_content", "text_content", "target_address_books", "target_contacts", $3
       FROM "email_campaigns" WHERE "id" = $1 AND "newsletter_id" IS NULL RETURNING "id"`,
      [id, CAMPAIGN_COPY_SUFFIX, newCampaignTrackingId()],
    );
    if (!rows[0]) throw notFound('Campaign not found');
    return this.require(rows[0].id);
  }

  async recipients(
    campaignId: number,
    q: { sendId?: number; status?: string; limit: number; offset: number },
  ): Promise<{ sendId: number | null; items: CampaignRecipient[]; total: number }> {
    const c = await this.require(campaignId);
    const sendId = q.sendId ?? c.progress.sendId;
    if (sendId === null) return { sendId: null, items: [], total: 0 };
    const own = await this.pool.query(
      `SELECT 1 FROM "email_campaign_sends" WHERE "id" = $1 AND "campaign_id" = $2`,
      [sendId, campaignId],
    );
    if (!own.rowCount) throw notFound('Send not found');
    const where = `"send_id" = $1 ${q.status ? `AND "status" = $2::"mail_status"` : ''}`;
    const params: unknown[] = q.status ? [sendId, q.status] : [sendId];
    const [{ rows }, count] = await Promise.all([
      this.pool.query<{
        email: string;
        contact_id: string | null;
        status: CampaignRecipient['status'];
        attempts: number;
        last_error: string | null;
        tracking_id: string;
        sent_at: Date | null;
      }>(
        `SELECT "email", "contact_id", "status", "attempts", "last_error", "tracking_id", "sent_at"
         FROM "email_campaign_recipients" WHERE ${where} ORDER BY "id" LIMIT ${q.limit} OFFSET ${q.offset}`,
        params,
      ),
      this.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM "email_campaign_recipients" WHERE ${where}`,
        params,
      ),
    ]);
    return {
      sendId,
      total: Number(count.rows[0]?.n ?? 0),
      items: rows.map((r) => ({
        email: r.email,
        contactId: r.contact_id === null ? null : Number(r.contact_id),
        status: r.status,
        attempts: r.attempts,
        lastError: r.last_error,
        trackingId: r.tracking_id,
        sentAt: r.sent_at?.toISOString() ?? null,
      })),
    };
  }

  // ── 'Fix HTML Issues' (draft campaigns; newsletters' companions are fixed as newsletters) ──

  async fixableDraftIds(): Promise<number[]> {
    const { rows } = await this.pool.query<{ id: number }>(
      `SELECT "id" FROM "email_campaigns" WHERE "status" = 'draft' AND "newsletter_id" IS NULL AND "html_content" <> '' ORDER BY "id"`,
    );
    return rows.map((r) => r.id);
  }

  draftContent(id: number): Promise<DraftContent | null> {
    return readDraftContent(this.pool, 'email_campaigns', id);
  }

  /** Writes fixed HTML if the campaign is still a draft with the HTML that was fixed. */
  async replaceDraftContent(
    id: number,
    was: DraftContent,
    now: Omit<DraftContent, 'name'>,
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE "email_campaigns" SET "html_content" = $4, "text_content" = $5, "updated_at" = now()
       WHERE "id" = $1 AND "status" = 'draft' AND "html_content" = $2 AND "text_content" IS NOT DISTINCT FROM $3`,
      [id, was.html, was.text, now.html, now.text],
    );
    return (rowCount ?? 0) > 0;
  }

  /** A draft again after its schedule was cancelled: no time left on it. */
  async clearSchedule(id: number): Promise<void> {
    await this.pool.query(
      `UPDATE "email_campaigns" SET "scheduled_at" = NULL, "updated_at" = now() WHERE "id" = $1 AND "status" = 'draft'`,
      [id],
    );
  }
}
