import type pg from 'pg';

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

// ── launch ──────────────────────────────────────────────────────────────────

/** A campaign as a launch reads it: what it is now, and when it is scheduled for. */
export interface CampaignForLaunch {
  status: string;
  scheduled_at: Date | null;
}

/** The campaign's row, locked until the launch commits (two launches of it cannot both pass). */
export async function campaignForLaunch(
  client: pg.PoolClient,
  id: number,
): Promise<CampaignForLaunch | undefined> {
  const { rows } = await client.query<CampaignForLaunch>(
    `SELECT "status", "scheduled_at" FROM "email_campaigns" WHERE "id" = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
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
}

/** Writes a launch's send; answers its id. Its totals follow once its recipients are known. */
export async function insertSend(client: pg.PoolClient, send: NewSend): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO "email_campaign_sends" ("campaign_id", "kind", "status", "test_mode", "live",
           "address_book_ids", "contact_ids", "scheduled_at", "started_at", "all_contacts", "companies")
         VALUES ($1, $2, $3::"campaign_send_status", $4, $5, $6::int[], $7::bigint[], $8, $9, $10, $11::text[]) RETURNING "id"`,
    [
      send.campaignId,
      send.kind,
      send.status,
      send.testMode,
      send.live,
      send.addressBookIds,
      send.contactIds,
      send.scheduledAt,
      send.startedAt,
      send.allContacts,
      send.companies,
    ],
  );
  return rows[0]?.id as number;
}

/** A launched send's recipients (`total`) and its audience before test mode (`original`). */
export async function setSendTotals(
  client: pg.PoolClient,
  sendId: number,
  counts: { total: number; original: number },
): Promise<void> {
  await client.query(
    `UPDATE "email_campaign_sends" SET "total" = $2, "original_recipients" = $3 WHERE "id" = $1`,
    [sendId, counts.total, counts.original],
  );
}

/** The campaign scheduled or sending, with `sendId` as its current send. */
export async function markCampaignLaunched(
  client: pg.PoolClient,
  campaignId: number,
  sendId: number,
  status: 'scheduled' | 'sending',
): Promise<void> {
  await client.query(
    `UPDATE "email_campaigns" SET "status" = $2::"campaign_status", "current_send_id" = $1, "updated_at" = now()
           WHERE "id" = $3`,
    [sendId, status, campaignId],
  );
}

// ── dispatch of scheduled sends ─────────────────────────────────────────────

/** A scheduled send whose time has come, with the audience it was launched for. */
export interface DueSend {
  id: number;
  campaign_id: number;
  kind: 'send' | 'resend';
  test_mode: boolean;
  address_book_ids: number[];
  contact_ids: string[];
  all_contacts: boolean;
  companies: string[] | null;
}

/**
 * The oldest due scheduled send, locked until the dispatch commits; one another replica holds
 * is skipped, so each due send is dispatched by exactly one replica.
 */
export async function nextDueSend(client: pg.PoolClient): Promise<DueSend | undefined> {
  const { rows } = await client.query<DueSend>(
    `SELECT "id", "campaign_id", "kind", "test_mode", "address_book_ids", "contact_ids", "all_contacts", "companies"
           FROM "email_campaign_sends" WHERE "status" = 'scheduled' AND "scheduled_at" <= now()
           ORDER BY "scheduled_at", "id" LIMIT 1 FOR UPDATE SKIP LOCKED`,
  );
  return rows[0];
}

/** A due send with no recipients left: cancelled, and its campaign (if still scheduled) a draft again. */
export async function cancelEmptyDueSend(
  client: pg.PoolClient,
  sendId: number,
  campaignId: number,
): Promise<void> {
  await client.query(
    `UPDATE "email_campaign_sends" SET "status" = 'cancelled', "finished_at" = now() WHERE "id" = $1`,
    [sendId],
  );
  await client.query(
    `UPDATE "email_campaigns" SET "status" = 'draft', "updated_at" = now() WHERE "id" = $1 AND "status" = 'scheduled'`,
    [campaignId],
  );
}

