import type { SendSegment } from '@parley/contracts';
import { sql } from 'kysely';
import type pg from 'pg';
import { db, execute, firstRow } from '../../shared/sql.ts';

/**
 * A campaign launch in SQL (launch.service.ts decides, and owns the transactions): the launch
 * lock; the campaign's row locked for a launch, a pause, a resume or a cancel; the send's row
 * as a launch writes it and as a dispatch, a pause, a resume or a cancel moves it on; what the
 * launch checks read (a cooling period in force, the live sends of the last hour). Every
 * function runs in the caller's transaction (`client`), so the service's order of statements
 * is the order they run in.
 */

/** A launch lock shared by launches and the scheduler (hourly limit, cooling period). */
const LAUNCH_LOCK = 0x70a7_1e01;

/** Takes the launch lock in `client`'s transaction (a newsletter's delete waits for a dispatch in progress). */
export async function lockLaunches(client: pg.PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [LAUNCH_LOCK]);
}

const now = sql<Date>`now()`;

// ── launch ──────────────────────────────────────────────────────────────────

/** The campaign's row, locked until the launch commits (two launches of it cannot both pass). */
export async function campaignForLaunch(client: pg.PoolClient, id: number) {
  return firstRow(
    client,
    db.selectFrom('email_campaigns').select(['status', 'scheduled_at']).where('id', '=', id).forUpdate(),
  );
}

/** A send's row as a launch writes it: scheduled for later, or sending now. */
export interface NewSend {
  campaignId: number;
  kind: 'send' | 'resend';
  status: 'scheduled' | 'sending';
  testMode: boolean;
  /** Counted by the hourly limit (a send to the real audience, not in test mode). */
  live: boolean;
  addressBookIds: number[];
  contactIds: number[];
  scheduledAt: Date | null;
  startedAt: Date | null;
  allContacts: boolean;
  companies: string[];
  /** The segments chosen, as they are at launch (a scheduled send resolves their rules at dispatch). */
  segments: SendSegment[];
}

/** Writes a launch's send; answers its id. Its totals follow once its recipients are known. */
export async function insertSend(client: pg.PoolClient, send: NewSend): Promise<number> {
  const row = await firstRow(
    client,
    db
      .insertInto('email_campaign_sends')
      .values({
        campaign_id: send.campaignId,
        kind: send.kind,
        status: send.status,
        test_mode: send.testMode,
        live: send.live,
        address_book_ids: send.addressBookIds,
        contact_ids: send.contactIds.map(String),
        scheduled_at: send.scheduledAt,
        started_at: send.startedAt,
        all_contacts: send.allContacts,
        companies: send.companies,
        segments: JSON.stringify(send.segments),
      })
      .returning('id'),
  );
  return row?.id as number;
}

/** A launched send's recipients (`total`) and its audience before test mode (`original`). */
export async function setSendTotals(
  client: pg.PoolClient,
  sendId: number,
  counts: { total: number; original: number },
): Promise<void> {
  await execute(
    client,
    db
      .updateTable('email_campaign_sends')
      .set({ total: counts.total, original_recipients: counts.original })
      .where('id', '=', sendId),
  );
}

/** The campaign scheduled or sending, with `sendId` as its current send. */
export async function markCampaignLaunched(
  client: pg.PoolClient,
  campaignId: number,
  sendId: number,
  status: 'scheduled' | 'sending',
): Promise<void> {
  await execute(
    client,
    db
      .updateTable('email_campaigns')
      .set({ status, current_send_id: sendId, updated_at: now })
      .where('id', '=', campaignId),
  );
}

// ── dispatch of scheduled sends ─────────────────────────────────────────────

/**
 * The oldest due scheduled send, locked until the dispatch commits; one another replica holds
 * is skipped, so each due send is dispatched by exactly one replica.
 */
export async function nextDueSend(client: pg.PoolClient) {
  return firstRow(
    client,
    db
      .selectFrom('email_campaign_sends')
      .select([
        'id',
        'campaign_id',
        'kind',
        'test_mode',
        'address_book_ids',
        'contact_ids',
        'all_contacts',
        'companies',
        'segments',
      ])
      .where('status', '=', sql.lit('scheduled'))
      .where('scheduled_at', '<=', now)
      .orderBy('scheduled_at')
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked(),
  );
}

/** A due send with no recipients left: cancelled, and its campaign (if still scheduled) a draft again. */
export async function cancelEmptyDueSend(
  client: pg.PoolClient,
  sendId: number,
  campaignId: number,
): Promise<void> {
  await execute(
    client,
    db
      .updateTable('email_campaign_sends')
      .set({ status: 'cancelled', finished_at: now })
      .where('id', '=', sendId),
  );
  await execute(
    client,
    db
      .updateTable('email_campaigns')
      .set({ status: 'draft', updated_at: now })
      .where('id', '=', campaignId)
      .where('status', '=', 'scheduled'),
  );
}

/** The dispatched send sending, in the test mode decided at dispatch, with its totals. */
export async function startDueSend(
  client: pg.PoolClient,
  sendId: number,
  testMode: boolean,
  counts: { total: number; original: number },
): Promise<void> {
  await execute(
    client,
    db
      .updateTable('email_campaign_sends')
      .set({
        status: 'sending',
        started_at: now,
        test_mode: testMode,
        live: !testMode,
        total: counts.total,
        original_recipients: counts.original,
      })
      .where('id', '=', sendId),
  );
}

/**
 * The dispatched send's campaign, if still scheduled: sending it; in test mode (nothing
 * reached the audience) a draft again, its time used up, if this send is still its current one.
 */
