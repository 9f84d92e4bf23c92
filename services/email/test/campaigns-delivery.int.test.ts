import { createLogger, migrate } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type Claimed,
  DeliveryRepository,
  type Outcome,
} from '../src/features/campaigns/delivery.repository.ts';

/**
 * The delivery repository alone (src/features/campaigns/delivery.repository.ts), on the email
 * service's migrated schema with no service running: claimers at once never share a
 * recipient, a settle touches only its own worker's claims, a settled recipient is never
 * claimed again (a pending one is, when due), expired leases are reaped to unknown, and
 * exactly one completion marks the send done and enqueues its event.
 */

const MIGRATIONS = new URL('../prisma/migrations', import.meta.url).pathname;
const LEASE = { batchSize: 100, leaseMs: 60_000 };
let pool: pg.Pool;
let delivery: DeliveryRepository;

beforeAll(async () => {
  const url = await createTestDatabase('email_delivery');
  await migrate(url, MIGRATIONS);
  pool = new pg.Pool({ connectionString: url, max: 8 });
  delivery = new DeliveryRepository(pool, createLogger('delivery-test', 'silent'));
}, 60_000);

afterAll(async () => {
  await pool?.end();
});

let sends = 0;

/** A live campaign being sent to `n` recipients (with their tracking rows). */
async function sending(n: number): Promise<{ campaignId: number; sendId: number }> {
  const tag = `d${++sends}`;
  const campaignId = (
    await pool.query<{ id: number }>(
      `INSERT INTO "email_campaigns" ("name", "subject", "from_name", "from_email", "tracking_id", "status")
       VALUES ($1, 'Hi', 'Parley', 'news@parley.test', $1, 'sending') RETURNING "id"`,
      [tag],
    )
  ).rows[0]?.id as number;
  const sendId = (
    await pool.query<{ id: number }>(
      `INSERT INTO "email_campaign_sends" ("campaign_id", "kind", "status", "live", "total", "started_at")
       VALUES ($1, 'send', 'sending', true, $2, now()) RETURNING "id"`,
      [campaignId, n],
    )
  ).rows[0]?.id as number;
  await pool.query(`UPDATE "email_campaigns" SET "current_send_id" = $2 WHERE "id" = $1`, [
    campaignId,
    sendId,
  ]);
  await pool.query(
    `WITH r AS (
       INSERT INTO "email_campaign_recipients" ("send_id", "email", "email_key", "tracking_id")
       SELECT $1, $2 || '-' || i || '@x.test', $2 || '-' || i || '@x.test', $2 || '-t' || i
       FROM generate_series(1, $3::int) i RETURNING "tracking_id", "email_key")
     INSERT INTO "email_tracking" ("tracking_id", "campaign_id", "email") SELECT "tracking_id", $4, "email_key" FROM r`,
    [sendId, tag, n, String(campaignId)],
  );
  return { campaignId, sendId };
}

const outcome = (r: Claimed, status: Outcome['status'], delayMs = 0): Outcome => ({
  id: r.id,
  status,
  error: status === 'sent' ? null : `${status} here`,
  delayMs,
  attemptAdj: 0,
  trackingId: r.tracking_id,
  sendId: r.send_id,
  providerId: null,
});

/** A claim's rows in id order (RETURNING promises none). */
const byId = (rows: Claimed[]) => rows.toSorted((a, b) => Number(a.id) - Number(b.id));

const statuses = async (sendId: number) =>
  (
    await pool.query<{ email: string; status: string; worker: string | null; attempts: number }>(
      `SELECT "email", "status"::text, "worker", "attempts" FROM "email_campaign_recipients" WHERE "send_id" = $1 ORDER BY "id"`,
      [sendId],
    )
  ).rows;

it('claimers at once never get the same recipient, and take every one', async () => {
  const { sendId } = await sending(50);
  // Six workers, each its own repository (as replicas are), asking for 12 each: 72 asked, 50 there.
  const claims = await Promise.all(
    ['a', 'b', 'c', 'd', 'e', 'f'].map((w) =>
      new DeliveryRepository(pool, createLogger('delivery-test', 'silent')).claim(w, {
        batchSize: 12,
        leaseMs: 60_000,
      }),
    ),
  );
  const taken = claims.flat();
  expect(taken).toHaveLength(50);
  expect(new Set(taken.map((r) => r.id)).size).toBe(50);
  for (const c of claims) expect(c.length).toBeLessThanOrEqual(12);
  const rows = await statuses(sendId);
  expect(rows.every((r) => r.status === 'sending' && r.attempts === 1 && r.worker !== null)).toBe(true);
  expect(await delivery.claim('g', LEASE)).toEqual([]);
});