/** The dispatched send sending, in the test mode decided at dispatch, with its totals. */
export async function startDueSend(
  client: pg.PoolClient,
  sendId: number,
  testMode: boolean,
  counts: { total: number; original: number },
): Promise<void> {
  await client.query(
    `UPDATE "email_campaign_sends" SET "status" = 'sending', "started_at" = now(), "test_mode" = $2, "live" = $3,
             "total" = $4, "original_recipients" = $5 WHERE "id" = $1`,
    [sendId, testMode, !testMode, counts.total, counts.original],
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
  await client.query(
    testMode
      ? `UPDATE "email_campaigns" SET "status" = 'draft', "current_send_id" = NULL, "scheduled_at" = NULL,
                 "updated_at" = now() WHERE "id" = $1 AND "status" = 'scheduled' AND "current_send_id" = $2`
      : `UPDATE "email_campaigns" SET "status" = 'sending', "current_send_id" = $2, "updated_at" = now()
               WHERE "id" = $1 AND "status" = 'scheduled'`,
    [campaignId, sendId],
  );
}

// ── pause / resume / cancel ─────────────────────────────────────────────────

/** A campaign as pause, resume and cancel read it: what it is now, and its current send. */
export interface CampaignForChange {
  status: string;
  current_send_id: number | null;
}

/** The campaign's row, locked until the change commits. */
export async function campaignForChange(
  client: pg.PoolClient,
  id: number,
): Promise<CampaignForChange | undefined> {
  const { rows } = await client.query<CampaignForChange>(
    `SELECT "status", "current_send_id" FROM "email_campaigns" WHERE "id" = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

/** The send paused (if still sending: the workers claim no more of it), then its campaign. */
export async function pauseCampaign(
  client: pg.PoolClient,
  campaignId: number,
  sendId: number | null,
): Promise<void> {
  await client.query(
    `UPDATE "email_campaign_sends" SET "status" = 'paused' WHERE "id" = $1 AND "status" = 'sending'`,
    [sendId],
  );
  await client.query(
    `UPDATE "email_campaigns" SET "status" = 'paused', "updated_at" = now() WHERE "id" = $1`,
    [campaignId],
  );
}

/** The send sending again (if still paused), then its campaign. */
export async function resumeCampaign(
  client: pg.PoolClient,
  campaignId: number,
  sendId: number | null,
): Promise<void> {
  await client.query(
    `UPDATE "email_campaign_sends" SET "status" = 'sending' WHERE "id" = $1 AND "status" = 'paused'`,
    [sendId],
  );
  await client.query(
    `UPDATE "email_campaigns" SET "status" = 'sending', "updated_at" = now() WHERE "id" = $1`,
    [campaignId],
  );
}

/**
 * The send's row locked before a cancel counts its recipients: a settle in flight holds it
 * (share) until it commits, so the count sees what it settled.
 */
export async function lockSend(client: pg.PoolClient, sendId: number | null): Promise<void> {
  await client.query(`SELECT 1 FROM "email_campaign_sends" WHERE "id" = $1 FOR UPDATE`, [sendId]);
}

/** The send cancelled, finished now, with its sent, failed and unknown recipients counted. */
export async function cancelSend(client: pg.PoolClient, sendId: number | null): Promise<void> {
  await client.query(
    `UPDATE "email_campaign_sends" s SET "status" = 'cancelled', "finished_at" = now(),
           "sent_count" = x.sent, "failed_count" = x.failed, "unknown_count" = x.unknown
         FROM (SELECT count(*) FILTER (WHERE "status" = 'sent')::int AS sent,
                      count(*) FILTER (WHERE "status" = 'failed')::int AS failed,
                      count(*) FILTER (WHERE "status" = 'unknown')::int AS unknown
               FROM "email_campaign_recipients" WHERE "send_id" = $1) x
         WHERE s."id" = $1`,
    [sendId],
  );
}

/** A scheduled campaign unscheduled: a draft with no send and no time left on it. */
export async function unscheduleCampaign(client: pg.PoolClient, campaignId: number): Promise<void> {
  await client.query(
    `UPDATE "email_campaigns" SET "status" = 'draft', "current_send_id" = NULL, "scheduled_at" = NULL, "updated_at" = now() WHERE "id" = $1`,
    [campaignId],
  );
}

/** A sending or paused campaign cancelled, with what its (cancelled, counted) send sent added to its totals. */
export async function cancelCampaign(
  client: pg.PoolClient,
  campaignId: number,
  sendId: number | null,
): Promise<void> {
  await client.query(
    `UPDATE "email_campaigns" c SET "status" = 'cancelled', "updated_at" = now(),
             "sent_count" = c."sent_count" + s."sent_count", "total_recipients" = c."total_recipients" + s."total"
           FROM "email_campaign_sends" s WHERE c."id" = $1 AND s."id" = $2`,
    [campaignId, sendId],
  );
}

// ── launch checks ───────────────────────────────────────────────────────────

/** The end of the cooling period in force (connection failures), if one is. */
export async function blockedUntil(client: pg.PoolClient): Promise<Date | undefined> {
  const { rows } = await client.query<{ until: Date }>(
    `SELECT max("blocked_until") AS until FROM "email_send_blocks" WHERE "blocked_until" > now()`,
  );
  return rows[0]?.until;
}

/** The live sends started in the last hour (all replicas), and when the first of them started. */
export async function liveSendsInLastHour(
  client: pg.PoolClient,
): Promise<{ n: number; first: Date | null } | undefined> {
  const { rows } = await client.query<{ n: number; first: Date | null }>(
    `SELECT count(*)::int AS n, min("started_at") AS first FROM "email_campaign_sends"
     WHERE "live" AND "started_at" > now() - interval '1 hour'`,
  );
  return rows[0];
}
