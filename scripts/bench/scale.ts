/**
 * `pnpm bench scale`: cost curves (issue #32, item 2). Runs four benchmarks at three sizes each,
 * every size in its own process on a fresh platform, reads the `BENCH_RESULT {…}` line each
 * prints last, and prints per curve the sizes, the time at each, the growth factor per step and
 * the peak RSS where the benchmark measures it:
 *
 * - imports of 100,000 / 1,000,000 / 5,000,000 contacts (CSV through the gateway, import.ts):
 *   seconds from the first byte sent to the commit; the email service's peak RSS;
 * - contact pages and searches over 100,000 / 1,000,000 / 5,000,000 contacts (contacts.ts):
 *   p50 (and p99) of each kind of request, 4 connections through the gateway;
 * - a send to 10,000 / 100,000 / 500,000 recipients (send.ts, the 2-worker run alone): seconds
 *   from the launch to status sent, and the CPU it cost (both workers from the launch on, plus
 *   PostgreSQL); the larger worker's peak RSS;
 * - analytics over 1,000,000 / 5,000,000 / 10,000,000 campaign mails (analytics.ts, 25
 *   campaigns): the rollups' rebuild (the one step whose work is every mail) and p95 of each
 *   analytics call through the gateway.
 *
 * Criteria (PASS/FAIL per curve; exits non-zero on a miss or a run that gave no figures):
 * - work that grows with the size (an import, a send, the rollups' rebuild): each step's time
 *   (and the send's CPU) grows at most 1.2 × the step's work factor (≤ 12× for 10×, ≤ 6× for 5×,
 *   ≤ 2.4× for 2×); where the work streams (imports, the send), peak RSS is flat: the largest
 *   size's peak ≤ 1.5 × the smallest's;
 * - pages (offset ≤ 5,000 over indexes, counts from maintained totals): flat, the largest size's
 *   p50 ≤ 2 × the smallest's over a 50× range;
 * - contains-searches (trigram index) and analytics calls: each step ≤ 1.2 × the work factor;
 * - latencies are compared above a noise floor of 10 ms (max(ms, 10)): on the shared 2-core
 *   machine a few milliseconds come and go with the load.
 * A benchmark's own targets (e.g. 1M imported ≤ 20 s) are shown as met or missed; they do not
 * decide a curve.
 *
 * SCALE_QUICK=1 divides every size by 10 (to try it; SCALE_QUICK=100 by 100); a size that gave
 * no figures (a platform that did not start on a busy machine) is run once more;
 * BENCH_SCALE_SIZES=1000000,… runs the chosen curves at those sizes instead; BENCH_SCALE_ONLY=import,contacts,send,
 * analytics runs some curves; BENCH_SCALE_JSON=<path> writes every figure as JSON;
 * BENCH_SECONDS (default 5) is each contacts request kind's measured time.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../lib/paths.ts';
import { cpuSeconds, machineBusySeconds } from './_cpu.ts';

// SCALE_QUICK=1 divides the sizes by 10; a larger number divides them by that number.
const DIVIDE = process.env.SCALE_QUICK ? Math.max(10, Number(process.env.SCALE_QUICK) || 10) : 1;
const ONLY = (process.env.BENCH_SCALE_ONLY ?? '').split(',').filter(Boolean);
const ALLOWANCE = 1.2;
const RSS_FLAT = 1.5;
const PAGE_FLAT = 2;
const FLOOR_MS = 10;
const CORES = 2;

type Result = Record<string, unknown>;
interface Run {
  size: number;
  result: Result | null;
  exitCode: number | null;
  wallSeconds: number;
  load1: [number, number];
  /** Share of the machine's two cores busy with work other than this benchmark's processes. */
  otherShare: number;
}
interface Column {
  label: string;
  value: (r: Result) => number;
  /** 'linear': each step ≤ 1.2 × work; 'flat': largest ≤ 2 × smallest; 'rss': ≤ 1.5 × smallest; 'info': shown. */
  rule: 'linear' | 'flat' | 'rss' | 'info';
  /** A latency: compared above the noise floor. */
  ms?: boolean;
}
interface Curve {
  key: string;
  title: string;
  unit: string;
  sizes: number[];
  script: string;
  env: (size: number) => Record<string, string>;
  columns: (r: Result) => Column[];
  /** The run did its work completely (every row imported, every mail at the sink). */
  complete: (r: Result, size: number) => boolean;
}

