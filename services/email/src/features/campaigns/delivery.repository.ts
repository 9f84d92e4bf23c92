import { CONNECTION_FAILURE_COOLDOWN_HOURS } from '@parley/contracts';
import { enqueueEvent, inTransaction, pgExecutor, type ServiceDeps } from '@parley/kit';
import { sql } from 'kysely';
import type pg from 'pg';
import { db, execute, firstRow, type Queryable, type Row, rows } from '../../shared/sql.ts';

type Logger = ServiceDeps['logger'];

/**
 * A send's delivery state in SQL, shared by every replica (docs/adr/0051-campaign-sends-claim-rows.md):
 *
 * - claim: a worker takes a batch of pending rows with FOR UPDATE SKIP LOCKED and marks them
 *   'sending' (with a lease) in that same committed statement BEFORE the transport sees them
 *   (with a shared window, under an advisory lock with the window's ledger).
 * - settle: after the transport answers, one statement settles the batch (sent, failed, or
 *   pending again with a later next_attempt_at for a temporary 4xx refusal).
 * - block: the cooling period after connection failures (sending sends paused).
 * - reap: 'sending' rows whose lease expired (their worker died) become 'unknown': never
 *   resent (at most one mail per recipient), shown in the progress and the recipients list.
 * - complete: whoever sees no pending or sending row left marks the send done and the
 *   campaign sent and enqueues `email.campaign.sent` (`email.newsletter.sent` for a
 *   newsletter's companion campaign) in the same transaction (a conditional UPDATE: exactly one wins).
 */

/** A claimed recipient. `sending_at`, the claim's time, is the mail's Date header and its time in Sent mail. */
export type Claimed = Omit<Row<ReturnType<typeof claimStatement>>, 'sending_at'> & { sending_at: Date };

/** What became of one claimed recipient, as the settle writes it. */
export interface Outcome {
  id: string;
  status: 'sent' | 'failed' | 'pending' | 'unknown';
  error: string | null;
  delayMs: number;
  /** -1: the attempt did not happen (no connection), so it does not count. */
  attemptAdj: number;
  trackingId: string;
  sendId: number;
  /** SES's id of the mail (its notifications name it); null for other transports. */
  providerId: string | null;
}

/** A limit shared by every replica: at most `messages` handed out in any `seconds`. */
export interface SendWindow {
  messages: number;
  seconds: number;
}

/** The lock that makes a window's check and claim one step across replicas. */
const WINDOW_LOCK = 0x70a7_1e02;

/**
 * Where each send's claims go on, per process: the highest id this process claimed of the
 * send. A claim first reads past it, because the partial pending index keeps an entry for every
 * row claimed until VACUUM removes it, and a claim from the send's first id walks them all (at
 * 500,000 recipients that made the claim most of the send's database time, growing with the
 * rows sent). Rows behind the cursor that are pending again (a retry, a connection failure) are
 * claimed once the rows ahead run short, so they go out last, as a retry does anyway.
 */
export class ClaimCursors {
  private readonly after = new Map<number, bigint>();

  /** The sends with a cursor, as the claim statement's two arrays. */
  snapshot(): { sendIds: number[]; ids: string[] } | null {
    if (!this.after.size) return null;
    return { sendIds: [...this.after.keys()], ids: [...this.after.values()].map(String) };
  }

  advance(claimed: ReadonlyArray<{ send_id: number; id: string }>): void {
    for (const r of claimed) {
      const id = BigInt(r.id);
      const was = this.after.get(r.send_id);
      if (was === undefined || id > was) {
        this.after.delete(r.send_id);
        this.after.set(r.send_id, id);
      }
    }
    // A process sees few sends at once; the oldest entries are finished ones.
    while (this.after.size > 100) this.after.delete(this.after.keys().next().value as number);
  }
}

/**
 * Due pending rows of sending sends (past each send's cursor when given), locked past the ones
 * other workers hold, marked 'sending' with a lease. Per send (a lateral subquery on
 * `send_id = s.id`), so the partial pending index answers each send in id order and stops at
 * the limit, whatever the planner estimates: written as one semi-join on the sending sends, the
 * plan flipped from about 60 % sent to reading every pending row for each claim, a quadratic
 * tail (docs/benchmarks.md, "Cost curves"). A send beyond the first that fills the limit may
 * have rows locked and left unclaimed until the statement ends; other workers skip them meanwhile.
 */