it("settles only its own worker's claims; a settled recipient is not claimed again, a pending one is when due", async () => {
  const { campaignId, sendId } = await sending(4);
  const batch = byId(await delivery.claim('a', LEASE));
  expect(batch).toHaveLength(4);
  const [r1, r2, r3, r4] = batch as [Claimed, Claimed, Claimed, Claimed];
  const outcomes = [
    outcome(r1, 'sent'),
    outcome(r2, 'failed'),
    outcome(r3, 'pending'),
    outcome(r4, 'pending', 3_600_000),
  ];

  // Another worker's settle changes nothing.
  await delivery.settle('b', outcomes, 'smtp');
  expect((await statuses(sendId)).map((r) => r.status)).toEqual(['sending', 'sending', 'sending', 'sending']);

  await delivery.settle('a', outcomes, 'smtp');
  expect((await statuses(sendId)).map((r) => r.status)).toEqual(['sent', 'failed', 'pending', 'pending']);
  const tracking = await pool.query<{ status: string }>(
    `SELECT "status" FROM "email_tracking" WHERE "tracking_id" = ANY($1::text[]) ORDER BY "tracking_id"`,
    [[r1.tracking_id, r2.tracking_id]],
  );
  expect(tracking.rows.map((r) => r.status)).toEqual(['sent', 'failed']);

  // Only the pending row that is due comes back; the sent and failed ones never do.
  const again = await delivery.claim('c', LEASE);
  expect(again.map((r) => r.id)).toEqual([r3.id]);
  expect(again[0]?.attempts).toBe(2);
  expect(await delivery.completeFinished([sendId])).toBe(0);
  await delivery.settle('c', [outcome(again[0] as Claimed, 'sent')], 'smtp');
  await pool.query(`UPDATE "email_campaign_recipients" SET "next_attempt_at" = now() WHERE "id" = $1`, [
    r4.id,
  ]);
  const last = await delivery.claim('d', LEASE);
  expect(last.map((r) => r.id)).toEqual([r4.id]);
  await delivery.settle('d', [outcome(last[0] as Claimed, 'sent')], 'smtp');
  expect(await delivery.claim('e', LEASE)).toEqual([]);

  // Nothing pending or sending: exactly one completion, with its event.
  const told: number[] = [];
  const [one, two] = await Promise.all([
    delivery.completeFinished([sendId], (id) => told.push(id)),
    delivery.completeFinished([sendId], (id) => told.push(id)),
  ]);
  expect(one + two).toBe(1);
  expect(told).toEqual([sendId]);
  const send = await pool.query(
    `SELECT "status"::text, "sent_count", "failed_count", "unknown_count" FROM "email_campaign_sends" WHERE "id" = $1`,
    [sendId],
  );
  expect(send.rows[0]).toEqual({ status: 'done', sent_count: 3, failed_count: 1, unknown_count: 0 });
  const campaign = await pool.query(
    `SELECT "status"::text, "sent_count" FROM "email_campaigns" WHERE "id" = $1`,
    [campaignId],
  );
  expect(campaign.rows[0]).toEqual({ status: 'sent', sent_count: 3 });
  const events = await pool.query<{ payload: { campaignId: string; sent: number; failed: number } }>(
    `SELECT "payload" FROM "outbox_events" WHERE "subject" = 'email.campaign.sent' AND "payload"->>'campaignId' = $1`,
    [String(campaignId)],
  );
  expect(events.rows.map((r) => r.payload)).toEqual([
    expect.objectContaining({ campaignId: String(campaignId), sent: 3, failed: 1 }),
  ]);
});

it('claims past its cursor first; a row pending again behind it comes out once the rows ahead run short', async () => {
  const { sendId } = await sending(6);
  const own = new DeliveryRepository(pool, createLogger('delivery-test', 'silent'));
  const two = { batchSize: 2, leaseMs: 60_000 };
  const ids = (rows: Claimed[]) => byId(rows).map((r) => r.id);
  const first = byId(await own.claim('a', two));
  const all = (
    await pool.query<{ id: string }>(
      `SELECT "id" FROM "email_campaign_recipients" WHERE "send_id" = $1 ORDER BY "id"`,
      [sendId],
    )
  ).rows.map((r) => r.id);
  expect(first.map((r) => r.id)).toEqual(all.slice(0, 2));
  // The first goes back to pending, due at once (a retry); the second is sent.
  await own.settle(
    'a',
    [outcome(first[0] as Claimed, 'pending'), outcome(first[1] as Claimed, 'sent')],
    'smtp',
  );
  expect(ids(await own.claim('a', two))).toEqual(all.slice(2, 4));
  expect(ids(await own.claim('a', two))).toEqual(all.slice(4, 6));
  // Nothing left ahead: the retry behind the cursor comes out last.
  const retry = await own.claim('a', two);
  expect(ids(retry)).toEqual([all[0]]);
  expect(retry[0]?.attempts).toBe(2);
  expect(await own.claim('a', two)).toEqual([]);
  expect(await delivery.claim('b', two)).toEqual([]);
  await pool.query(`UPDATE "email_campaign_sends" SET "status" = 'done' WHERE "id" = $1`, [sendId]);
});

it('reaps expired leases to unknown, never claimed again; the late worker still settles what happened', async () => {
  const { sendId } = await sending(2);
  const batch = byId(await delivery.claim('a', LEASE));
  expect(batch).toHaveLength(2);
  expect(await delivery.reap()).toBe(0);
  await pool.query(
    `UPDATE "email_campaign_recipients" SET "lease_until" = now() - interval '1 second' WHERE "send_id" = $1`,
    [sendId],
  );
  expect(await delivery.reap()).toBe(2);
  expect((await statuses(sendId)).map((r) => r.status)).toEqual(['unknown', 'unknown']);
  expect(await delivery.claim('b', LEASE)).toEqual([]);
  await delivery.settle('a', [outcome(batch[0] as Claimed, 'sent')], 'smtp');
  expect((await statuses(sendId)).map((r) => r.status)).toEqual(['sent', 'unknown']);
  expect(await delivery.completeFinished([sendId])).toBe(1);
});