const num = (v: unknown) => Number(v ?? Number.NaN);
const arr = (v: unknown) => (Array.isArray(v) ? (v as Result[]) : []);

const curves: Curve[] = [
  {
    key: 'import',
    title: 'imports (CSV through the gateway, into a fresh book)',
    unit: 'contacts',
    sizes: [100_000, 1_000_000, 5_000_000],
    script: 'import.ts',
    env: (n) => ({
      BENCH_IMPORT_ROWS: String(n),
      BENCH_IMPORT_XLSX_ROWS: '0',
      BENCH_IMPORT_HOSTILE: '0',
    }),
    columns: () => [
      { label: 'seconds (to the commit)', value: (r) => num(arr(r.runs)[0]?.seconds), rule: 'linear' },
      { label: 'index caught up +s', value: (r) => num(arr(r.runs)[0]?.indexSeconds), rule: 'info' },
      {
        label: 'seconds until searchable',
        value: (r) => num(arr(r.runs)[0]?.seconds) + num(arr(r.runs)[0]?.indexSeconds),
        rule: 'linear',
      },
      { label: 'peak RSS MB', value: (r) => num(arr(r.runs)[0]?.peakRssMb), rule: 'rss' },
    ],
    complete: (r, n) => arr(r.runs)[0]?.complete === true && num(arr(r.runs)[0]?.rows) === n,
  },
  {
    key: 'contacts',
    title: 'contact pages and searches (p50 ms, 4 connections through the gateway)',
    unit: 'contacts',
    sizes: [100_000, 1_000_000, 5_000_000],
    script: 'contacts.ts',
    env: (n) => ({ BENCH_CONTACTS: String(n), BENCH_SECONDS: process.env.BENCH_SECONDS ?? '5' }),
    columns: (r) => [
      ...arr(r.scenarios).map((s): Column => {
        const name = String(s.name);
        return {
          label: name,
          value: (x: Result) => num(arr(x.scenarios).find((y) => y.name === name)?.p50),
          rule: name.startsWith('search') ? 'linear' : 'flat',
          ms: true,
        };
      }),
      {
        label: 'p99, the slowest kind',
        value: (x) => Math.max(...arr(x.scenarios).map((y) => num(y.p99))),
        rule: 'info',
      },
    ],
    complete: (r) => arr(r.scenarios).length > 0,
  },
  {
    key: 'send',
    title: 'a send (2 workers into smtp-sink, launch to status sent)',
    unit: 'recipients',
    sizes: [10_000, 100_000, 500_000],
    script: 'send.ts',
    env: (n) => ({
      BENCH_RECIPIENTS: String(n),
      BENCH_SEND_ONE_WORKER: '0',
      BENCH_SEND_LOGS: '0',
      BENCH_SOURCE_MESSAGES: '0',
    }),
    columns: () => {
      const two = (r: Result) => arr(r.runs).find((x) => x.workers === 2) ?? {};
      return [
        { label: 'seconds', value: (r) => num(two(r).seconds), rule: 'linear' },
        {
          label: 'CPU s (workers + PostgreSQL)',
          value: (r) => num(two(r).workerCpuSend) + num(two(r).pgCpu),
          rule: 'linear',
        },
        { label: 'msgs/s', value: (r) => num(two(r).rate), rule: 'info' },
        { label: 'peak RSS MB (a worker)', value: (r) => num(two(r).peakRssMb), rule: 'rss' },
      ];
    },
    complete: (r, n) => arr(r.runs).find((x) => x.workers === 2)?.received === n,
  },
  {
    key: 'analytics',
    title: 'analytics (25 campaigns; rollups rebuilt from every mail, then p50 ms of 20 runs of each call)',
    unit: 'mails',
    sizes: [1_000_000, 5_000_000, 10_000_000],
    script: 'analytics.ts',
    env: (n) => ({ BENCH_CAMPAIGNS: '25', BENCH_MAILS: String(n / 25) }),
    columns: (r) => [
      { label: 'seed s', value: (x) => num(x.seedSeconds), rule: 'info' },
      { label: 'rollups rebuild s', value: (x) => num(x.rebuildSeconds), rule: 'linear' },
      ...arr(r.calls).map(
        (c): Column => ({
          label: String(c.name),
          value: (x) => num(arr(x.calls).find((y) => y.name === c.name)?.p50),
          rule: 'linear',
          ms: true,
        }),
      ),
      {
        label: 'p95, the slowest call',
        value: (x) => Math.max(...arr(x.calls).map((y) => num(y.p95))),
        rule: 'info',
      },
    ],
    complete: (r, n) => num(r.mails) === n && arr(r.calls).every((c) => c.status === 200),
  },
];