function claimStatement(
  limit: number,
  worker: string,
  leaseMs: number,
  after: { sendIds: number[]; ids: string[] } | null = null,
) {
  return db
    .with('c', (w) =>
      w
        .selectFrom('email_campaign_sends as s')
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('email_campaign_recipients as r')
              .select('r.id')
              .whereRef('r.send_id', '=', 's.id')
              .where('r.status', '=', sql.lit('pending'))
              .where('r.next_attempt_at', '<=', sql<Date>`now()`)
              .$if(after !== null, (qb) =>
                qb.where(
                  'r.id',
                  '>',
                  sql<string>`coalesce((SELECT a.after FROM unnest(${after?.sendIds}::int[], ${after?.ids}::bigint[]) AS a(send_id, after) WHERE a.send_id = ${sql.ref('s.id')}), 0)`,
                ),
              )
              .orderBy('r.id')
              .limit(limit)
              .forUpdate()
              .skipLocked()
              .as('p'),
          (join) => join.onTrue(),
        )
        .select('p.id')
        .where('s.status', '=', sql.lit('sending'))
        .orderBy('s.id')
        .orderBy('p.id')
        .limit(limit),
    )
    .updateTable('email_campaign_recipients as r')
    .from('c')
    .set((eb) => ({
      status: 'sending',
      attempts: eb('r.attempts', '+', 1),
      worker,
      lease_until: sql<Date>`now() + ${leaseMs} * interval '1 millisecond'`,
      sending_at: sql<Date>`now()`,
    }))
    .whereRef('r.id', '=', 'c.id')
    .returning([
      'r.id',
      'r.send_id',
      'r.email',
      'r.first_name',
      'r.last_name',
      'r.company',
      'r.attributes',
      'r.tracking_id',
      'r.attempts',
      'r.sending_at',
    ]);
}

async function claim(
  on: Queryable,
  limit: number,
  worker: string,
  leaseMs: number,
  cursors?: ClaimCursors,
): Promise<Claimed[]> {
  const after = cursors?.snapshot() ?? null;
  let claimed = (await rows(on, claimStatement(limit, worker, leaseMs, after))) as Claimed[];
  // Short past the cursors: the sends are draining, or rows behind them are due again.
  if (after && claimed.length < limit)
    claimed = claimed.concat(
      (await rows(on, claimStatement(limit - claimed.length, worker, leaseMs))) as Claimed[],
    );
  cursors?.advance(claimed);
  return claimed;
}

/**
 * Claims up to `batchSize` due recipients for `worker` (committed 'sending' with a lease before
 * any byte goes out). With a shared window, the room left in it is read and the claim recorded
 * in `email_send_ledger` in one transaction under an advisory lock, so replicas together never
 * claim more than the window allows; without one, a single statement and no lock.
 */
export async function claimRecipients(
  pool: pg.Pool,
  worker: string,
  o: { batchSize: number; leaseMs: number; window?: SendWindow | null },
  cursors?: ClaimCursors,
): Promise<Claimed[]> {
  const window = o.window;
  if (!window) return claim(pool, o.batchSize, worker, o.leaseMs, cursors);
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [WINDOW_LOCK]);
    const since = sql<Date>`now() - ${window.seconds} * interval '1 second'`;
    const ledger = await firstRow(
      client,
      db
        .with('gone', (w) => w.deleteFrom('email_send_ledger').where('claimed_at', '<=', since))
        .selectFrom('email_send_ledger')
        .select((eb) => sql<number>`coalesce(sum(${eb.ref('messages')}), 0)::int`.as('used'))
        .where('claimed_at', '>', since),
    );
    const room = window.messages - (ledger?.used ?? 0);
    if (room <= 0) return [];
    const claimed = await claim(client, Math.min(o.batchSize, room), worker, o.leaseMs, cursors);
    if (claimed.length)
      await execute(client, db.insertInto('email_send_ledger').values({ messages: claimed.length }));
    return claimed;
  });
}

export class DeliveryRepository {
  private readonly cursors = new ClaimCursors();

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  /** Claims a batch for `worker` (see claimRecipients). */
  claim(
    worker: string,
    o: { batchSize: number; leaseMs: number; window?: SendWindow | null },
  ): Promise<Claimed[]> {
    return claimRecipients(this.pool, worker, o, this.cursors);
  }

