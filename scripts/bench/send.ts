/**
 * `pnpm bench send`: one campaign to 100,000 recipients (personalised HTML + text, tracked
 * links and the open pixel, List-Unsubscribe) through the email service's sender workers into
 * Postfix's smtp-sink, with 1 and then 2 worker processes (services/email/src/main.ts, each
 * its own Node process, sharing the send through the database), and Postfix's smtp-source
 * into the same sink as the raw limit of this machine. Prints msgs/s of each and the ratios.
 * Targets: ≥ 3,000 msgs/s with 2 workers, ≥ 0.5 of smtp-source's rate, and the sink's count
 * equal to the recipients of each run. Exits non-zero when one is missed.
 *
 * After the 2-worker run, the campaign's delivery log and Sent mail at that size: a first page,
 * a page in the middle, filtered pages and the full CSV export through the API (median of 3),
 * and what Sent mail's rows of the campaign take on disk (docs/benchmarks.md).
 *
 * `pnpm bench send --newsletter`: the same through the newsletter path (#15): a blog post of the
 * email service's blog copy converted with the 'standard' template, sent to the audience 'all'
 * (every active contact, resolved by the sender's SQL) by way of its companion campaign; the
 * same workers, the same sink, the same measure (launch to status sent).
 *
 * Each run also prints the CPU it cost (the workers', PostgreSQL's): a figure a shared, busy
 * machine disturbs far less than msgs/s.
 *
 * BENCH_ROLLUPS=compare adds two rounds of 2 workers with the analytics rollups' triggers off
 * and then on (docs/adr/0067-analytics-from-rollups.md): the rollups' cost to a send.
 *
 * smtp-sink/smtp-source come from `scripts/tools.sh --postfix` (.tools/postfix).
 * BENCH_RECIPIENTS (default 100000), BENCH_SOURCE_MESSAGES (default 20000); BENCH_WORKER_NODE_ARGS
 * adds Node options to the worker processes (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 * BENCH_SOURCE_MESSAGES=0 leaves smtp-source (and its ratio) out, BENCH_SEND_ONE_WORKER=0 the
 * 1-worker run, BENCH_SEND_LOGS=0 the delivery log and Sent mail (`pnpm bench scale` runs the
 * 2-worker send alone). Each run also gives the workers' peak RSS; the last line,
 * `BENCH_RESULT {…}`, carries the figures `pnpm bench scale` reads.
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, signAssertion, startService } from '@parley/kit';
import { freePort, startEmbeddedPostgres, startNatsServer, withDatabase } from '@parley/kit/local';
import pg from 'pg';
import { emailService } from '../../services/email/src/service.ts';
import { repoRoot } from '../lib/paths.ts';
import { rssWatch } from './_audience.ts';
import { cpuSeconds, parentOf, serverCpuSeconds } from './_cpu.ts';
import { setRollupTriggers } from './_seed.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const NEWSLETTER = process.argv.includes('--newsletter');
const LABEL = NEWSLETTER ? 'send (newsletter)' : 'send';
const SOURCE_MESSAGES = Number(process.env.BENCH_SOURCE_MESSAGES ?? 20_000);
const postfix = join(repoRoot, '.tools/postfix');
const pfEnv = { ...process.env, LD_LIBRARY_PATH: join(postfix, 'usr/lib/postfix') };
const asRoot = process.getuid?.() === 0;

const tools = spawnSync('bash', [join(repoRoot, 'scripts/tools.sh'), '--postfix'], { stdio: 'inherit' });
if (tools.status !== 0) process.exit(1);

const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
let failed = true;

/**
 * smtp-sink with its running counter (`-c`: `mesg=N` after every message) written to a file, read
 * when a count is wanted. A pipe would wake this process for every message: on these two cores
 * that cost the workers being measured about a tenth of the machine.
 */
async function startSink() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'parley-sink-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const counter = join(dir, 'counter');
  const out = openSync(counter, 'w');
  const child = spawn(
    join(postfix, 'usr/sbin/smtp-sink'),
    [...(asRoot ? ['-u', 'nobody'] : []), '-c', `127.0.0.1:${port}`, '1000'],
    { env: pfEnv, stdio: ['ignore', out, 'inherit'] },
  );
  closeSync(out);
  children.push(child);
  const count = () => {
    const fd = openSync(counter, 'r');
    try {
      const size = fstatSync(fd).size;
      const tail = Buffer.alloc(Math.min(size, 256));
      readSync(fd, tail, 0, tail.length, size - tail.length);
      const all = [...tail.toString('latin1').matchAll(/mesg=(\d+)/g)];
      return Number(all[all.length - 1]?.[1] ?? 0);
    } finally {
      closeSync(fd);
    }
  };
  await new Promise((r) => setTimeout(r, 300));
  return { port, count };
}

