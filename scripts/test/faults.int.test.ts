/**
 * What Parley survives (docs/operations.md): faults injected into real processes while traffic
 * runs. Evidence is the event audit trail (PARLEY_EVENT_AUDIT=true, scripts/lib/event-audit.ts):
 * a durable consumer of every subject that applies each event once (the kit's inbox) and counts
 * redeliveries, in its own database.
 *
 * 1. Embedded: SIGKILL of the whole platform in the middle of a booking burst.
 * 2. Distributed: NATS stopped for 60 s while bookings keep coming.
 * 3. Distributed: a consumer whose handler fails for 2 minutes, then recovers.
 * 4. A poison outbox row: dead-lettered, the others flow, replayed with `pnpm events` after a fix.
 * 5. A service process killed and restarted, and its PostgreSQL restarted, during traffic.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../../gateway/src/app.ts';
import { startNatsServer } from '../../services/kit/src/local/nats.ts';
import { freePort } from '../../services/kit/src/local/ports.ts';
import { startEmbeddedPostgres, withDatabase } from '../../services/kit/src/local/postgres.ts';
import { createLogger } from '../../services/kit/src/logger.ts';
import { repoRoot } from '../lib/paths.ts';
import { type Platform, startPlatform } from '../lib/platform.ts';

const BASE_ENV = {
  PARLEY_EVENT_AUDIT: 'true',
  PARLEY_SKIP_WEB_BUILD: 'true',
  // Many distinct slots, and no per-IP budget in the way of one test client.
  BOOKING_WINDOW_DAYS: '60',
  PUBLIC_WRITE_RATE_LIMIT: '1000000',
  RATE_LIMIT_MULTIPLIER: '100000',
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-faults-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as its own user when we are root
  dirs.push(dir);
  return dir;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, cond: () => Promise<boolean> | boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

function adminUrlOf(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, 'postgres.json'), 'utf8')) as { adminUrl: string }).adminUrl;
}

async function query<T extends pg.QueryResultRow>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** Free slots of the booking window, walking dates from tomorrow. */
async function freeSlots(base: string, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let day = 1; day < 90 && out.length < n; day++) {
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(
      new Date(Date.now() + day * 86_400_000),
    );
    const r = await fetch(`${base}/api/bookings/available?date=${date}`);
    if (!r.ok) continue;
    out.push(...((await r.json()) as { availableSlots: string[] }).availableSlots);
  }
  if (out.length < n) throw new Error(`only ${out.length} free slots`);
  return out.slice(0, n);
}

