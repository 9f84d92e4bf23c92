import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AudienceUnderTest, type Loose, startAudience } from './audience-peers.ts';

/**
 * A 1,000,000-row CSV (about 185 MB, generated as it is sent, never held) imported over HTTP
 * into a real PostgreSQL: every row arrives, the count is exact, the list and a search work
 * on the result, nothing is left staged. Timings and memory are printed, not asserted: the
 * client, the service and the runner share this process here; `pnpm bench import` measures
 * the service's own process against the targets.
 */

const ROWS = 1_000_000;
let t: AudienceUnderTest;

beforeAll(async () => {
  t = await startAudience('audience_scale');
});
afterAll(async () => {
  await t?.stop();
});

function row(i: number): string {
  return `"Person${i} Family${i % 7919}",person${i}@company${i % 20000}.example.com,+1 555 ${String(i).padStart(7, '0')},"${i} Main St, Springfield",Law firm,https://company${i % 20000}.example.com,${(i % 50) / 10},${i % 3000},"Client since ${2000 + (i % 24)}"\n`;
}

it('imports a million rows streamed, with an exact count', async () => {
  const book = (await t.call('POST', '/api/admin/address-books', { name: 'A million' })).json.id;
  const boundary = '----parleyscale';
  const enc = new TextEncoder();
  let i = 0;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        enc.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="addressBookId"\r\n\r\n${book}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="million.csv"\r\nContent-Type: text/csv\r\n\r\nName,Email,Phone,Address,Category,Website,Rating,Reviews,Description\n`,
        ),
      );
    },
    pull(controller) {
      if (i >= ROWS) {
        controller.enqueue(enc.encode(`\r\n--${boundary}--\r\n`));
        controller.close();
        return;
      }
      let chunk = '';
      for (const end = Math.min(ROWS, i + 2000); i < end; ) chunk += row(++i);
      const bytes = enc.encode(chunk);
      sent += bytes.length;
      controller.enqueue(bytes);
    },
  });

  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  const t0 = performance.now();
  const res = await fetch(`${t.url}/api/admin/contacts/import-csv`, {
    method: 'POST',
    headers: { ...(await t.admin()), 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  const uploaded = (performance.now() - t0) / 1000;
  let job: Loose = await res.json();
  expect([200, 202]).toContain(res.status);
  while (job.status === 'running') {
    await new Promise((r) => setTimeout(r, 500));
    job = (await t.call('GET', `/api/admin/email/imports/${job.importId ?? job.id}`)).json;
  }
  clearInterval(sampler);
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `1,000,000 rows (${(sent / 1e6).toFixed(0)} MB): upload answered in ${uploaded.toFixed(1)} s (${res.status}), committed in ${seconds.toFixed(1)} s, ${Math.round(ROWS / seconds)} rows/s; RSS ${Math.round(baseline / 1e6)} → peak ${Math.round(peak / 1e6)} MB`,
  );
  expect(job, `the job: ${JSON.stringify(job).slice(0, 600)}`).toMatchObject({
    status: 'completed',
    imported: ROWS,
    skipped: 0,
    errorCount: 0,
    rowsRead: ROWS,
  });

  const books = (await t.call('GET', '/api/admin/address-books')).json as Loose[];
  expect(books.find((b) => b.id === book)?.contactCount).toBe(ROWS);
  const real = await t.db.query('SELECT count(*)::int AS n FROM email_contacts WHERE address_book_id = $1', [
    book,
  ]);
  expect(real.rows[0].n).toBe(ROWS);
  const first = await t.call('GET', `/api/admin/email/contacts?addressBookId=${book}&limit=50`);
  expect(first.json.meta).toMatchObject({ total: ROWS, totalExact: true, hasMore: true });
  expect(first.json.contacts[0].email).toBe(`person${ROWS}@company${ROWS % 20000}.example.com`);
  const found = await t.call('GET', '/api/admin/email/contacts?q=person654321@&limit=50');
  expect(found.json.contacts.map((c: Loose) => c.email)).toEqual(['person654321@company14321.example.com']);
  const staged = await t.db.query(
    `SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE 'import\\_rows\\_%'`,
  );
  expect(staged.rows[0].n).toBe(0);
}, 900_000);
