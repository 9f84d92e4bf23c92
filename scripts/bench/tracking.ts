/**
 * Email tracking through the gateway: open pixels and click redirects mixed (70 / 30), as
 * mail clients hit them, against `pnpm start --distributed` (each service its own process).
 * Targets: ≥ 5,000 rps, p99 < 20 ms, and the books balance: every hit answered (200 pixel,
 * 302 redirect) is one row in email_events once the write-behind buffer has flushed.
 * The mails are made campaign mails (a sent campaign of their own), so every batch of hits
 * goes through the analytics rollups' triggers as a campaign's opens do (ADR 0067).
 * BENCH_ROLLUPS=compare adds two rounds through the gateway with those triggers off, then on,
 * with PostgreSQL's CPU per hit: the rollups' cost to tracking.
 * Exits non-zero when a target is missed.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { parentOf, serverCpuSeconds } from './_cpu.ts';
import { setRollupTriggers, startWithEmailDatabase, trackedMails } from './_seed.ts';

/** Requests of the measured run (bounded by count, so every answer is in the books). */
const amount = Number(process.env.BENCH_REQUESTS ?? 50_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const MAILS = 40;
const { platform, db, cookie } = await startWithEmailDatabase();
let failed = true;
try {
  const base = platform.url;

  // Real mails, each with its own signed pixel and tracked link, taken from the sent MIME.
  const paths = await trackedMails(base, cookie, MAILS);
  // Campaign mail, sent: its opens and clicks count in the analytics rollups.
  const campaign = await db.query<{ id: number }>(
    `INSERT INTO "email_campaigns" ("name", "subject", "from_name", "from_email", "status", "sent_at", "tracking_id",
       "target_address_books")
     VALUES ('Tracking bench', 'Bench', 'Parley', 'news@bench.test', 'sent', now(), 'bench-tracking', '[]') RETURNING "id"`,
  );
  await db.query(
    `UPDATE "email_tracking" SET "campaign_id" = $1, "sent_at" = coalesce("sent_at", now()) WHERE "campaign_id" IS NULL`,
    [String(campaign.rows[0]?.id)],
  );
  const ua =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
  // 7 opens and 3 clicks in every 10 requests, spread over the mails.
  const requests = Array.from({ length: MAILS * 10 }, (_, i) => {
    const p = paths[i % MAILS]!;
    return { method: 'GET' as const, path: i % 10 < 7 ? p.open : p.click, headers: { 'user-agent': ua } };
  });

  const answered = { 200: 0, 302: 0, other: 0 };
  const run = async (n: number, url = base) => {
    const r = await autocannon({ url, connections, amount: n, requests });
    for (const [code, n] of Object.entries(r.statusCodeStats ?? {})) {
      const count = (n as { count: number }).count;
      if (code === '200') answered[200] += count;
      else if (code === '302') answered[302] += count;
      else answered.other += count;
    }
    return r;
  };
  await run(5000); // warm-up (its hits are in the books too)
  // The email service alone (its own address), for comparison: how much the gateway hop costs.
  const upstreams = JSON.parse(readFileSync(join(platform.dataDir, 'upstreams.json'), 'utf8')) as Record<
    string,
    string
  >;
  const direct = await run(Math.round(amount / 2), upstreams.EMAIL_URL);
  const r = await run(amount);
  if (process.env.BENCH_ROLLUPS === 'compare') {
    const backend = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]
      ?.pid as number;
    const postmaster = parentOf(backend) as number;
    for (let round = 1; round <= 2; round++) {
      const figures: string[] = [];
      for (const on of [false, true]) {
        await setRollupTriggers(db, on);
        const cpu0 = serverCpuSeconds(postmaster);
        const x = await run(amount);
        const us = ((serverCpuSeconds(postmaster) - cpu0) / x.requests.total) * 1e6;
        figures.push(
          `${on ? 'with' : 'without'} the triggers ${Math.round(x.requests.total / x.duration)} rps, p99 ${x.latency.p99} ms, PostgreSQL ${us.toFixed(0)} µs a hit`,
        );
      }
      console.log(`rollups round ${round}: ${figures.join('; ')}`);
    }
    await setRollupTriggers(db, true);
  }
  const hits = answered[200] + answered[302];

  // The books: wait for the buffer to flush, then count.
  let stored = 0;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    stored = Number(
      (await db.query(`SELECT count(*) AS n FROM "email_events" WHERE "event_type" IN ('open', 'click')`))
        .rows[0].n,
    );
    if (stored >= hits) break;
    await new Promise((res) => setTimeout(res, 250));
  }
  const counters = (
    await db.query(
      `SELECT sum("open_count" + "proxy_open_count")::int AS opens, sum("click_count")::int AS clicks FROM "email_tracking"`,
    )
  ).rows[0] as { opens: number; clicks: number };

  // Requests over the run's wall time (autocannon's per-second average is coarse for short runs).
  const rps = Math.round(r.requests.total / r.duration);
  const p99 = r.latency.p99;
  console.table([
    {
      run: `the same, direct to the email service, ${Math.round(amount / 2)} requests`,
      rps: Math.round(direct.requests.total / direct.duration),
      p50_ms: direct.latency.p50,
      p99_ms: direct.latency.p99,
      errors: direct.errors + direct.timeouts,
    },
    {
      run: `opens + clicks through the gateway, ${connections} connections, ${amount} requests`,
      rps,
      p50_ms: r.latency.p50,
      p99_ms: p99,
      errors: r.errors + r.timeouts,
    },
  ]);
  console.log(
    `books: ${hits} hits answered (${answered[200]} pixels, ${answered[302]} redirects, ${answered.other} other) = ${stored} events stored; counters ${counters.opens} opens + ${counters.clicks} clicks`,
  );
  const checks = [
    { name: 'rps ≥ 5,000', ok: rps >= 5000 },
    { name: 'p99 < 20 ms', ok: p99 < 20 },
    {
      name: 'no errors or unexpected answers',
      ok: r.errors + r.timeouts + direct.errors + direct.timeouts === 0 && answered.other === 0,
    },
    { name: 'hits answered = events stored', ok: stored === hits },
    { name: 'counters = events', ok: counters.opens + counters.clicks === hits },
  ];
  for (const c of checks) console.log(`${c.ok ? 'PASS' : 'FAIL'} ${c.name}`);
  failed = !checks.every((c) => c.ok);
} finally {
  await db.end();
  await platform.stop();
}
// Explicitly: a library's exit hook must not turn a missed target into success.
process.exit(failed ? 1 : 0);