const pgServer = await startEmbeddedPostgres();
cleanups.push(() => pgServer.stop());
const nats = await startNatsServer();
cleanups.push(() => nats.dispose());
try {
  const admin = new pg.Client({ connectionString: pgServer.adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE parley_email_bench');
  await admin.end();
  const databaseUrl = withDatabase(pgServer.adminUrl, 'parley_email_bench');
  const sink = await startSink();
  const env = {
    DATABASE_URL: databaseUrl,
    NATS_URL: nats.url,
    INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
    SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    EMAIL_SIGNING_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_ORIGIN: 'https://parley.bench',
    LOG_LEVEL: 'error',
    CAMPAIGN_TICK_MS: '500',
    // Up to six launches in a run (BENCH_ROLLUPS=compare): past the spec's two an hour.
    CAMPAIGN_LIVE_SENDS_PER_HOUR: '20',
  };
  // The API instance (in this process) launches; it sends nothing itself.
  const api = await startService(emailService, {
    env: { ...env, CAMPAIGN_WORKER: 'false' },
    logger: createLogger('email-bench', 'error'),
    listen: { host: '127.0.0.1', port: 0 },
  });
  cleanups.unshift(() => api.stop());
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  cleanups.unshift(() => db.end());
  // The PostgreSQL server's postmaster: the parent of any backend.
  const backend = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid as number;
  const postmaster = parentOf(backend) as number;
  await db.query(
    `INSERT INTO "mail_settings" ("key", "category", "value", "version", "updated_at")
     VALUES ('smtp_host', 'smtp', '127.0.0.1', 1, now()), ('smtp_port', 'smtp', $1, 1, now())`,
    [String(sink.port)],
  );
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "address_books" ("name") VALUES ('Bench') RETURNING "id"`,
  );
  const bookId = rows[0]?.id as number;
  await db.query(
    `INSERT INTO "email_contacts" ("address_book_id", "email", "first_name", "last_name", "company")
     SELECT $1, 'reader' || i || '@bench.example', 'Reader' || i, 'Benchmark', 'Company ' || (i % 500)
     FROM generate_series(1, $2) i`,
    [bookId, RECIPIENTS],
  );
  const headers = {
    'content-type': 'application/json',
    'x-parley-assertion': await signAssertion(
      env.INTERNAL_AUTH_SECRET,
      { adminId: 'bench', role: 'admin' },
      3600,
    ),
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${api.url}${path}`, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await r.json()) as Record<string, unknown>;
    if (!r.ok) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(json)}`);
    return json;
  };
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif">
<h1>Hello {{firstName}} {{lastName}}</h1>
<p>We built something for {{company}}: answers every call, books meetings and follows up by email.</p>
${'<p>Voice agents that sound human, work all night and never put a caller on hold. </p>'.repeat(12)}
<p><a href="https://parley.bench/demo">Book a demo</a> · <a href="https://parley.bench/pricing">See pricing</a></p>
<p>Unsubscribe any time: <a href="{{unsubscribeUrl}}" data-no-track>unsubscribe</a></p>
</body></html>`;

  const runWith = async (workers: number) => {
    const procs: ChildProcess[] = [];
    for (let i = 0; i < workers; i++) {
      const nodeArgs = process.env.BENCH_WORKER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
      const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts'], {
        cwd: join(repoRoot, 'services/email'),
        env: {
          ...process.env,
          ...env,
          HOST: '127.0.0.1',
          PORT: '0',
          CAMPAIGN_BATCH_SIZE: '500',
          CAMPAIGN_CONCURRENCY: '64',
          CAMPAIGN_SMTP_CONNECTIONS: '16',
          CAMPAIGN_POLL_MS: '50',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      procs.push(child);
    }
    // Let them start (migrations done, sender loop polling).
    await new Promise((r) => setTimeout(r, 8000));
    let campaignId = 0;
    let launch: () => Promise<unknown>;
    if (NEWSLETTER) {
      // A post of the blog copy (as the blog events leave it), converted by the service.
      const postId = `bench-post-${workers}`;
      await db.query(
        `INSERT INTO "newsletter_blog_posts" ("id", "slug", "title", "excerpt", "content", "author", "featured_image",
           "status", "published_at", "version_at")
         VALUES ($1, $2, $3, $4, $5, 'Parley Team', '/api/blog/images/cover.png', 'published', now(), now())`,
        [
          postId,
          `bench-post-${workers}`,
          `Voice agents that never put a caller on hold (${workers})`,
          'What a week of answered calls taught us about speed, tone and follow-up.',
          `<p>Every missed call is a lost customer.</p>${'<p>Voice agents that sound human, work all night and never put a caller on hold.</p>'.repeat(12)}`,
        ],
      );
      const n = await call('POST', `/api/admin/newsletters/convert-blog/${postId}`, {});
      const newsletterId = n.id as number;
      launch = async () => {
        const r = await call('POST', `/api/admin/newsletters/${newsletterId}/send`, {
          confirmSend: true,
          audience: { type: 'all' },
        });
        campaignId = (r.newsletter as { campaignId: number }).campaignId;
      };
    } else {
      const c = await call('POST', '/api/admin/email/campaigns', {
        name: `Bench ${workers} worker(s)`,
        subject: 'News for {{firstName}} at {{company}}',
        fromName: 'Parley',
        fromEmail: 'news@parley.bench',
        htmlContent: html,
        targetAddressBooks: [bookId],
      });
      campaignId = c.id as number;
      launch = () => call('POST', `/api/admin/email/campaigns/${campaignId}/send`, { confirmSend: true });
    }
    const before = sink.count();
    const watches = procs.map((p) => rssWatch(p.pid as number));
    const workerCpu0 = procs.reduce((sum, p) => sum + cpuSeconds(p.pid as number), 0);
    const pgCpu0 = serverCpuSeconds(postmaster);
    const t0 = performance.now();
    await launch();
    const launchSeconds = (performance.now() - t0) / 1000;
    for (;;) {
      const s = await db.query<{ status: string }>(`SELECT "status" FROM "email_campaigns" WHERE "id" = $1`, [
        campaignId,
      ]);
      if (s.rows[0]?.status === 'sent') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 500));
    const received = sink.count() - before;
    const outcome = await db.query<{ status: string; n: number }>(
      `SELECT r."status", count(*)::int AS n FROM "email_campaign_recipients" r JOIN "email_campaign_sends" s ON s."id" = r."send_id"
       WHERE s."campaign_id" = $1 GROUP BY 1`,
      [campaignId],
    );
    // CPU spent on the send (less disturbed by a busy machine than msgs/s): the worker
    // processes since their start (start-up included), PostgreSQL since the launch.
    const workerCpu = procs.reduce((sum, p) => sum + cpuSeconds(p.pid as number), 0);
    const pgCpu = serverCpuSeconds(postmaster) - pgCpu0;
    // The largest worker's peak resident memory over the send.
    const peakRssMb = Math.max(...watches.map((w) => w.stop().peakMb));
    for (const p of procs) {
      p.kill('SIGTERM');
      await new Promise((r) => p.once('exit', r));
    }
    return {
      workers,
      campaignId,
      seconds,
      launchSeconds,
      rate: RECIPIENTS / seconds,
      received,
      outcome: outcome.rows,
      workerCpu,
      /** The workers' CPU from the launch on (without their start-up). */
      workerCpuSend: workerCpu - workerCpu0,
      pgCpu,
      peakRssMb,
    };
  };

  const timed = async (path: string): Promise<{ ms: number; bytes: number; body: string }> => {
    const runs: Array<{ ms: number; bytes: number; body: string }> = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const r = await fetch(`${api.url}${path}`, { headers });
      const body = await r.text();
      if (!r.ok) throw new Error(`GET ${path} answered ${r.status}: ${body.slice(0, 300)}`);
      runs.push({ ms: performance.now() - t0, bytes: Buffer.byteLength(body), body });
    }
    runs.sort((a, b) => a.ms - b.ms);
    return runs[1] as { ms: number; bytes: number; body: string };
  };

  async function measureLogs(campaignId: number): Promise<void> {
    if (process.env.BENCH_SEND_LOGS === '0') return;
    await db.query(
      `UPDATE "email_tracking" SET
         "opened_at" = CASE WHEN abs(hashtext("tracking_id")) % 10 = 0 THEN now() END,
         "open_count" = CASE WHEN abs(hashtext("tracking_id")) % 10 = 0 THEN 1 ELSE 0 END,
         "clicked_at" = CASE WHEN abs(hashtext("tracking_id")) % 50 = 0 THEN now() END,
         "click_count" = CASE WHEN abs(hashtext("tracking_id")) % 50 = 0 THEN 1 ELSE 0 END,
         "bounced_at" = CASE WHEN abs(hashtext("tracking_id")) % 200 = 1 THEN now() END,
         "unsubscribed_at" = CASE WHEN abs(hashtext("tracking_id")) % 500 = 2 THEN now() END
       WHERE "campaign_id" = $1`,
      [String(campaignId)],
    );
    await db.query('ANALYZE "email_tracking"; ANALYZE "email_campaign_recipients"; ANALYZE "mail_messages"');
    const log = `/api/admin/email/campaigns/${campaignId}/delivery-log`;
    const deep = Buffer.from('reader50000@bench.example').toString('base64url');
    const cases: Array<[string, string]> = [
      ["delivery log, first page (with the send's figures)", `${log}?limit=50`],
      ['delivery log, a page in the middle (keyset)', `${log}?limit=50&after=${deep}`],
      ['delivery log, bounced (0.5 %)', `${log}?limit=50&status=bounced`],
      ['delivery log, opened (10 %)', `${log}?limit=50&opened=true`],
      ['delivery log, unsubscribed (0.2 %)', `${log}?limit=50&unsubscribed=true`],
      ['delivery log, sent and not opened', `${log}?limit=50&status=sent&opened=false`],
      ['delivery log, address beginning "reader9999"', `${log}?limit=50&q=reader9999`],
      ['Sent mail, newest page', '/api/admin/email/outbox?limit=50'],
      ['Sent mail, the campaign', `/api/admin/email/outbox?limit=50&campaignId=${campaignId}`],
      ['Sent mail, a recipient', '/api/admin/email/outbox?limit=50&to=reader77777@'],
      ['Sent mail, kind campaign', '/api/admin/email/outbox?limit=50&kind=campaign'],
    ];
    for (const [label, path] of cases) {
      const r = await timed(path);
      console.log(`${LABEL}: ${label}: ${r.ms.toFixed(0)} ms (${(r.bytes / 1024).toFixed(0)} KB)`);
    }
    const exp = await timed(`${log}/export`);
    const rows = exp.body.split('\n').length - 2;
    console.log(
      `${LABEL}: delivery log CSV export, ${rows} rows: ${exp.ms.toFixed(0)} ms (${(exp.bytes / 1024 / 1024).toFixed(1)} MB)`,
    );
    // Sent mail lists campaign mail from the recipient rows the send writes anyway: no row more.
    const size = await db.query<{ stored: number; rows: number; total: string }>(
      `SELECT (SELECT count(*)::int FROM "mail_messages" WHERE "campaign_id" IS NOT NULL) AS stored,
              count(*)::int AS rows, pg_total_relation_size('email_campaign_recipients') AS total
       FROM "email_campaign_recipients"`,
    );
    const z = size.rows[0];
    if (z)
      console.log(
        `${LABEL}: Sent mail: ${z.stored} campaign rows stored; the ${z.rows} recipient rows it lists take ${(Number(z.total) / 1024 / 1024).toFixed(1)} MB with indexes (${(Number(z.total) / z.rows).toFixed(0)} bytes a mail)`,
      );
  }

  const one = process.env.BENCH_SEND_ONE_WORKER === '0' ? null : await runWith(1);
  if (one) {
    // Tracking rows are updated in place (HOT) when their page has room (fillfactor 50).
    const hot = await db.query<{ upd: string; hot: string }>(
      `SELECT n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname = 'email_tracking'`,
    );
    console.log(
      `${LABEL}: tracking-row updates kept in place (HOT): ${hot.rows[0]?.hot} of ${hot.rows[0]?.upd}`,
    );
    console.log(
      `${LABEL}: 1 worker  ${RECIPIENTS} recipients in ${one.seconds.toFixed(1)} s = ${one.rate.toFixed(0)} msgs/s (launch ${one.launchSeconds.toFixed(1)} s; sink got ${one.received}; ${JSON.stringify(one.outcome)}; CPU: worker ${one.workerCpu.toFixed(1)} s, PostgreSQL ${one.pgCpu.toFixed(1)} s)`,
    );
  }
  const two = await runWith(2);
  console.log(
    `${LABEL}: 2 workers ${RECIPIENTS} recipients in ${two.seconds.toFixed(1)} s = ${two.rate.toFixed(0)} msgs/s (launch ${two.launchSeconds.toFixed(1)} s; sink got ${two.received}; ${JSON.stringify(two.outcome)}; CPU: workers ${two.workerCpu.toFixed(1)} s, PostgreSQL ${two.pgCpu.toFixed(1)} s)`,
  );

  // The 2-worker campaign's delivery log and Sent mail at 100,000 recipients (issue 35, item 4):
  // some engagement first (10 % opened, 2 % clicked, 0.5 % bounced, 0.2 % unsubscribed), then a
  // page, a deep page, filtered pages and the full CSV export through the API, median of 3.
  if (!NEWSLETTER) await measureLogs(two.campaignId);

  // The rollups' cost to a send (ADR 0067), BENCH_ROLLUPS=compare: 2 workers with the rollup
  // triggers off, then on, twice, interleaved; PostgreSQL's CPU per mail is where they cost.
  if (process.env.BENCH_ROLLUPS === 'compare') {
    for (let round = 1; round <= 2; round++) {
      const pair = [];
      for (const on of [false, true]) {
        await setRollupTriggers(db, on);
        pair.push(await runWith(2));
      }
      const [off, on] = pair as [Awaited<ReturnType<typeof runWith>>, Awaited<ReturnType<typeof runWith>>];
      const us = (r: typeof off) => ((r.pgCpu / RECIPIENTS) * 1e6).toFixed(0);
      console.log(
        `${LABEL}: rollups round ${round}: 2 workers ${off.rate.toFixed(0)} msgs/s without the triggers, ${on.rate.toFixed(0)} with (${(on.rate / off.rate).toFixed(2)}); PostgreSQL CPU ${us(off)} / ${us(on)} µs a mail; workers ${off.workerCpu.toFixed(1)} / ${on.workerCpu.toFixed(1)} s; sink got ${off.received} / ${on.received}`,
      );
    }
  }

  // The raw limit: Postfix's own load generator into the same sink (4 KB messages, 20 sessions).
  let ratio: number | null = null;
  if (SOURCE_MESSAGES > 0) {
    const before = sink.count();
    const t0 = performance.now();
    const srcChild = spawn(
      join(postfix, 'usr/sbin/smtp-source'),
      ['-l', '4000', '-m', String(SOURCE_MESSAGES), '-s', '20', `127.0.0.1:${sink.port}`],
      { env: pfEnv, stdio: 'inherit' },
    );
    children.push(srcChild);
    const srcStatus = await new Promise<number | null>((r) => srcChild.once('exit', (code) => r(code)));
    const sourceSeconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 300));
    const sourceReceived = sink.count() - before;
    const sourceRate = SOURCE_MESSAGES / sourceSeconds;
    console.log(
      `${LABEL}: smtp-source ${SOURCE_MESSAGES} messages in ${sourceSeconds.toFixed(1)} s = ${sourceRate.toFixed(0)} msgs/s (exit ${srcStatus}, sink got ${sourceReceived})`,
    );
    ratio = two.rate / sourceRate;
  }
  console.log(
    `${LABEL}: 2 workers / 1 worker = ${one ? (two.rate / one.rate).toFixed(2) : '—'}; 2 workers / smtp-source = ${ratio?.toFixed(2) ?? '—'}`,
  );
  const figures = ({ outcome: _, ...r }: Awaited<ReturnType<typeof runWith>>) => r;
  console.log(
    `BENCH_RESULT ${JSON.stringify({ bench: 'send', recipients: RECIPIENTS, runs: [one, two].flatMap((r) => (r ? [figures(r)] : [])) })}`,
  );
  const misses = [
    two.rate < 3000 ? `2 workers: ${two.rate.toFixed(0)} msgs/s < 3,000` : null,
    ratio !== null && ratio < 0.5 ? `2 workers / smtp-source ${ratio.toFixed(2)} < 0.5` : null,
    one && one.received !== RECIPIENTS ? `1 worker: the sink got ${one.received}, not ${RECIPIENTS}` : null,
    two.received !== RECIPIENTS ? `2 workers: the sink got ${two.received}, not ${RECIPIENTS}` : null,
  ].filter(Boolean);
  for (const m of misses) console.log(`${LABEL}: MISSED ${m}`);
  failed = misses.length > 0;
} finally {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const fn of cleanups) await fn().catch(() => {});
}
process.exit(failed ? 1 : 0);
