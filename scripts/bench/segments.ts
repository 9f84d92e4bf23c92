/**
 * Segments at a million contacts (issue 31), through the gateway (`pnpm start --distributed`):
 * the live count of saved-segment rules of every kind (p50/p95 of each, sequential requests,
 * warm), and how long a send takes to resolve a segment's recipients: the pre-send check (the
 * send's own recipient query, one row per address, less suppressions, with its aggregates) on
 * the largest segment, and a real launch that writes a segment's recipients.
 *
 * Contacts are imported through the API (addresses contact<n>@company<n mod 20000>...), then
 * given tags, typed attributes, creation dates and engagement in SQL (as contact edits and the
 * tracking trigger would leave them: the bench measures reads, not those writes).
 *
 * Targets: every rule's count p95 <= 300 ms; resolving the largest segment <= 5 s.
 * BENCH_CONTACTS=1000000, BENCH_COUNTS=40 (requests per rule).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@parley/kit/local';
import pg from 'pg';
import { startPlatform } from '../lib/platform.ts';
import {
  createBook,
  emailServicePid,
  ROWS_PER_FILE,
  searchIndexed,
  uploadFile,
  writeCsv,
} from './_audience.ts';
import { signInCookie } from './_seed.ts';

const total = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const perRule = Number(process.env.BENCH_COUNTS ?? 40);
const COUNT_P95_MS = 300;
const RESOLVE_MS = 5000;
const email = 'bench-admin@parley.test';
const password = 'bench admin password';
const work = mkdtempSync(join(tmpdir(), 'parley-segments-bench-'));
const pgPort = await freePort();

const platform = await startPlatform({
  args: ['--distributed'],
  env: {
    PARLEY_ADMIN_EMAIL: email,
    PARLEY_ADMIN_PASSWORD: password,
    PARLEY_SKIP_WEB_BUILD: 'true',
    PARLEY_PG_PORT: String(pgPort),
    LOG_LEVEL: 'error',
    // The launch is measured; its mails are not sent (no worker), and it is not held by the hour's limit.
    CAMPAIGN_WORKER: 'false',
    CAMPAIGN_LIVE_SENDS_PER_HOUR: '20',
  },
});
const db = new pg.Pool({
  connectionString: `postgresql://postgres:postgres@127.0.0.1:${pgPort}/parley_email`,
  max: 2,
});
let failed = false;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
try {
  const base = platform.url;
  const cookie = await signInCookie(base, email, password);
  const json = { cookie, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(base + path, {
      method,
      headers: json,
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };

  // ── seed: a million contacts in one book, through the import API ──
  const book = await createBook(base, cookie, 'Bench: segments');
  const t0 = performance.now();
  for (let first = 1; first <= total; first += ROWS_PER_FILE) {
    const part = Math.min(ROWS_PER_FILE, total - first + 1);
    const path = join(work, 'contacts.csv');
    await writeCsv(path, part, 'contact', first);
    const res = await uploadFile(
      base,
      cookie,
      '/api/admin/contacts/import-csv',
      { path, name: 'contacts.csv', type: 'text/csv' },
      { addressBookId: String(book) },
    );
    let job = res.body as { importId?: string; status?: string; imported?: number };
    const importId = job.importId;
    while (job.status === 'running') {
      await new Promise((r) => setTimeout(r, 1000));
      job = await call('GET', `/api/admin/email/imports/${importId}`);
    }
    if (job.status !== 'completed' || job.imported !== part)
      throw new Error(`seeding failed: ${JSON.stringify(job).slice(0, 300)}`);
  }
  console.log(
    `imported ${total.toLocaleString('en-US')} contacts in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  // One address in two books, as imports make them: 1 % of the list again in a second book.
  const second = await createBook(base, cookie, 'Bench: segments, again');
  const again = join(work, 'again.csv');
  await writeCsv(again, Math.ceil(total / 100), 'contact', 1);
  const twice = await uploadFile(
    base,
    cookie,
    '/api/admin/contacts/import-csv',
    { path: again, name: 'again.csv', type: 'text/csv' },
    { addressBookId: String(second) },
  );
  for (let job = twice.body as { importId?: string; status?: string }; job.status === 'running'; ) {
    await new Promise((r) => setTimeout(r, 1000));
    job = await call('GET', `/api/admin/email/imports/${(twice.body as { importId: string }).importId}`);
  }

  // ── enrich in SQL: tags (10 % vip, 5 % partner), attributes (30 %), dates, engagement ──
  const t1 = performance.now();
  await db.query(
    `UPDATE email_contacts SET
      tags = CASE WHEN id % 10 = 0 THEN ARRAY['vip'] WHEN id % 20 = 1 THEN ARRAY['partner', 'speaker'] ELSE tags END,
      custom_fields = CASE WHEN id % 10 < 3 THEN jsonb_build_object('plan', (ARRAY['free', 'pro', 'team'])[1 + id % 3], 'seats', id % 50)
                           ELSE custom_fields END,
      created_at = now() - make_interval(days => (id % 730)::int)
    WHERE address_book_id IN ($1, $2)`,
    [book, second],
  );
  // Twenty campaigns sent live; 30 % of the addresses engaged, with the newest campaign they did.
  const campaigns = await db.query<{ id: number }>(
    `INSERT INTO email_campaigns (name, subject, from_name, from_email, tracking_id, status)
     SELECT 'Bench ' || g, 's', 'f', 'f@bench.test', 'cmp_bench_' || g, 'sent' FROM generate_series(1, 20) g RETURNING id`,
  );
  await db.query(
    `INSERT INTO email_campaign_sends (campaign_id, kind, status, live, started_at)
     SELECT id, 'send', 'done', true, now() - interval '30 days' FROM unnest($1::int[]) id ORDER BY id`,
    [campaigns.rows.map((r) => r.id)],
  );
  await db.query(
    `INSERT INTO email_address_engagement (address, engaged_rank, first_engaged_at, last_engaged_at)
    SELECT c.email_key, r.ranks[1 + (c.id % 20)::int], now() - interval '20 days', now() - interval '1 day'
    FROM email_contacts c, (SELECT array_agg(id ORDER BY id) AS ranks FROM email_campaign_sends) r
    WHERE c.address_book_id = $1 AND c.id % 10 IN (2, 5, 8)`,
    [book],
  );
  // 1 % suppressed, 2 % unsubscribed, as a list of this size has.
  await db.query(
    `INSERT INTO email_suppressions (address, reason, source)
    SELECT email_key, 'bounced', 'bench' FROM email_contacts WHERE address_book_id = $1 AND id % 100 = 7`,
    [book],
  );
  await db.query(
    `UPDATE email_contacts SET status = 'unsubscribed' WHERE address_book_id = $1 AND id % 50 = 3`,
    [book],
  );
  // The engagement rows reach the contacts' facts as the tracking trigger would have taken them.
  await db.query(`UPDATE email_contact_facts f SET engaged_rank = e.engaged_rank
    FROM email_address_engagement e WHERE f.email_key = e.address`);
  // The seeding's updates of every row left both tables twice their size; a list imported with
  // its data (or edited over time) is not, so they are rewritten before measuring.
  for (const table of ['email_contacts', 'email_contact_facts'])
    await db.query(`VACUUM (FULL, ANALYZE) ${table}`);
  await db.query('VACUUM ANALYZE email_address_engagement');
  await db.query('VACUUM ANALYZE email_suppressions');
  console.log(`tags, attributes, dates and engagement in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  // The search indexer works through the imported contacts in the background: measure after it.
  const waited = await searchIndexed(emailServicePid(platform.dataDir));
  console.log(`search index caught up ${waited.toFixed(1)} s later`);
  const size = await db.query<{ contacts: string; facts: string }>(
    `SELECT pg_size_pretty(pg_relation_size('email_contacts')) AS contacts,
            pg_size_pretty(pg_relation_size('email_contact_facts')) AS facts`,
  );
  console.log(`tables: contacts ${size.rows[0]?.contacts}, their facts ${size.rows[0]?.facts}`);

  // ── counts ──
  const rules: Array<{ name: string; rule: unknown }> = [
    { name: 'tag has vip', rule: { match: 'all', conditions: [{ field: 'tag', op: 'has', value: 'vip' }] } },
    {
      name: 'email contains, category is',
      rule: {
        match: 'all',
        conditions: [
          { field: 'email', op: 'contains', value: '@company12' },
          { field: 'category', op: 'is', value: 'Law firm' },
        ],
      },
    },
    {
      name: 'attribute seats > 40',
      rule: { match: 'all', conditions: [{ field: 'attribute', key: 'seats', op: 'gt', value: 40 }] },
    },
    {
      name: 'engaged in the last 5 campaigns',
      rule: { match: 'all', conditions: [{ field: 'engagement', op: 'engagedInLast', campaigns: 5 }] },
    },
    {
      name: 'never opened, created in the last year',
      rule: {
        match: 'all',
        conditions: [
          { field: 'engagement', op: 'neverOpened' },
          { field: 'created', op: 'inLastDays', value: 365 },
        ],
      },
    },
    {
      name: 'book, any of (tag, plan is pro)',
      rule: {
        match: 'all',
        conditions: [
          { field: 'book', op: 'in', values: [book] },
          {
            match: 'any',
            conditions: [
              { field: 'tag', op: 'has', value: 'partner' },
              { field: 'attribute', key: 'plan', op: 'is', value: 'pro' },
            ],
          },
        ],
      },
    },
  ];
  const table: Array<Record<string, string | number>> = [];
  let largest = { name: '', id: 0, recipients: -1 };
  for (const r of rules) {
    const saved = await call('POST', '/api/admin/email/segments', { name: r.name, rule: r.rule });
    let n = { contacts: 0, recipients: 0 };
    for (let i = 0; i < 3; i++) n = await call('GET', `/api/admin/email/segments/${saved.segment.id}/count`);
    const times: number[] = [];
    for (let i = 0; i < perRule; i++) {
      const s = performance.now();
      await call('POST', '/api/admin/email/segments/count', { rule: r.rule });
      times.push(performance.now() - s);
    }
    const p95 = pct(times, 95);
    const ok = p95 <= COUNT_P95_MS;
    failed ||= !ok;
    if (n.recipients > largest.recipients)
      largest = { name: r.name, id: saved.segment.id, recipients: n.recipients };
    table.push({
      rule: r.name,
      contacts: n.contacts,
      recipients: n.recipients,
      'p50 ms': Math.round(pct(times, 50)),
      'p95 ms': Math.round(p95),
      target: ok ? 'PASS' : `FAIL (> ${COUNT_P95_MS})`,
    });
  }
  console.table(table);

  // ── resolving a send's recipients ──
  const campaign = await call('POST', '/api/admin/email/campaigns', {
    name: 'Bench: to a segment',
    subject: 'Hello {{firstName|there}}',
    fromName: 'Bench',
    fromEmail: 'bench@parley.test',
    htmlContent: '<p>Hello {{firstName|there}}</p>',
    targetSegments: [largest.id],
  });
  const r0 = performance.now();
  const check = await call('POST', `/api/admin/email/campaigns/${campaign.id}/merge-check`, {});
  const checkMs = performance.now() - r0;
  const vip = table[0]?.recipients as number;
  const vipId = (await call('GET', '/api/admin/email/segments')).segments.find(
    (s: { name: string }) => s.name === 'tag has vip',
  ).id;
  const r1 = performance.now();
  const sent = await call('POST', `/api/admin/email/campaigns/${campaign.id}/send`, {
    segmentIds: [vipId],
    confirmSend: true,
  });
  const launchMs = performance.now() - r1;
  const resolveOk = checkMs <= RESOLVE_MS;
  failed ||= !resolveOk || check.recipients !== largest.recipients || sent.recipients !== vip;
  console.log(
    `resolve "${largest.name}" (the pre-send check: ${check.recipients.toLocaleString('en-US')} recipients of ${total.toLocaleString('en-US')} contacts): ${(checkMs / 1000).toFixed(2)} s ${resolveOk ? 'PASS' : `FAIL (> ${RESOLVE_MS / 1000} s)`}`,
  );
  console.log(
    `launch to "tag has vip" (writes ${sent.recipients.toLocaleString('en-US')} recipients and their tracking rows): ${(launchMs / 1000).toFixed(2)} s`,
  );
  console.log(
    `BENCH_RESULT ${JSON.stringify({ counts: table, resolveMs: Math.round(checkMs), launchMs: Math.round(launchMs) })}`,
  );
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  await db.end();
  await platform.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