  /**
   * One statement settles the batch (the rows are what Sent mail lists of campaign mail, with
   * the transport that had them); tracking rows follow in the same transaction. Only rows
   * `worker` claimed are settled.
   */
  async settle(worker: string, outcomes: Outcome[], transport: string): Promise<void> {
    if (!outcomes.length) return;
    await inTransaction(this.pool, async (client) => {
      // A row the reaper already called unknown (this worker's lease ran out while it worked)
      // is settled with what really happened. A send that was finished meanwhile (completed on
      // unknown rows, or cancelled while these were in flight) answers from `finished`: its
      // counts are taken again below. Its row is share-locked (`s`) so a cancel, which locks it
      // before counting, counts after this commits or is seen here as cancelled: never neither.
      const { rows: finished } = await client.query<{ send_id: number }>(
        `WITH s AS (
           SELECT "id", "status"::text AS status FROM "email_campaign_sends" WHERE "id" = ANY($7::int[]) FOR SHARE
         ), o AS (
           SELECT r."id" FROM "email_campaign_recipients" r
           WHERE r."id" = ANY($1::bigint[]) AND r."worker" = $6 AND r."status" IN ('sending', 'unknown')
           FOR UPDATE
         ), settled AS (
           UPDATE "email_campaign_recipients" r SET
             "status" = v.status::"mail_status", "last_error" = v.err,
             "sent_at" = CASE WHEN v.status = 'sent' THEN now() ELSE r."sent_at" END,
             "next_attempt_at" = now() + v.delay_ms * interval '1 millisecond',
             "attempts" = r."attempts" + v.adj, "lease_until" = NULL, "transport" = $8,
             "provider_message_id" = coalesce(v.provider_id, r."provider_message_id")
           FROM unnest($1::bigint[], $2::text[], $3::text[], $4::float8[], $5::int[], $9::text[])
             AS v(id, status, err, delay_ms, adj, provider_id), o
           WHERE r."id" = v.id AND o."id" = r."id"
           RETURNING r."send_id"
         )
         SELECT DISTINCT st."send_id" FROM settled st JOIN s ON s."id" = st."send_id"
         WHERE s.status IN ('done', 'cancelled')`,
        [
          outcomes.map((o) => o.id),
          outcomes.map((o) => o.status),
          outcomes.map((o) => o.error?.slice(0, 500) ?? null),
          outcomes.map((o) => o.delayMs),
          outcomes.map((o) => o.attemptAdj),
          worker,
          [...new Set(outcomes.map((o) => o.sendId))],
          transport,
          // Shorter than the others (none kept): unnest pads it with nulls.
          outcomes.some((o) => o.providerId !== null) ? outcomes.map((o) => o.providerId) : [],
        ],
      );
      if (finished.length)
        await recountFinished(
          client,
          finished.map((r) => r.send_id),
        );
      const done = outcomes.filter((o) => o.status !== 'pending');
      if (done.length)
        await client.query(
          `UPDATE "email_tracking" t SET "status" = CASE WHEN t."status" = 'bounced' THEN t."status" ELSE v.status END,
             "error_message" = v.err,
             "sent_at" = CASE WHEN v.status = 'sent' THEN now() ELSE t."sent_at" END, "updated_at" = now()
           FROM unnest($1::text[], $2::text[], $3::text[]) AS v(tid, status, err) WHERE t."tracking_id" = v.tid`,
          [
            done.map((o) => o.trackingId),
            done.map((o) => o.status),
            done.map((o) => o.error?.slice(0, 500) ?? null),
          ],
        );
    });
  }

