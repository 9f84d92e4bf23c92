import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signAssertion } from '@parley/kit';
import { createTestDatabase, type NatsServer, startNatsServer } from '@parley/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Hostile, sheetXml, workbookEntries, writeHostileXlsx, writeZip } from './xlsx-files.ts';

/**
 * Decompression bombs against the email service running as its own process, as
 * `pnpm start --distributed` runs it (scripts/start.ts: a 192 MB old generation): a 1.5 MB
 * workbook whose one cell inflates to 1.5 GB is refused with a 4xx, and four of them at once
 * keep the process under 400 MB of resident memory (its kernel high-water mark, VmHWM, and
 * samples of VmRSS), after which it still imports a normal workbook.
 */

const CELL_BYTES = 1_500_000_000;
const PEAK_RSS_LIMIT_MB = 400;
const emailDir = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'parley-xlsx-bomb-'));
const secret = randomBytes(32).toString('hex');
let nats: NatsServer;
let child: ChildProcess;
let base: string;
const files: Record<string, string> = {};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

const kb = (status: string, key: string) =>
  Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');

/** Peak resident memory of the service from now until stop(): VmHWM (reset here) and 20 ms samples of VmRSS. */
function watchRss() {
  writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
  const startMb = kb(status(), 'VmRSS') / 1024;
  let peak = 0;
  const sample = (key: string) => {
    try {
      peak = Math.max(peak, kb(status(), key));
    } catch {
      // the process is gone (killed for its memory): its samples so far stand
    }
  };
  const timer = setInterval(() => sample('VmRSS'), 20);
  return {
    startMb,
    stop() {
      clearInterval(timer);
      sample('VmRSS');
      sample('VmHWM');
      return peak / 1024;
    },
  };
}

const admin = async () => ({
  'x-parley-assertion': await signAssertion(secret, { adminId: 'admin-1', role: 'admin' }),
});

async function newBook(name: string): Promise<number> {
  const res = await fetch(`${base}/api/admin/address-books`, {
    method: 'POST',
    headers: { ...(await admin()), 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function upload(path: string, book: number) {
  const form = new FormData();
  form.append('addressBookId', String(book));
  form.append(
    'file',
    await openAsBlob(path, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
    'contacts.xlsx',
  );
  const res = await fetch(`${base}/api/admin/contacts/import-csv`, {
    method: 'POST',
    headers: await admin(),
    body: form,
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as Record<string, unknown> };
}

async function contactCount(book: number): Promise<number> {
  const res = await fetch(`${base}/api/admin/address-books`, { headers: await admin() });
  const books = (await res.json()) as Array<{ id: number; contactCount: number }>;
  return books.find((b) => b.id === book)?.contactCount ?? -1;
}

beforeAll(async () => {
  for (const where of ['shared-string', 'inline-string'] as Hostile[]) {
    const honest = join(work, `${where}.xlsx`);
    await writeHostileXlsx(honest, { cellBytes: CELL_BYTES, where });
    files[where] = honest;
    const lying = join(work, `${where}-lying.xlsx`);
    await writeHostileXlsx(lying, { cellBytes: CELL_BYTES, where, lie: true });
    files[`${where}-lying`] = lying;
  }
  // Small enough to pass the size limit: refused for its ratio.
  const dense = join(work, 'shared-string-100mb.xlsx');
  await writeHostileXlsx(dense, { cellBytes: 100_000_000, where: 'shared-string' });
  files['shared-string-100mb'] = dense;
  nats = await startNatsServer();
  const port = await freePort();
  child = spawn(process.execPath, ['--max-old-space-size=192', '--import', 'tsx', 'src/main.ts'], {
    cwd: emailDir,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: await createTestDatabase('email_xlsx_bomb'),
      NATS_URL: nats.url,
      INTERNAL_AUTH_SECRET: secret,
      SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      EMAIL_SIGNING_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the email service exited (${child.exitCode})`);
    try {
      if ((await fetch(`${base}/health/ready`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('the email service did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  await nats?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe('a workbook whose one cell inflates to 1.5 GB', () => {
  it('is about 1.5 MB and is refused with a 413 that says why; nothing is imported', async () => {
    const expected: Record<string, RegExp> = {
      'shared-string': /^The .xlsx workbook is too large to import: a part of it unpacks to more than 1 GB\./,
      'inline-string': /^The .xlsx workbook is too large to import: a part of it unpacks to more than 1 GB\./,
      'shared-string-lying':
        /^The .xlsx workbook was refused: a part of it unpacks to more than the size its zip directory declares\./,
      'inline-string-lying':
        /^The .xlsx workbook was refused: a part of it unpacks to more than the size its zip directory declares\./,
      'shared-string-100mb': /^The .xlsx workbook was refused: a part of it is compressed more than 100:1/,
    };
    for (const [name, message] of Object.entries(expected)) {
      const path = files[name] as string;
      expect(readFileSync(path).length).toBeLessThan(2_000_000);
      const book = await newBook(`Bomb ${name}`);
      const r = await upload(path, book);
      expect(r.status, `${name}: ${r.text}`).toBe(413);
      expect(r.json.message, name).toMatch(message);
      expect(await contactCount(book)).toBe(0);
    }
  }, 300_000);

  it(`four at once keep the process under ${PEAK_RSS_LIMIT_MB} MB, and it goes on importing`, async () => {
    const books = await Promise.all([1, 2, 3, 4].map((i) => newBook(`Concurrent bomb ${i}`)));
    const paths = ['shared-string', 'inline-string', 'shared-string-lying', 'inline-string-lying'];
    const watch = watchRss();
    const settled = await Promise.allSettled(
      books.map((book, i) => upload(files[paths[i] as string] as string, book)),
    );
    const peakMb = watch.stop();
    console.log(
      `four concurrent hostile imports: RSS before ${Math.round(watch.startMb)} MB, peak ${Math.round(peakMb)} MB`,
    );
    expect(child.exitCode).toBeNull();
    const answers = settled.map((s) => {
      if (s.status === 'rejected') throw s.reason;
      return s.value;
    });
    for (const r of answers) expect(r.status, r.text).toBeGreaterThanOrEqual(400);
    for (const r of answers) expect(r.status, r.text).toBeLessThan(500);
    expect(peakMb).toBeLessThan(PEAK_RSS_LIMIT_MB);

    // A normal workbook afterwards.
    const ok = join(work, 'ok.xlsx');
    await writeZip(
      ok,
      workbookEntries(
        sheetXml([
          ['<c r="A1" t="inlineStr"><is><t>Email</t></is></c>'],
          ['<c r="A2" t="inlineStr"><is><t>after@bomb.example.com</t></is></c>'],
        ]),
      ),
    );
    const book = await newBook('After the bombs');
    const r = await upload(ok, book);
    expect(r.status, r.text).toBe(200);
    expect(r.json.imported).toBe(1);
  }, 300_000);
});