async function book(base: string, slot: string): Promise<{ status: number; id?: string }> {
  const res = await fetch(`${base}/api/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Fault Test',
      email: `fault+${randomBytes(4).toString('hex')}@example.com`,
      company: 'Chaos Inc',
      timeSlot: slot,
    }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json().catch(() => ({}))) as { id?: string };
  return { status: res.status, ...(body.id ? { id: body.id } : {}) };
}

/** Every booking committed in the booking database. */
async function committedBookings(adminUrl: string): Promise<string[]> {
  const rows = await query<{ id: string }>(
    withDatabase(adminUrl, 'parley_booking'),
    'SELECT id FROM bookings',
  );
  return rows.map((r) => r.id);
}

/** The audit trail's record of booking.booking.created: booking id → its one row. */
async function auditedBookings(
  adminUrl: string,
): Promise<Map<string, { firstDelivery: number; redeliveries: number }>> {
  const rows = await query<{ id: string; first_delivery: number; redeliveries: number }>(
    withDatabase(adminUrl, 'parley_audit'),
    `SELECT payload->>'id' AS id, first_delivery, redeliveries FROM audit_events
      WHERE subject = 'booking.booking.created'`,
  ).catch(() => []);
  const out = new Map<string, { firstDelivery: number; redeliveries: number }>();
  for (const r of rows) {
    // Applied once: one audit row per booking (the audit's primary key is the event id; a
    // second event for the same booking would show up here as a duplicate).
    expect(out.has(r.id), `booking ${r.id} applied twice`).toBe(false);
    out.set(r.id, { firstDelivery: r.first_delivery, redeliveries: r.redeliveries });
  }
  return out;
}

async function deadLetterCount(adminUrl: string, database: string): Promise<number> {
  const rows = await query<{ n: string }>(
    withDatabase(adminUrl, database),
    'SELECT count(*) AS n FROM dead_letters WHERE replayed_at IS NULL',
  );
  return Number(rows[0]?.n ?? 0);
}

async function everyBookingAudited(adminUrl: string): Promise<void> {
  await until(
    'every committed booking in the audit trail',
    async () => {
      const [committed, audited] = await Promise.all([
        committedBookings(adminUrl),
        auditedBookings(adminUrl),
      ]);
      return committed.length > 0 && committed.every((id) => audited.has(id));
    },
    120_000,
  );
  const [committed, audited] = await Promise.all([committedBookings(adminUrl), auditedBookings(adminUrl)]);
  expect([...audited.keys()].sort()).toEqual([...committed].sort());
}

describe('what Parley survives', () => {
  it('embedded: SIGKILL in the middle of a booking burst loses no committed event', async () => {
    const dir = dataDir();
    let platform: Platform = await startPlatform({ dataDir: dir, env: BASE_ENV });
    const slots = await freeSlots(platform.url, 150);
    const acknowledged: string[] = [];
    let next = 0;
    let killed: Promise<void> | null = null;
    const worker = async () => {
      while (next < slots.length) {
        const slot = slots[next++] as string;
        const r = await book(platform.url, slot).catch(() => null);
        if (r?.status === 201 && r.id) acknowledged.push(r.id);
        // Kill while requests are in flight: some bookings commit without an answer.
        if (acknowledged.length >= 40 && !killed) killed = platform.kill();
        if (killed) return;
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));
    await killed;
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);

    platform = await startPlatform({ dataDir: dir, env: BASE_ENV });
    try {
      const adminUrl = adminUrlOf(dir);
      const committed = await committedBookings(adminUrl);
      // Every booking a visitor was told about is there (synchronous_commit on)...
      for (const id of acknowledged) expect(committed).toContain(id);
      // ...and every committed booking's event reached the consumer, once.
      await everyBookingAudited(adminUrl);
    } finally {
      expect(await platform.stop()).toBe(0);
    }
  }, 300_000);

  it('distributed: bookings keep succeeding while NATS is down for 60 s; every event arrives once after', async () => {
    const nats = await startNatsServer();
    const dir = dataDir();
    const platform = await startPlatform({
      dataDir: dir,
      args: ['--distributed'],
      env: { ...BASE_ENV, NATS_URL: nats.url },
    });
    try {
      const upstreams = JSON.parse(readFileSync(join(dir, 'upstreams.json'), 'utf8')) as Record<
        string,
        string
      >;
      const slots = await freeSlots(platform.url, 200);
      const results: number[] = [];
      const notReady: string[] = [];
      let running = true;
      const traffic = (async () => {
        for (const slot of slots) {
          if (!running) break;
          results.push((await book(platform.url, slot)).status);
          await sleep(250);
        }
      })();
      const readiness = (async () => {
        while (running) {
          for (const [name, url] of Object.entries(upstreams)) {
            const ok = await fetch(`${url}/health/ready`).then(
              (r) => r.ok,
              () => false,
            );
            if (!ok) notReady.push(name);
          }
          await sleep(2000);
        }
      })();
      await sleep(5000);
      await nats.stop();
      const outageStart = results.length;
      await sleep(60_000);
      const duringOutage = results.slice(outageStart);
      await nats.start();
      await sleep(5000);
      running = false;
      await Promise.all([traffic, readiness]);

      expect(duringOutage.length).toBeGreaterThan(50);
      expect(results.every((s) => s === 201)).toBe(true);
      expect(notReady).toEqual([]); // no service left rotation
      const adminUrl = adminUrlOf(dir);
      await everyBookingAudited(adminUrl);
    } finally {
      expect(await platform.stop()).toBe(0);
      await nats.dispose();
    }
  }, 360_000);

  it('a consumer failing for 2 minutes loses nothing and terminates nothing', async () => {
    const nats = await startNatsServer();
    const dir = dataDir();
    // The audit trail's handler fails while this file exists: its "dependency is down".
    const failFile = join(dir, 'audit-fails');
    writeFileSync(failFile, '');
    const platform = await startPlatform({
      dataDir: dir,
      args: ['--distributed'],
      env: {
        ...BASE_ENV,
        NATS_URL: nats.url,
        PARLEY_EVENT_AUDIT_FAIL_FILE: failFile,
        // Backoff capped at 10 s, so the recovery shows within seconds of the fault ending.
        EVENT_RETRY_MAX_DELAY_SECONDS: '10',
      },
    });
    try {
      const adminUrl = adminUrlOf(dir);
      const faultStart = Date.now();
      const slots = await freeSlots(platform.url, 30);
      for (const slot of slots) expect((await book(platform.url, slot)).status).toBe(201);
      await sleep(Math.max(0, faultStart + 120_000 - Date.now()));
      // Two minutes of failing: nothing applied, nothing given up on.
      expect((await auditedBookings(adminUrl)).size).toBe(0);
      expect(await deadLetterCount(adminUrl, 'parley_audit')).toBe(0);
      rmSync(failFile);
      await everyBookingAudited(adminUrl);
      const audited = await auditedBookings(adminUrl);
      // Each was delivered several times before it could be applied: retried, not terminated.
      expect([...audited.values()].every((a) => a.firstDelivery > 5)).toBe(true);
      expect(await deadLetterCount(adminUrl, 'parley_audit')).toBe(0);
    } finally {
      expect(await platform.stop()).toBe(0);
      await nats.dispose();
    }
  }, 420_000);

  it('a poison outbox row goes to the dead letters, the others flow, and a fix replays it', async () => {
    const dir = dataDir();
    // Its own (local) bus, not the suite's NATS: dead-letter requests travel by service name
    // (`deadletters.booking.*`), and another test's replay of booking's dead letters over a
    // shared NATS could reach this platform's booking and replay the poison row before it is
    // listed (seen once in a full run).
    const platform = await startPlatform({
      dataDir: dir,
      env: { ...BASE_ENV, OUTBOX_MAX_ATTEMPTS: '3', NATS_URL: undefined },
    });
    try {
      const adminUrl = adminUrlOf(dir);
      const bookingDb = withDatabase(adminUrl, 'parley_booking');
      const poison = randomUUID();
      const requestId = randomUUID();
      // A row written around enqueueEvent's checks, as a bug or old code would.
      await query(
        bookingDb,
        `INSERT INTO outbox_events (id, subject, payload, aggregate_key)
         VALUES ($1, 'booking.contact.submitted', '{"id": 42}', $2)`,
        [poison, requestId],
      );
      const [slot] = await freeSlots(platform.url, 1);
      const fine = await book(platform.url, slot as string);
      expect(fine.status).toBe(201);
      await until('the good booking in the audit trail', async () =>
        (await auditedBookings(adminUrl)).has(fine.id as string),
      );
      await until('the poison row dead', async () => {
        const rows = await query<{ dead_at: Date | null }>(
          bookingDb,
          'SELECT dead_at FROM outbox_events WHERE id = $1',
          [poison],
        );
        return rows[0]?.dead_at != null;
      });

      const events = (...args: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/events.ts'), ...args], {
          cwd: repoRoot,
          env: { ...process.env, PARLEY_DATA_DIR: dir },
          encoding: 'utf8',
        });
      const listed = events('list', '--service', 'booking');
      expect(listed.status).toBe(0);
      expect(listed.stdout).toContain(poison);
      expect(listed.stdout).toMatch(/does not match the catalogue/);

      // The fix: a payload the catalogue accepts. Then the replay.
      await query(bookingDb, 'UPDATE outbox_events SET payload = $2::jsonb WHERE id = $1', [
        poison,
        JSON.stringify({
          id: requestId,
          firstName: 'Replayed',
          lastName: 'Request',
          email: 'replayed@example.com',
          company: 'Acme',
          companySize: null,
          message: null,
          createdAt: new Date().toISOString(),
        }),
      ]);
      const replayed = events('replay', poison, '--service', 'booking');
      expect(replayed.status).toBe(0);
      expect(replayed.stdout).toContain('1 dead letter queued for replay');
      await until('the replayed event in the audit trail', async () => {
        const rows = await query<{ n: string }>(
          withDatabase(adminUrl, 'parley_audit'),
          'SELECT count(*) AS n FROM audit_events WHERE event_id = $1',
          [poison],
        );
        return rows[0]?.n === '1';
      });
      expect(events('list', '--service', 'booking').stdout).toContain('no dead letters');
    } finally {
      expect(await platform.stop()).toBe(0);
    }
  }, 240_000);

  it('a service killed, and its database restarted, during traffic: 503 while down, recovery by itself', async () => {
    const natsUrl = process.env.NATS_URL as string;
    const secret = randomBytes(32).toString('hex');
    // booking on a PostgreSQL of its own (so it can be restarted alone), identity on another.
    const bookingPgDir = dataDir();
    const bookingPgPort = await freePort();
    let bookingPg = await startEmbeddedPostgres({ dataDir: bookingPgDir, port: bookingPgPort });
    const sharedPg = await startEmbeddedPostgres();
    const bookingDbUrl = withDatabase(bookingPg.adminUrl, 'postgres');
    const identityDbUrl = withDatabase(sharedPg.adminUrl, 'postgres');
    const bookingPort = await freePort();
    const identityPort = await freePort();
    const spawnService = (name: string, port: number, databaseUrl: string): ChildProcess =>
      spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'services', name, 'src/main.ts')], {
        cwd: join(repoRoot, 'services', name),
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: String(port),
          DATABASE_URL: databaseUrl,
          NATS_URL: natsUrl,
          INTERNAL_AUTH_SECRET: secret,
          LOG_LEVEL: 'error',
        },
        stdio: 'ignore',
      });
    const ready = (port: number) =>
      until(`service on ${port} ready`, () =>
        fetch(`http://127.0.0.1:${port}/health/ready`).then(
          (r) => r.ok,
          () => false,
        ),
      );
    let booking = spawnService('booking', bookingPort, bookingDbUrl);
    const identity = spawnService('identity', identityPort, identityDbUrl);
    await Promise.all([ready(bookingPort), ready(identityPort)]);
    const gateway = await buildGateway(
      {
        INTERNAL_AUTH_SECRET: secret,
        BOOKING_URL: `http://127.0.0.1:${bookingPort}`,
        IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
        WEB_DIST_DIR: '/nonexistent',
      },
      { logger: createLogger('faults-gateway', 'silent') },
    );
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    const addr = gateway.server.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    // A bookable date, so every read asks booking's database (a weekend answers [] without it).
    const dates = (await (await fetch(`${base}/api/bookings/dates`)).json()) as {
      dates: { date: string; available: number }[];
    };
    const date = dates.dates.find((d) => d.available > 0)?.date;
    if (!date) throw new Error(`no bookable date: ${JSON.stringify(dates)}`);
    const slotsRead = async () => {
      const t0 = Date.now();
      const r = await fetch(`${base}/api/bookings/available?date=${date}`, {
        signal: AbortSignal.timeout(10_000),
      });
      return {
        status: r.status,
        ms: Date.now() - t0,
        body: (await r.json()) as { error?: string; message?: string },
      };
    };
    // Another service keeps answering whatever happens to booking.
    const identityAnswers = async () =>
      (
        await fetch(`${base}/api/admin/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' }),
        })
      ).status;
    try {
      expect((await slotsRead()).status).toBe(200);

      // 1. The process dies.
      booking.kill('SIGKILL');
      await new Promise((r) => booking.once('exit', r));
      const down = await slotsRead();
      expect(down.status).toBe(503);
      expect(down.body.message).toMatch(/booking/);
      expect(down.ms).toBeLessThan(5000); // an answer, not a hang
      expect(await identityAnswers()).toBe(401);
      booking = spawnService('booking', bookingPort, bookingDbUrl);
      await until('the gateway reaching booking again', async () => (await slotsRead()).status === 200);

      // 2. Its database restarts under it.
      await bookingPg.stop();
      const noDb = await slotsRead();
      expect(noDb.status).toBe(503);
      expect(noDb.ms).toBeLessThan(5000);
      expect(await identityAnswers()).toBe(401);
      bookingPg = await startEmbeddedPostgres({ dataDir: bookingPgDir, port: bookingPgPort });
      await until('booking serving again without a restart', async () => (await slotsRead()).status === 200);
      expect(booking.exitCode).toBeNull();
    } finally {
      await gateway.close();
      for (const child of [booking, identity]) {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          await new Promise((r) => child.once('exit', r));
        }
      }
      await bookingPg.stop();
      await sharedPg.stop();
    }
  }, 240_000);
});