export async function moveCampaignOnDispatch(
  client: pg.PoolClient,
  campaignId: number,
  sendId: number,
  testMode: boolean,
): Promise<void> {
  await execute(
    client,
    testMode
      ? db
          .updateTable('email_campaigns')
          .set({ status: 'draft', current_send_id: null, scheduled_at: null, updated_at: now })
          .where('id', '=', campaignId)
          .where('status', '=', 'scheduled')
          .where('current_send_id', '=', sendId)
      : db
          .updateTable('email_campaigns')
          .set({ status: 'sending', current_send_id: sendId, updated_at: now })
          .where('id', '=', campaignId)
          .where('status', '=', 'scheduled'),
  );
}

// ── pause / resume / cancel ─────────────────────────────────────────────────

/** The campaign's row, locked until the change commits. */
export async function campaignForChange(client: pg.PoolClient, id: number) {
  return firstRow(
    client,
    db.selectFrom('email_campaigns').select(['status', 'current_send_id']).where('id', '=', id).forUpdate(),
  );
}

/** The send paused (if still sending: the workers claim no more of it), then its campaign. */
export async function pauseCampaign(
  client: pg.PoolClient,
  campaignId: number,
  sendId: number | null,
): Promise<void> {
  await moveSendAndCampaign(client, campaignId, sendId, { from: 'sending', to: 'paused' });
}

/** The send sending again (if still paused), then its campaign. */
export async function resumeCampaign(
  client: pg.PoolClient,
  campaignId: number,
  sendId: number | null,
): Promise<void> {
  await moveSendAndCampaign(client, campaignId, sendId, { from: 'paused', to: 'sending' });
}

async function moveSendAndCampaign(
  client: pg.PoolClient,
  campaignId: number,
  sendId: number | null,
  move: { from: 'sending' | 'paused'; to: 'sending' | 'paused' },
): Promise<void> {
  if (sendId !== null)
    await execute(
      client,
      db
        .updateTable('email_campaign_sends')
        .set({ status: move.to })
        .where('id', '=', sendId)
        .where('status', '=', move.from),
    );
  await execute(
    client,
    db.updateTable('email_campaigns').set({ status: move.to, updated_at: now }).where('id', '=', campaignId),
  );
}

/**
 * The send's row locked before a cancel counts its recipients: a settle in flight holds it
 * (share) until it commits, so the count sees what it settled.
 */
export async function lockSend(client: pg.PoolClient, sendId: number | null): Promise<void> {
  if (sendId === null) return;
  await execute(
    client,
    db.selectFrom('email_campaign_sends').select(sql.lit(1).as('one')).where('id', '=', sendId).forUpdate(),
  );
}

/** The send cancelled, finished now, with its sent, failed and unknown recipients counted. */
export async function cancelSend(client: pg.PoolClient, sendId: number | null): Promise<void> {
  if (sendId === null) return;
  // One scan of the send's rows: the three counts as FILTERs of one aggregate.
  await execute(
    client,
    db
      .updateTable('email_campaign_sends as s')
      .from(
        db
          .selectFrom('email_campaign_recipients')
          .select((eb) => [
            sql<number>`${eb.fn.countAll().filterWhere('status', '=', 'sent')}::int`.as('sent'),
            sql<number>`${eb.fn.countAll().filterWhere('status', '=', 'failed')}::int`.as('failed'),
            sql<number>`${eb.fn.countAll().filterWhere('status', '=', 'unknown')}::int`.as('unknown'),
          ])
          .where('send_id', '=', sendId)
          .as('x'),
      )
      .set((eb) => ({
        status: 'cancelled',
        finished_at: now,
        sent_count: eb.ref('x.sent'),
        failed_count: eb.ref('x.failed'),
        unknown_count: eb.ref('x.unknown'),
      }))
      .where('s.id', '=', sendId),
  );
}

/** A scheduled campaign unscheduled: a draft with no send and no time left on it. */
export async function unscheduleCampaign(client: pg.PoolClient, campaignId: number): Promise<void> {
  await execute(
    client,
    db
      .updateTable('email_campaigns')
      .set({ status: 'draft', current_send_id: null, scheduled_at: null, updated_at: now })
      .where('id', '=', campaignId),
  );
}

/** A sending or paused campaign cancelled, with what its (cancelled, counted) send sent added to its totals. */
export async function cancelCampaign(
  client: pg.PoolClient,
  campaignId: number,
  sendId: number | null,
): Promise<void> {
  if (sendId === null) return;
  await execute(
    client,
    db
      .updateTable('email_campaigns as c')
      .from('email_campaign_sends as s')
      .set((eb) => ({
        status: 'cancelled',
        updated_at: now,
        sent_count: eb('c.sent_count', '+', eb.ref('s.sent_count')),
        total_recipients: eb('c.total_recipients', '+', eb.ref('s.total')),
      }))
      .where('c.id', '=', campaignId)
      .where('s.id', '=', sendId),
  );
}

// ── launch checks ───────────────────────────────────────────────────────────

/** The end of the cooling period in force (connection failures), if one is. */
export async function blockedUntil(client: pg.PoolClient): Promise<Date | undefined> {
  const row = await firstRow(
    client,
    db
      .selectFrom('email_send_blocks')
      .select((eb) => eb.fn.max('blocked_until').as('until'))
      .where('blocked_until', '>', now),
  );
  return row?.until ?? undefined;
}

/** The live sends started in the last hour (all replicas), and when the first of them started. */
export async function liveSendsInLastHour(client: pg.PoolClient) {
  return firstRow(
    client,
    db
      .selectFrom('email_campaign_sends')
      .select((eb) => [sql<number>`count(*)::int`.as('n'), eb.fn.min('started_at').as('first')])
      .where('live', '=', sql.lit(true))
      .where('started_at', '>', sql<Date>`now() - interval '1 hour'`),
  );
}
