import { randomBytes } from 'node:crypto';
import {
  CAMPAIGN_COPY_SUFFIX,
  CAMPAIGN_LIMITS,
  CAMPAIGN_MESSAGES,
  type Campaign,
  type CampaignInput,
  type CampaignProgress,
  type CampaignRecipient,
} from '@parley/contracts';
import { conflict, notFound } from '@parley/kit';
import { sql } from 'kysely';
import type pg from 'pg';
import { db, execute, firstRow, type Row, rows } from '../../shared/sql.ts';
import { rate } from '../analytics/domain/analytics.ts';
import { subjectTip, validateInput } from './domain/campaign-input.ts';

/** email_campaigns and what the campaign card shows of its sends (typed SQL through the pool). */

export type LiveCounts = Record<'pending' | 'sending' | 'sent' | 'failed' | 'unknown' | 'rate', number>;

/**
 * A campaign with what its card shows: the columns, the live tracking aggregates, the current
 * send, and the test-mode sends (how many, and the newest).
 */
function selectCampaigns() {
  return db
    .selectFrom('email_campaigns as c')
    .leftJoin('email_campaign_sends as s', 's.id', 'c.current_send_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('email_tracking as tr')
          .select((t) => [
            t.fn.countAll<string>().filterWhere('tr.opened_at', 'is not', null).as('opens'),
            t.fn.countAll<string>().filterWhere('tr.clicked_at', 'is not', null).as('clicks'),
            t.fn.countAll<string>().filterWhere('tr.bounced_at', 'is not', null).as('bounces'),
            t.fn.countAll<string>().filterWhere('tr.unsubscribed_at', 'is not', null).as('unsubscribes'),
          ])
          .where((t) => t('tr.campaign_id', '=', t.cast<string>('c.id', 'text')))
          .where('tr.test_mode', '=', false)
          .as('t'),
      (join) => join.onTrue(),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('email_campaign_sends as x')
          .select((x) => [x.cast<number>(x.fn.countAll(), 'integer').as('n'), x.fn.max('x.id').as('last_id')])
          .whereRef('x.campaign_id', '=', 'c.id')
          .where((x) => x.ref('x.test_mode'))
          .as('ts'),
      (join) => join.onTrue(),
    )
    .leftJoin('email_campaign_sends as tl', 'tl.id', 'ts.last_id')
    .selectAll('c')
    .select((eb) => [
      't.opens',
      't.clicks',
      't.bounces',
      't.unsubscribes',
      // the current send
      eb.ref('s.kind').$castTo<CampaignProgress['kind']>().as('s_kind'),
      's.status as s_status',
      's.test_mode as s_test_mode',
      's.total as s_total',
      's.original_recipients as s_original',
      's.sent_count as s_sent',
      's.failed_count as s_failed',
      's.unknown_count as s_unknown',
      's.started_at as s_started_at',
      's.finished_at as s_finished_at',
      // the test-mode sends: how many, and the newest
      'ts.n as test_sends',
      'tl.id as ts_id',
      'tl.status as ts_status',
      'tl.total as ts_total',
      'tl.original_recipients as ts_original',
      'tl.started_at as ts_started_at',
      'tl.finished_at as ts_finished_at',
    ]);
}

type CampaignRow = Row<ReturnType<typeof selectCampaigns>>;

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
    targetSegmentIds: parsedList(r.target_segments),
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

/** What a duplicate copies, besides the name (cut to leave room for the copy suffix). */
const COPIED = [
  'subject',
  'from_name',
  'from_email',
  'html_content',
  'text_content',
  'target_address_books',
  'target_contacts',
  'target_segments',
] as const;
const COPY_NAME_MAX = CAMPAIGN_LIMITS.name - CAMPAIGN_COPY_SUFFIX.length;

const TEN_SECONDS_AGO = sql<Date>`now() - interval '10 seconds'`;

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
  const columns = ['name', 'html_content', 'text_content'] as const;
  const r = await firstRow(
    pool,
    table === 'newsletters'
      ? db.selectFrom('newsletters').select(columns).where('id', '=', id)
      : db.selectFrom('email_campaigns').select(columns).where('id', '=', id),
  );
  return r ? { name: r.name, html: r.html_content, text: r.text_content } : null;
}