  /** The cooling period: no campaign goes out for 24 hours; sending campaigns are paused. */
  async block(reason: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO "email_send_blocks" ("reason", "blocked_until")
         SELECT $1, now() + $2 * interval '1 hour'
         WHERE NOT EXISTS (SELECT 1 FROM "email_send_blocks" WHERE "blocked_until" > now())`,
        [reason.slice(0, 500), CONNECTION_FAILURE_COOLDOWN_HOURS],
      );
      // A test-mode send belongs to no campaign state an admin could resume: it stops here,
      // counted as it ends. Locked first: the count then sees every settle that held its row
      // (a settle after this sees it cancelled and counts again).
      await client.query(`SELECT 1 FROM "email_campaign_sends" WHERE "status" = 'sending' FOR UPDATE`);
      const counted = (status: string) =>
        `CASE WHEN s."test_mode" THEN (SELECT count(*)::int FROM "email_campaign_recipients" r
           WHERE r."send_id" = s."id" AND r."status" = '${status}') ELSE s."${status}_count" END`;
      await client.query(
        `UPDATE "email_campaign_sends" s SET
           "status" = CASE WHEN s."test_mode" THEN 'cancelled'::"campaign_send_status" ELSE 'paused'::"campaign_send_status" END,
           "finished_at" = CASE WHEN s."test_mode" THEN now() ELSE s."finished_at" END,
           "sent_count" = ${counted('sent')}, "failed_count" = ${counted('failed')},
           "unknown_count" = ${counted('unknown')}
         WHERE s."status" = 'sending'`,
      );
      await client.query(
        `UPDATE "email_campaigns" SET "status" = 'paused', "updated_at" = now() WHERE "status" = 'sending'`,
      );
    });
    this.logger.error(
      { reason, hours: CONNECTION_FAILURE_COOLDOWN_HOURS },
      'mail server unreachable: campaign sending blocked for the cooling period; sending campaigns paused',
    );
  }

  /**
   * Rows whose worker died mid-send: unknown, never resent. Answers how many. One transaction
   * marks them and their tracking rows (Sent mail lists the rows, with the Message-ID and Date
   * they carried): a worker that answers late waits for it, so its real outcome is the one that stays.
   */
  async reap(): Promise<number> {
    const reapedRows = await inTransaction(this.pool, async (client) => {
      const reaped = await rows(
        client,
        db
          .updateTable('email_campaign_recipients')
          .set({
            status: 'unknown',
            lease_until: null,
            last_error:
              'the sender stopped while sending (lease expired): it may or may not have gone out; not resent',
          })
          .where('status', '=', sql.lit('sending'))
          .where('lease_until', '<', sql<Date>`now()`)
          .returning(['send_id', 'tracking_id']),
      );
      if (!reaped.length) return reaped;
      await execute(
        client,
        db
          .updateTable('email_tracking')
          .set({ status: 'unknown', updated_at: sql<Date>`now()` })
          .where('tracking_id', '=', (eb) => eb.fn.any(eb.val(reaped.map((r) => r.tracking_id)))),
      );
      // A send cancelled while these were in flight counted them as neither: counted again.
      const finished = await rows(
        client,
        db
          .selectFrom('email_campaign_sends')
          .select('id')
          .where('id', '=', (eb) => eb.fn.any(eb.val([...new Set(reaped.map((r) => r.send_id))])))
          .where('status', 'in', ['done', 'cancelled'])
          .forShare(),
      );
      if (finished.length)
        await recountFinished(
          client,
          finished.map((r) => r.id),
        );
      return reaped;
    });
    if (reapedRows.length)
      this.logger.warn(
        { count: reapedRows.length },
        'campaign recipients with an expired lease marked unknown',
      );
    return reapedRows.length;
  }

  /**
   * Sends with nothing pending or sending left: done, the campaign sent, `email.campaign.sent`
   * enqueued, in one transaction. The conditional UPDATE lets exactly one caller win; each
   * send this caller completed is told to `onCompleted`. Answers how many.
   */
  async completeFinished(sendIds?: number[], onCompleted?: (sendId: number) => void): Promise<number> {
    const candidates = await rows(
      this.pool,
      db
        .selectFrom('email_campaign_sends as s')
        .select('s.id')
        .where('s.status', '=', 'sending')
        .$if(sendIds !== undefined, (qb) => qb.where('s.id', '=', (eb) => eb.fn.any(eb.val(sendIds ?? []))))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('email_campaign_recipients as r')
                .select(sql.lit(1).as('one'))
                .whereRef('r.send_id', '=', 's.id')
                .where('r.status', 'in', ['pending', 'sending']),
            ),
          ),
        ),
    );
    let completed = 0;
    for (const { id } of candidates) {
      const won = await inTransaction(this.pool, async (client) => {
        const { rows } = await client.query<{
          campaign_id: number;
          total: number;
          test_mode: boolean;
          sent: number;
          failed: number;
          unknown: number;
          finished_at: Date;
        }>(
          `UPDATE "email_campaign_sends" s SET "status" = 'done', "finished_at" = now(),
             "sent_count" = x.sent, "failed_count" = x.failed, "unknown_count" = x.unknown
           FROM (SELECT count(*) FILTER (WHERE "status" = 'sent')::int AS sent,
                        count(*) FILTER (WHERE "status" = 'failed')::int AS failed,
                        count(*) FILTER (WHERE "status" = 'unknown')::int AS unknown
                 FROM "email_campaign_recipients" WHERE "send_id" = $1) x
           WHERE s."id" = $1 AND s."status" = 'sending'
             AND NOT EXISTS (SELECT 1 FROM "email_campaign_recipients" r
                             WHERE r."send_id" = $1 AND r."status" IN ('pending', 'sending'))
           RETURNING s."campaign_id", s."total", s."test_mode", x.sent, x.failed, x.unknown, s."finished_at"`,
          [id],
        );
        const s = rows[0];
        if (!s) return false;
        // A test-mode send changes nothing of the campaign (its counts are the live sends').
        const camp = await firstRow(
          client,
          s.test_mode
            ? db
                .selectFrom('email_campaigns')
                .select(['name', 'newsletter_id'])
                .where('id', '=', s.campaign_id)
            : db
                .updateTable('email_campaigns')
                .set((eb) => ({
                  status: 'sent',
                  sent_at: s.finished_at,
                  updated_at: sql<Date>`now()`,
                  sent_count: eb('sent_count', '+', s.sent),
                  total_recipients: eb('total_recipients', '+', s.total),
                }))
                .where('id', '=', s.campaign_id)
                .returning(['name', 'newsletter_id']),
        );
        const newsletterId = camp?.newsletter_id ?? null;
        const newsletter =
          newsletterId === null
            ? undefined
            : await firstRow(
                client,
                db.selectFrom('newsletters').select(['name', 'blog_post_id']).where('id', '=', newsletterId),
              );
        if (newsletter) {
          // A newsletter's companion campaign: the newsletter went out (not a campaign).
          await enqueueEvent(pgExecutor(client), 'email.newsletter.sent', {
            newsletterId: String(newsletterId),
            name: newsletter.name,
            blogPostId: newsletter.blog_post_id,
            recipients: s.total,
            sent: s.sent,
            failed: s.failed + s.unknown,
            test: s.test_mode,
            sentAt: s.finished_at.toISOString(),
          });
        } else {
          await enqueueEvent(pgExecutor(client), 'email.campaign.sent', {
            campaignId: String(s.campaign_id),
            name: camp?.name ?? '',
            recipients: s.total,
            sent: s.sent,
            failed: s.failed + s.unknown,
            test: s.test_mode,
            sentAt: s.finished_at.toISOString(),
          });
        }
        this.logger.info(
          { campaignId: s.campaign_id, sendId: id, sent: s.sent, failed: s.failed, unknown: s.unknown },
          'campaign send finished',
        );
        return true;
      });
      if (won) {
        completed++;
        onCompleted?.(id);
      }
    }
    return completed;
  }
}

/**
 * A finished send's counts taken again from its rows (a row settled or reaped after it was
 * completed or cancelled), and its campaign's running totals moved by the difference (a live
 * send added its counts to the campaign when it finished; a test-mode send never does).
 * Needs PostgreSQL 18 (RETURNING old/new).
 */
async function recountFinished(client: pg.PoolClient, sendIds: number[]): Promise<void> {
  await client.query(
    `WITH x AS (
       SELECT "send_id", count(*) FILTER (WHERE "status" = 'sent')::int AS sent,
              count(*) FILTER (WHERE "status" = 'failed')::int AS failed,
              count(*) FILTER (WHERE "status" = 'unknown')::int AS unknown
       FROM "email_campaign_recipients" WHERE "send_id" = ANY($1::int[]) GROUP BY "send_id"
     ), u AS (
       UPDATE "email_campaign_sends" s SET
         "sent_count" = x.sent, "failed_count" = x.failed, "unknown_count" = x.unknown
       FROM x WHERE s."id" = x."send_id" AND s."status" IN ('done', 'cancelled')
       RETURNING s."campaign_id", s."test_mode", new."sent_count" - old."sent_count" AS delta
     )
     UPDATE "email_campaigns" c SET "sent_count" = c."sent_count" + d.delta
     FROM (SELECT "campaign_id", sum(delta)::int AS delta FROM u WHERE NOT "test_mode" GROUP BY 1) d
     WHERE c."id" = d."campaign_id" AND d.delta <> 0`,
    [sendIds],
  );
}
