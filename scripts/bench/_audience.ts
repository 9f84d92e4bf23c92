/**
 * Shared by the audience benchmarks (import, contacts): contact files of any size written as a
 * stream, uploads through the gateway, and the email service's memory read from /proc.
 */
import { createWriteStream, openAsBlob, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import { repoRoot } from '../lib/paths.ts';

const CATEGORIES = [
  'Law firm',
  'Insurance agency',
  'Dental clinic',
  'Real estate agency',
  'Medical practice',
];

/** One contact row of the admin column set (Name, Email, Phone, Address, Category, Website, Rating, Reviews, Description). */
export function contactRow(i: number, prefix: string): string[] {
  return [
    `Person${i} Family${i % 7919}`,
    `${prefix}${i}@company${i % 20000}.example.com`,
    `+1 555 ${String(i % 10_000_000).padStart(7, '0')}`,
    `${i} Main St, Springfield`,
    CATEGORIES[i % CATEGORIES.length] ?? '',
    `https://company${i % 20000}.example.com`,
    String((i % 50) / 10),
    String(i % 3000),
    `Client since ${2000 + (i % 24)}`,
  ];
}

export const HEADER = [
  'Name',
  'Email',
  'Phone',
  'Address',
  'Category',
  'Website',
  'Rating',
  'Reviews',
  'Description',
];

const quote = (c: string) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);

/**
 * Rows of these contacts per file where a benchmark imports more: an import takes one file of
 * at most 200 MB (IMPORT_MAX_BYTES), about 1.3 million of these rows. BENCH_ROWS_PER_FILE
 * lowers it (to try the split at small sizes).
 */
export const ROWS_PER_FILE = Number(process.env.BENCH_ROWS_PER_FILE) || 1_000_000;

/**
 * Writes a CSV of `rows` contacts (addresses `<prefix><n>@…`, n from `first`), streamed;
 * returns its size.
 */
export async function writeCsv(path: string, rows: number, prefix: string, first = 1): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  let buf = `${HEADER.join(',')}\n`;
  for (let i = first; i < first + rows; i++) {
    buf += `${contactRow(i, prefix).map(quote).join(',')}\n`;
    if (buf.length > 1 << 20) {
      bytes += Buffer.byteLength(buf);
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  bytes += Buffer.byteLength(buf);
  out.end(buf);
  await new Promise<void>((r) => out.once('finish', () => r()));
  return bytes;
}

/** Writes an .xlsx of `rows` contacts with ExcelJS' streaming writer (the email service's dependency). */
export async function writeXlsx(path: string, rows: number, prefix: string): Promise<void> {
  const require = createRequire(join(repoRoot, 'services/email/package.json'));
  // ExcelJS is the email service's dependency; only the writer's shape is needed here.
  const ExcelJS = require('exceljs') as {
    stream: {
      xlsx: {
        WorkbookWriter: new (
          opts: Record<string, unknown>,
        ) => {
          addWorksheet(name: string): { addRow(values: unknown[]): { commit(): void }; commit(): void };
          commit(): Promise<void>;
        };
      };
    };
  };
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useSharedStrings: true,
    useStyles: false,
  });
  const ws = wb.addWorksheet('Contacts');
  ws.addRow(HEADER).commit();
  for (let i = 1; i <= rows; i++) {
    const r = contactRow(i, prefix);
    ws.addRow([...r.slice(0, 6), Number(r[6]), Number(r[7]), r[8]]).commit();
  }
  ws.commit();
  await wb.commit();
}

/** POSTs a file as multipart (fields first), streamed from disk, through the gateway. */
export async function uploadFile(
  base: string,
  cookie: string,
  path: string,
  file: { path: string; name: string; type: string },
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', await openAsBlob(file.path, { type: file.type }), file.name);
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { cookie, 'x-requested-with': 'parley' },
    body: form,
  });
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  return { status: res.status, body };
}

export async function createBook(base: string, cookie: string, name: string): Promise<number> {
  const res = await fetch(`${base}/api/admin/address-books`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`creating a book answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

/** The pid of the email service process of the platform whose data directory is `dataDir`. */
export function emailServicePid(dataDir: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.includes('services/email/src/main.ts')) continue;
      const env = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (env.includes(`PARLEY_DATA_DIR=${dataDir}`)) return Number(entry);
    } catch {
      // a process that ended, or one we may not read
    }
  }
  throw new Error('the email service process was not found (run the platform with --distributed)');
}

/**
 * Waits until the email service (process `pid`) has indexed every contact queued for search
 * (its DATABASE_URL read from the process's environment); returns the seconds waited.
 */
export async function searchIndexed(pid: number, timeoutMs = 600_000): Promise<number> {
  const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  const url = env.find((e) => e.startsWith('DATABASE_URL='))?.slice('DATABASE_URL='.length);
  if (!url) throw new Error('the email service has no DATABASE_URL in its environment');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const t0 = performance.now();
  try {
    for (;;) {
      const { rows } = await db.query<{ queued: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM "email_contact_search_pending") AS "queued"',
      );
      if (!rows[0]?.queued) return (performance.now() - t0) / 1000;
      if (performance.now() - t0 > timeoutMs) throw new Error('the search index did not catch up');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await db.end();
  }
}

const kb = (status: string, key: string) =>
  Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);

/**
 * Peak resident memory of a process over a span: the kernel's high-water mark (VmHWM), reset
 * at the start (clear_refs 5), plus our own 50 ms samples where the reset is not permitted.
 */
export function rssWatch(pid: number): { stop(): { peakMb: number; startMb: number } } {
  let peak = 0;
  let hwmReset = false;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    hwmReset = true;
  } catch {}
  const read = () => readFileSync(`/proc/${pid}/status`, 'utf8');
  const startMb = kb(read(), 'VmRSS') / 1024;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, kb(read(), 'VmRSS'));
    } catch {}
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      const status = read();
      peak = Math.max(peak, kb(status, 'VmRSS'), hwmReset ? kb(status, 'VmHWM') : 0);
      return { peakMb: peak / 1024, startMb };
    },
  };
}