const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** Runs one benchmark at one size in its own process; its output passes through. */
async function runOne(curve: Curve, size: number): Promise<Run> {
  // A platform on a busy shared machine can take minutes to be ready.
  const env = {
    PARLEY_PLATFORM_READY_MS: '600000',
    ...process.env,
    ...curve.env(size),
  };
  console.log(
    `\n=== scale: ${curve.key} at ${size.toLocaleString('en-US')} ${curve.unit} (${Object.entries(
      curve.env(size),
    )
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}) ===`,
  );
  const busy0 = machineBusySeconds();
  const own0 = cpuSeconds(process.pid, true);
  const load0 = loadAverage();
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/bench', curve.script)], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let result: Result | null = null;
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines)
      if (line.startsWith('BENCH_RESULT ')) result = JSON.parse(line.slice('BENCH_RESULT '.length));
  });
  const exitCode = await new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  // Its output to the end (a process it left behind may hold the pipe: not waited for long).
  await new Promise((r) => {
    const timer = setTimeout(r, 10_000);
    child.once('close', () => r(clearTimeout(timer)));
  });
  const wallSeconds = (performance.now() - t0) / 1000;
  // The child and everything under it are reaped by now: their CPU is in ours.
  const own = cpuSeconds(process.pid, true) - own0;
  const other = Math.max(0, machineBusySeconds() - busy0 - own);
  return {
    size,
    result,
    exitCode,
    wallSeconds,
    load1: [load0, loadAverage()],
    otherShare: other / (wallSeconds * CORES),
  };
}

const fmt = (v: number) =>
  !Number.isFinite(v) ? '—' : v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(v >= 10 ? 1 : 2);

/** Judges one curve and prints its table (markdown); true when it passes. */
function report(curve: Curve, runs: Run[]): { pass: boolean; lines: string[] } {
  const lines: string[] = [];
  const misses: string[] = [];
  const done = runs.filter((r): r is Run & { result: Result } => r.result !== null);
  for (const r of runs) {
    if (!r.result) misses.push(`${fmt(r.size)}: no figures (exit ${r.exitCode})`);
    else if (!curve.complete(r.result, r.size)) misses.push(`${fmt(r.size)}: the work was not complete`);
  }
  const first = done[0];
  const columns = first ? curve.columns(first.result) : [];
  const sizes = done.map((r) => r.size);
  const head = [
    '',
    ...sizes.map((s) => `${s.toLocaleString('en-US')}`),
    'growth per step',
    'allowed',
    'result',
  ];
  lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`);
  for (const col of columns) {
    // A latency of 0 is a run that measured nothing (autocannon's figure with no answer).
    const values = done.map((r) => col.value(r.result)).map((v) => (col.ms && v <= 0 ? Number.NaN : v));
    const eff = (v: number) => (col.ms ? Math.max(v, FLOOR_MS) : v);
    const steps = values.slice(1).map((v, i) => eff(v) / eff(values[i] as number));
    const works = sizes.slice(1).map((s, i) => s / (sizes[i] as number));
    const range = eff(values[values.length - 1] as number) / eff(values[0] as number);
    let ok = values.every(Number.isFinite);
    let allowed = '—';
    if (col.rule === 'linear') {
      ok &&= steps.every((f, i) => f <= ALLOWANCE * (works[i] as number));
      allowed = works.map((w) => `≤ ${fmt(ALLOWANCE * w)}×`).join(', ');
    } else if (col.rule === 'flat') {
      ok &&= range <= PAGE_FLAT;
      allowed = `≤ ${PAGE_FLAT}× over the range`;
    } else if (col.rule === 'rss') {
      ok &&= range <= RSS_FLAT;
      allowed = `≤ ${RSS_FLAT}× over the range`;
    }
    const judged = col.rule !== 'info';
    if (judged && !ok) misses.push(`${col.label}: ${steps.map((f) => `${f.toFixed(2)}×`).join(', ')}`);
    const growth =
      col.rule === 'flat' || col.rule === 'rss'
        ? `${steps.map((f) => `${f.toFixed(2)}×`).join(', ')} (range ${range.toFixed(2)}×)`
        : steps.map((f) => `${f.toFixed(2)}×`).join(', ');
    lines.push(
      `| ${[col.label, ...values.map(fmt), growth, allowed, judged ? (ok ? 'PASS' : 'FAIL') : ''].join(' | ')} |`,
    );
  }
  lines.push(
    `| bench's own targets | ${done.map((r) => (r.exitCode === 0 ? 'met' : 'missed')).join(' | ')} | | | |`,
    `| wall s (whole run) | ${done.map((r) => fmt(r.wallSeconds)).join(' | ')} | | | |`,
    `| load average (start → end) | ${done.map((r) => `${r.load1[0].toFixed(1)} → ${r.load1[1].toFixed(1)}`).join(' | ')} | | | |`,
    `| other work (share of 2 cores) | ${done.map((r) => `${Math.round(100 * r.otherShare)} %`).join(' | ')} | | | |`,
  );
  const pass = misses.length === 0 && done.length >= 3;
  lines.unshift(`${curve.title}, per ${curve.unit}: ${pass ? 'PASS' : `FAIL (${misses.join('; ')})`}`, '');
  return { pass, lines };
}

