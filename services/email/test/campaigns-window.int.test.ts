import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claimRecipients } from '../src/features/campaigns/delivery.repository.ts';
import { type EmailUnderTest, startEmail } from './mail-peers.ts';

/**
 * The sliding window shared by every replica: claims made at once by several workers (each its
 * own connection, as separate replicas are) never take more than the window's room, and the
 * room comes back as the window slides. The instance sends nothing itself (CAMPAIGN_WORKER
 * off): the test claims, so what is counted is exactly what was claimed.
 */

let t: EmailUnderTest;
let db: pg.Pool;

beforeAll(async () => {
  t = await startEmail('email_window', { CAMPAIGN_WORKER: 'false', CAMPAIGN_TICK_MS: '600000' });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 8 });
}, 60_000);

afterAll(async () => {
  await db?.end();
  await t?.stop();
});

it('replicas claiming at once stay inside the shared window, which slides', async () => {
  const book = (
    await db.query<{ id: number }>(`INSERT INTO "address_books" ("name") VALUES ('Window') RETURNING "id"`)
  ).rows[0]?.id as number;
  await db.query(
    `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name")
     SELECT $1, 'w' || i || '@window.example', 'W' || i FROM generate_series(1, 50) i`,
    [book],
  );
  const admin = await t.admin();
  const c = await t.call(
    'POST',
    '/api/admin/email/campaigns',
    {
      name: 'Window',
      subject: 'Hi {{firstName}}',
      fromName: 'Parley',
      fromEmail: 'news@parley.test',
      htmlContent: '<p>Hi</p>',
      targetAddressBooks: [book],
    },
    admin,
  );
  expect(c.status, c.text).toBe(201);
  const sent = await t.call(
    'POST',
    `/api/admin/email/campaigns/${c.json.id}/send`,
    { confirmSend: true },
    admin,
  );
  expect(sent.status, sent.text).toBe(200);

  const window = { messages: 30, seconds: 600 };
  const claim = (worker: string) => claimRecipients(db, worker, { batchSize: 12, leaseMs: 60_000, window });
  // Six workers at once, each asking for 12: 72 asked, 30 allowed.
  const first = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map(claim));
  const taken = first.flat();
  expect(taken).toHaveLength(30);
  expect(new Set(taken.map((r) => r.id)).size).toBe(30);
  expect((await claim('g')).length).toBe(0);
  const ledger = await db.query<{ n: number }>(`SELECT sum("messages")::int AS n FROM "email_send_ledger"`);
  expect(ledger.rows[0]?.n).toBe(30);

  // Ten minutes later (the ledger's clock moved back): the room is back, the rest is claimed.
  await db.query(`UPDATE "email_send_ledger" SET "claimed_at" = "claimed_at" - interval '601 seconds'`);
  const second = (await Promise.all(['a', 'b', 'c'].map(claim))).flat();
  expect(second).toHaveLength(20);
  expect(new Set([...taken, ...second].map((r) => r.id)).size).toBe(50);
  // Rows that left the window are pruned by the next claim.
  const rows = await db.query<{ n: number }>(`SELECT sum("messages")::int AS n FROM "email_send_ledger"`);
  expect(rows.rows[0]?.n).toBe(20);

  // Without a window, one claim takes its whole batch.
  await db.query(`UPDATE "email_campaign_recipients" SET "status" = 'pending', "worker" = NULL`);
  expect((await claimRecipients(db, 'z', { batchSize: 45, leaseMs: 60_000 })).length).toBe(45);
}, 60_000);
