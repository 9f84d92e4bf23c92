import { randomBytes, randomUUID } from 'node:crypto';
import { createLogger, type RunningService, signAssertion, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingService } from '../src/service.ts';

// Concurrent status changes of one booking (two admins, double clicks): each change's event
// must name the status it really replaced, so consumers can follow the booking's history.
const secret = randomBytes(32).toString('hex');
let svc: RunningService;
let db: pg.Pool;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase('booking_status_race');
  svc = await startService(bookingService, {
    env: {
      DATABASE_URL: databaseUrl,
      NATS_URL: process.env.NATS_URL,
      INTERNAL_AUTH_SECRET: secret,
      DATABASE_POOL_MAX: '10',
      LOG_LEVEL: 'silent',
    },
    logger: createLogger('booking-status-test', 'silent'),
    listen: { host: '127.0.0.1', port: 0 },
  });
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
});
afterAll(async () => {
  await db?.end();
  await svc?.stop();
});

describe('PATCH /api/bookings/:id/status under concurrency', () => {
  it('publishes each change with the true previous status', async () => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO bookings (id, name, email, time_slot, updated_at)
       VALUES ($1, 'Ada', 'ada@example.com', date_trunc('hour', now()) + interval '3 days', now())`,
      [id],
    );
    const headers = {
      'content-type': 'application/json',
      'x-parley-assertion': await signAssertion(secret, { adminId: 'a1', role: 'admin' }),
    };
    // The pool's connections exist already (a running service's steady state).
    await Promise.all(
      Array.from({ length: 10 }, () => fetch(`${svc.url}/api/bookings`, { headers }).then((r) => r.text())),
    );
    const cycle = ['completed', 'no_show', 'qualified_lead', 'client', 'confirmed'];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${svc.url}/api/bookings/${id}/status`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ status: cycle[i % cycle.length] }),
        }).then(async (r) => ({ status: r.status, body: await r.text() })),
      ),
    );
    // Each change succeeds, or (on an overloaded machine) is refused as overload with 503 and
    // Retry-After, the platform's answer when no connection frees up in time; never anything else.
    for (const a of answers) expect([200, 503], a.body).toContain(a.status);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(1);

    const { rows } = await db.query<{ previous: string; next: string }>(
      `SELECT payload->>'previousStatus' AS previous, payload->'booking'->>'status' AS next
       FROM outbox_events WHERE subject = 'booking.booking.status_changed' AND payload->'booking'->>'id' = $1`,
      [id],
    );
    const final = (await db.query('SELECT status FROM bookings WHERE id = $1', [id])).rows[0]
      .status as string;
    expect(rows.length).toBeGreaterThan(1);
    for (const e of rows) expect(e.previous).not.toBe(e.next);
    // The changes form one history from `confirmed` to the final status: every status is
    // left as often as it is entered (the start once more, the end once less). A change that
    // read a stale status names a status the booking was no longer in, and breaks the count.
    const balance = new Map<string, number>();
    const add = (s: string, n: number) => balance.set(s, (balance.get(s) ?? 0) + n);
    for (const e of rows) {
      add(e.previous, 1);
      add(e.next, -1);
    }
    add('confirmed', -1);
    add(final, 1);
    expect(Object.fromEntries([...balance].filter(([, n]) => n !== 0))).toEqual({});
  });
});