// In BENCH_SCALE_ONLY's order when given.
const chosen = ONLY.length === 0 ? curves : ONLY.flatMap((k) => curves.filter((c) => c.key === k));
if (chosen.length === 0) {
  console.error(`BENCH_SCALE_ONLY: none of ${curves.map((c) => c.key).join(', ')}`);
  process.exit(2);
}
const all: Array<{ curve: Curve; runs: Run[] }> = [];
const started = new Date();
// BENCH_SCALE_REPORT=<json>[,<json>…]: the tables again from figures saved by BENCH_SCALE_JSON.
const saved = (process.env.BENCH_SCALE_REPORT ?? '').split(',').filter(Boolean);
for (const file of saved)
  for (const { curve: key, runs } of JSON.parse(readFileSync(file, 'utf8')) as Array<{
    curve: string;
    runs: Run[];
  }>) {
    const curve = curves.find((c) => c.key === key);
    if (!curve) continue;
    // Runs of one curve from several files are merged by size (one with figures preferred).
    const into = all.find((x) => x.curve === curve) ?? all[all.push({ curve, runs: [] }) - 1];
    for (const run of runs) {
      const i = into?.runs.findIndex((r) => r.size === run.size) ?? -1;
      if (i < 0) into?.runs.push(run);
      else if (into && run.result) into.runs[i] = run;
    }
    into?.runs.sort((a, b) => a.size - b.size);
  }
for (const curve of saved.length ? [] : chosen) {
  const runs: Run[] = [];
  const sizes = process.env.BENCH_SCALE_SIZES?.split(',').map(Number) ?? curve.sizes;
  for (const size of sizes) {
    let run = await runOne(curve, Math.round(size / DIVIDE));
    if (!run.result) run = await runOne(curve, run.size);
    runs.push(run);
  }
  all.push({ curve, runs });
  // Each curve as it ends (a long run shows what it has).
  console.log(`\n${report(curve, runs).lines.join('\n')}`);
}
console.log(
  `\n=== pnpm bench scale${DIVIDE > 1 ? ` (SCALE_QUICK: sizes ÷ ${DIVIDE})` : ''}, ${started.toISOString()} to ${new Date().toISOString()} ===`,
);
let failed = false;
for (const { curve, runs } of all) {
  const { pass, lines } = report(curve, runs);
  failed ||= !pass;
  console.log(`\n${lines.join('\n')}`);
}
if (process.env.BENCH_SCALE_JSON)
  writeFileSync(
    process.env.BENCH_SCALE_JSON,
    JSON.stringify(
      all.map(({ curve, runs }) => ({ curve: curve.key, runs })),
      null,
      2,
    ),
  );
console.log(
  `\ncost curves: ${failed ? 'a curve bends past its allowance (FAIL)' : 'every curve within (PASS)'}`,
);
process.exit(failed ? 1 : 0);
