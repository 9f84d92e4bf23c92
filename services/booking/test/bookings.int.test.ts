import { randomBytes } from 'node:crypto';
import type { EventEnvelope } from '@parley/contracts';
import {
  createBus,
  createLogger,
  type EventBus,
  plainConsumer,
  type RunningService,
  signAssertion,
  startService,
} from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingService } from '../src/service.ts';

const secret = randomBytes(32).toString('hex');
const logger = createLogger('booking-test', 'silent');
let svc: RunningService;
let observer: EventBus;
const received: EventEnvelope[] = [];

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const adminHeaders = async () => ({
  'x-parley-assertion': await signAssertion(secret, { adminId: 'a1', role: 'admin' }),
});

/** The first date of the window that offers at least `n` slots, with its slots. */
async function firstOpenDate(n = 1): Promise<{ date: string; slots: string[] }> {
  const start = new Date();
  for (let i = 0; i < 16; i++) {
    const d = new Date(start.getTime() + i * 86_400_000);
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(d);
    const r = await call('GET', `/api/bookings/available?date=${date}`);
    if (r.status === 200 && r.body.availableSlots.length >= n) return { date, slots: r.body.availableSlots };
  }
  throw new Error('no open date in the window');
}

beforeAll(async () => {
  const natsUrl = process.env.NATS_URL;
  if (!natsUrl) throw new Error('NATS_URL is required for integration tests');
  svc = await startService(bookingService, {
    env: {
      DATABASE_URL: await createTestDatabase('booking_api'),
      NATS_URL: natsUrl,
      INTERNAL_AUTH_SECRET: secret,
      PUBLIC_WRITE_RATE_LIMIT: '1000',
      LOG_LEVEL: 'silent',
    },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  observer = await createBus({ natsUrl, name: 'booking-test-observer', logger });
  await observer.subscribe(
    plainConsumer({
      durable: `booking-test-${Date.now()}`,
      subjects: ['booking.booking.created', 'booking.booking.status_changed', 'booking.contact.submitted'],
      handler: async (e) => {
        received.push(e);
      },
    }),
  );
});

afterAll(async () => {
  await observer?.close();
  await svc?.stop();
});

describe('GET /api/bookings/available', () => {
  it('answers 400 for a malformed or impossible date', async () => {
    for (const date of ['2026-1-1', 'tomorrow', '2026-02-30']) {
      const r = await call('GET', `/api/bookings/available?date=${date}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('Bad Request');
      expect(typeof r.body.message).toBe('string');
    }
    expect((await call('GET', '/api/bookings/available')).status).toBe(400);
  });

  it('offers nothing outside the window and is never cached', async () => {
    const r = await call('GET', '/api/bookings/available?date=2020-01-06');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ availableSlots: [] });
    expect(r.headers.get('cache-control')).toBe('no-store');
  });
});

describe('GET /api/bookings/dates', () => {
  it("the picker's dates with their free slots: none on days the schedule never works", async () => {
    const r = await call('GET', '/api/bookings/dates');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const dates = r.body.dates as Array<{ date: string; available: number }>;
    expect(dates).toHaveLength(14);
    for (const { date, available } of dates) {
      const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
      // The default schedule works Monday to Friday: a weekend day never has a slot.
      if (weekday === 0 || weekday === 6) expect(available, date).toBe(0);
      // Each count is the slot list's own.
      const slots = await call('GET', `/api/bookings/available?date=${date}`);
      expect(slots.body.availableSlots.length, date).toBe(available);
    }
    expect(dates.some((d) => d.available > 0)).toBe(true);
  });

  it('a booking takes one slot off its date', async () => {
    const { date, slots } = await firstOpenDate();
    const before = (await call('GET', '/api/bookings/dates')).body.dates.find(
      (d: { date: string }) => d.date === date,
    );
    const booked = await call('POST', '/api/bookings', {
      name: 'Grace Hopper',
      email: 'grace@example.com',
      timeSlot: slots[slots.length - 1],
    });
    expect(booked.status).toBe(201);
    const after = (await call('GET', '/api/bookings/dates')).body.dates.find(
      (d: { date: string }) => d.date === date,
    );
    expect(after.available).toBe(before.available - 1);
  });
});

describe('POST /api/bookings', () => {
  it('books a slot, removes it from the list and publishes booking.created', async () => {
    const { date, slots } = await firstOpenDate();
    const slot = slots[0]!;
    const r = await call('POST', '/api/bookings', {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '5551234567',
      company: 'Analytical Engines',
      timeSlot: slot,
      notes: 'Interested in healthcare',
      guests: [{ name: 'Charles', email: 'charles@example.com' }],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      status: 'confirmed',
      timeZone: 'America/New_York',
      phone: '(555) 123-4567',
    });
    const after = await call('GET', `/api/bookings/available?date=${date}`);
    expect(after.body.availableSlots).not.toContain(slot);
    await expect
      .poll(
        () =>
          received.find(
            (e) => e.subject === 'booking.booking.created' && (e.payload as { id: string }).id === r.body.id,
          ),
        { timeout: 10_000 },
      )
      .toBeTruthy();
  });

  it('rejects bad input with 400 and stores nothing', async () => {
    const { slots } = await firstOpenDate();
    const cases = [
      { email: 'a@b.co', timeSlot: slots[0] },
      { name: 'X', email: 'not-an-email', timeSlot: slots[0] },
      { name: 'X', email: 'a@b.co' },
      { name: 'X', email: 'a@b.co', timeSlot: slots[0], phone: '12345' },
      { name: 'X', email: 'a@b.co', timeSlot: slots[0], guests: [{ name: 'G', email: 'nope' }] },
      {
        name: 'X',
        email: 'a@b.co',
        timeSlot: slots[0],
        guests: Array.from({ length: 11 }, (_, i) => ({ name: 'G', email: `g${i}@x.io` })),
      },
      { name: 'X', email: 'a@b.co', timeSlot: '2020-01-06T14:00:00.000Z' },
    ];
    for (const body of cases) {
      const r = await call('POST', '/api/bookings', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toBeTruthy();
    }
    const after = await call(
      'GET',
      `/api/bookings/available?date=${new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date(slots[0]!))}`,
    );
    expect(after.body.availableSlots).toContain(slots[0]);
  });

  it('lets exactly one of 100 parallel bookings of one slot succeed', async () => {
    const { slots } = await firstOpenDate(2);
    const slot = slots[1]!;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call('POST', '/api/bookings', { name: `Racer ${i}`, email: `racer${i}@example.com`, timeSlot: slot }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(99);
    expect(results.find((r) => r.status === 409)?.body.message).toMatch(/just been booked/);
  });
});

describe('admin booking management', () => {
  it('refuses without a valid assertion', async () => {
    expect((await call('GET', '/api/bookings')).status).toBe(401);
    expect(
      (await call('GET', '/api/bookings', undefined, { 'x-parley-assertion': 'forged.token.value' })).status,
    ).toBe(401);
    const wrongKey = await signAssertion(randomBytes(32).toString('hex'), {
      adminId: 'x',
      role: 'super_admin',
    });
    expect((await call('GET', '/api/bookings', undefined, { 'x-parley-assertion': wrongKey })).status).toBe(
      401,
    );
  });

  it('lists bookings and changes a status, publishing the change', async () => {
    const headers = await adminHeaders();
    const list = await call('GET', '/api/bookings', undefined, headers);
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
    const id = list.body[0].id;
    const bad = await call('PATCH', `/api/bookings/${id}/status`, { status: 'lost' }, headers);
    expect(bad.status).toBe(400);
    const missing = await call(
      'PATCH',
      '/api/bookings/00000000-0000-4000-8000-000000000000/status',
      { status: 'completed' },
      headers,
    );
    expect(missing.status).toBe(404);
    const ok = await call('PATCH', `/api/bookings/${id}/status`, { status: 'qualified_lead' }, headers);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('qualified_lead');
    await expect
      .poll(() => received.some((e) => e.subject === 'booking.booking.status_changed'), { timeout: 10_000 })
      .toBe(true);
  });

  it('frees a slot when its booking is cancelled', async () => {
    const headers = await adminHeaders();
    const { date, slots } = await firstOpenDate(3);
    const slot = slots[2]!;
    const created = await call('POST', '/api/bookings', {
      name: 'C',
      email: 'c@example.com',
      timeSlot: slot,
    });
    expect(created.status).toBe(201);
    await call('PATCH', `/api/bookings/${created.body.id}/status`, { status: 'cancelled' }, headers);
    const after = await call('GET', `/api/bookings/available?date=${date}`);
    expect(after.body.availableSlots).toContain(slot);
  });
});

describe('POST /api/contact', () => {
  it('stores a demo request, publishes it, and lists it for admins', async () => {
    const r = await call('POST', '/api/contact', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      company: 'Navy',
      companySize: '201-1000',
      message: 'Call me',
    });
    expect(r.status).toBe(201);
    expect(r.body.success).toBe(true);
    const list = await call('GET', '/api/contact-requests', undefined, await adminHeaders());
    expect(list.status).toBe(200);
    expect(list.body.items[0]).toMatchObject({ email: 'grace@example.com', companySize: '201-1000' });
    await expect
      .poll(() => received.some((e) => e.subject === 'booking.contact.submitted'), { timeout: 10_000 })
      .toBe(true);
  });

  it('stores and publishes the form with LF lines and one-line names (no bare CR reaches mail)', async () => {
    const r = await call('POST', '/api/contact', {
      firstName: 'Eve\r',
      lastName: 'Smuggler\r\nBcc: x@evil.test',
      email: 'eve@example.com',
      company: 'Evil\u0007 Corp',
      message: 'one\r.\r\rtwo\r\nthree',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const ofRequest = () =>
      received.find(
        (e) => e.subject === 'booking.contact.submitted' && (e.payload as { id: string }).id === r.body.id,
      );
    await expect.poll(ofRequest, { timeout: 10_000 }).toBeTruthy();
    const event = ofRequest();
    expect(event?.payload).toMatchObject({
      firstName: 'Eve',
      lastName: 'Smuggler Bcc: x@evil.test',
      company: 'Evil Corp',
      message: 'one\n.\n\ntwo\nthree',
    });
    expect(
      (
        await call('POST', '/api/contact', {
          firstName: '\r\n',
          lastName: 'B',
          email: 'a@b.co',
          company: 'C',
        })
      ).status,
    ).toBe(400);
  });

  it('rejects missing required fields and unknown company sizes', async () => {
    expect(
      (await call('POST', '/api/contact', { firstName: 'A', email: 'a@b.co', company: 'C' })).status,
    ).toBe(400);
    expect(
      (
        await call('POST', '/api/contact', {
          firstName: 'A',
          lastName: 'B',
          email: 'a@b.co',
          company: 'C',
          companySize: '5000',
        })
      ).status,
    ).toBe(400);
  });
});