export class CampaignsRepository implements FixableDrafts {
  constructor(private readonly pool: pg.Pool) {}

  private async liveCounts(sendIds: number[]): Promise<Map<number, LiveCounts>> {
    const out = new Map<number, LiveCounts>();
    if (!sendIds.length) return out;
    const found = await rows(
      this.pool,
      db
        .selectFrom('email_campaign_recipients')
        .select((eb) => {
          const count = (status: CampaignRecipient['status']) =>
            eb.fn.countAll<string>().filterWhere('status', '=', status);
          return [
            'send_id',
            count('pending').as('pending'),
            count('sending').as('sending'),
            count('sent').as('sent'),
            count('failed').as('failed'),
            count('unknown').as('unknown'),
            eb.fn
              .countAll<string>()
              .filterWhere((f) => f.and([f('status', '=', 'sent'), f('sent_at', '>', TEN_SECONDS_AGO)]))
              .as('recent'),
          ];
        })
        .where((eb) => eb('send_id', '=', eb.fn.any(eb.val(sendIds))))
        .groupBy('send_id'),
    );
    for (const r of found)
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

  private async hydrate(found: CampaignRow[]): Promise<Campaign[]> {
    const active = found
      .filter((r) => r.current_send_id !== null && (r.s_status === 'sending' || r.s_status === 'paused'))
      .map((r) => r.current_send_id as number);
    // The newest test send's outcome, counted from its few recipients (the test addresses).
    const tests = found.map((r) => r.ts_id).filter((id): id is number => id !== null);
    const live = await this.liveCounts([...active, ...tests]);
    return found.map((r) =>
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
    const found = await rows(
      this.pool,
      selectCampaigns()
        .where('c.newsletter_id', 'is', null)
        .orderBy('c.created_at', 'desc')
        .orderBy('c.id', 'desc'),
    );
    return this.hydrate(found);
  }

  /** A campaign of the Campaigns tab (a newsletter's companion is not one: null). */
  async get(id: number): Promise<Campaign | null> {
    const found = await rows(
      this.pool,
      selectCampaigns().where('c.id', '=', id).where('c.newsletter_id', 'is', null),
    );
    return found.length ? ((await this.hydrate(found))[0] ?? null) : null;
  }

  /** Campaigns by id, newsletters' companions included (the newsletters read theirs here). */
  async byIds(ids: number[]): Promise<Map<number, Campaign>> {
    if (!ids.length) return new Map();
    const found = await rows(
      this.pool,
      selectCampaigns().where((eb) => eb('c.id', '=', eb.fn.any(eb.val(ids)))),
    );
    return new Map((await this.hydrate(found)).map((c) => [c.id, c]));
  }

  async require(id: number): Promise<Campaign> {
    const c = await this.get(id);
    if (!c) throw notFound('Campaign not found');
    return c;
  }

  async create(input: CampaignInput): Promise<Campaign> {
    const v = validateInput(input, true);
    const created = await firstRow(
      this.pool,
      db
        .insertInto('email_campaigns')
        .values({
          name: v.name as string,
          subject: v.subject as string,
          from_name: v.fromName as string,
          from_email: v.fromEmail as string,
          html_content: v.htmlContent ?? '',
          text_content: v.textContent ?? null,
          scheduled_at: v.scheduledAt ?? null,
          target_address_books: v.targetAddressBooks ?? '[]',
          target_contacts: v.targetContacts ?? '[]',
          target_segments: v.targetSegments ?? '[]',
          tracking_id: newCampaignTrackingId(),
        })
        .returning('id'),
    );
    return this.require(created?.id as number);
  }

  /** Drafts only (409 otherwise). Sets the fields given (Kysely leaves undefined ones out of the SET). */
  async update(id: number, input: CampaignInput): Promise<Campaign> {
    const v = validateInput(input, false);
    const changed = await execute(
      this.pool,
      db
        .updateTable('email_campaigns')
        .set({
          name: v.name,
          subject: v.subject,
          from_name: v.fromName,
          from_email: v.fromEmail,
          html_content: v.htmlContent,
          text_content: v.textContent,
          scheduled_at: v.scheduledAt,
          target_address_books: v.targetAddressBooks,
          target_contacts: v.targetContacts,
          target_segments: v.targetSegments,
          updated_at: sql`now()`,
        })
        .where((eb) => eb.and({ id, status: 'draft', newsletter_id: null })),
    );
    if (!changed) {
      await this.require(id);
      throw conflict(`${CAMPAIGN_MESSAGES.notDraft}: this campaign is not a draft`);
    }
    return this.require(id);
  }

  /** Drafts only (409 otherwise). */
  async delete(id: number): Promise<void> {
    const deleted = await execute(
      this.pool,
      db.deleteFrom('email_campaigns').where((eb) => eb.and({ id, status: 'draft', newsletter_id: null })),
    );
    if (!deleted) {
      const c = await this.require(id);
      throw conflict(`Only draft campaigns can be deleted: this campaign is ${c.status}`);
    }
  }

  /** A new draft with the same content and targets, named with the copy suffix. */
  async duplicate(id: number): Promise<Campaign> {
    const created = await firstRow(
      this.pool,
      db
        .insertInto('email_campaigns')
        .columns(['name', ...COPIED, 'tracking_id'])
        .expression(
          db
            .selectFrom('email_campaigns')
            .select((eb) => [
              sql<string>`left(${eb.ref('name')}, ${sql.lit(COPY_NAME_MAX)}) || ${CAMPAIGN_COPY_SUFFIX}`.as(
                'name',
              ),
              ...COPIED,
              eb.val(newCampaignTrackingId()).as('tracking_id'),
            ])
            .where('id', '=', id)
            .where('newsletter_id', 'is', null),
        )
        .returning('id'),
    );
    if (!created) throw notFound('Campaign not found');
    return this.require(created.id);
  }

  async recipients(
    campaignId: number,
    q: { sendId?: number; status?: string; limit: number; offset: number },
  ): Promise<{ sendId: number | null; items: CampaignRecipient[]; total: number }> {
    const c = await this.require(campaignId);
    const sendId = q.sendId ?? c.progress.sendId;
    if (sendId === null) return { sendId: null, items: [], total: 0 };
    const own = await firstRow(
      this.pool,
      db
        .selectFrom('email_campaign_sends')
        .select('id')
        .where('id', '=', sendId)
        .where('campaign_id', '=', campaignId),
    );
    if (!own) throw notFound('Send not found');
    const status = q.status as CampaignRecipient['status'] | undefined;
    const ofSend = db
      .selectFrom('email_campaign_recipients')
      .where('send_id', '=', sendId)
      .$if(Boolean(status), (qb) => qb.where('status', '=', status as CampaignRecipient['status']));
    const page = ofSend
      .select(['email', 'contact_id', 'status', 'attempts', 'last_error', 'tracking_id', 'sent_at'])
      .orderBy('id')
      .limit(q.limit)
      .offset(q.offset);
    const [items, count] = await Promise.all([
      rows(this.pool, page),
      firstRow(
        this.pool,
        ofSend.select((eb) => eb.fn.countAll<string>().as('n')),
      ),
    ]);
    return {
      sendId,
      total: Number(count?.n ?? 0),
      items: items.map((r) => ({
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
    const found = await rows(
      this.pool,
      db
        .selectFrom('email_campaigns')
        .select('id')
        .where('status', '=', 'draft')
        .where('newsletter_id', 'is', null)
        .where('html_content', '<>', '')
        .orderBy('id'),
    );
    return found.map((r) => r.id);
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
    const changed = await execute(
      this.pool,
      db
        .updateTable('email_campaigns')
        .set({ html_content: now.html, text_content: now.text, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('status', '=', 'draft')
        .where('html_content', '=', was.html)
        .where('text_content', 'is not distinct from', was.text),
    );
    return changed > 0;
  }

  /** A draft again after its schedule was cancelled: no time left on it. */
  async clearSchedule(id: number): Promise<void> {
    await execute(
      this.pool,
      db
        .updateTable('email_campaigns')
        .set({ scheduled_at: null, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('status', '=', 'draft'),
    );
  }
}
