import { randomBytes } from 'node:crypto';
import { bookingService } from '@parley/booking/service';
import {
  ASSERTION_HEADER,
  createLogger,
  type RunningService,
  type ServiceInstance,
  signAssertion,
  startService,
} from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import { voiceService } from '@parley/voice/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';

/**
 * Budgets with replicas, as `kubectl scale` makes them: three gateways, three booking services
 * on one booking database and three voice services on one voice database (one NATS), a client
 * whose requests go round-robin across the gateways, gateway i forwarding to replica i. A
 * per-client budget must hold for the whole platform, not per replica.
 */
const REPLICAS = 3;
const secret = randomBytes(32).toString('hex');
const logger = createLogger('replica-budgets', 'silent');
const services: RunningService[] = [];
const gateways: ServiceInstance[] = [];
const bases: string[] = [];

beforeAll(async () => {
  const common = {
    INTERNAL_AUTH_SECRET: secret,
    LOG_LEVEL: 'silent' as const,
    NATS_URL: process.env.NATS_URL,
  };
  const bookingDb = await createTestDatabase('budgets_booking');
  const voiceDb = await createTestDatabase('budgets_voice');
  for (let i = 0; i < REPLICAS; i++) {
    const booking = await startService(bookingService, {
      env: { ...common, DATABASE_URL: bookingDb },
      logger,
      listen: { host: '127.0.0.1', port: 0 },
    });
    // The voice service's own speech limit out of the way: what limits speech here is the
    // gateway's route budget (120 per client per minute).
    const voice = await startService(voiceService, {
      env: { ...common, DATABASE_URL: voiceDb, TTS_WORKERS: '1', TTS_RATE_LIMIT: '100000' },
      logger,
      listen: { host: '127.0.0.1', port: 0 },
    });
    services.push(booking, voice);
    const gateway = await buildGateway(
      {
        INTERNAL_AUTH_SECRET: secret,
        BOOKING_URL: booking.url,
        VOICE_URL: voice.url,
        WEB_DIST_DIR: '/nonexistent',
        METRICS_PORT: 0,
      },
      { logger },
    );
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    const addr = gateway.server.address();
    gateways.push(gateway);
    bases.push(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
  }
}, 240_000);

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  for (const s of services) await s.stop();
});

/** POSTs JSON to gateway `i % REPLICAS` (round-robin). */
async function post(i: number, path: string, body: unknown) {
  const res = await fetch(`${bases[i % REPLICAS]}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const type = res.headers.get('content-type') ?? '';
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    json: type.startsWith('application/json') ? ((await res.json()) as { error?: string }) : null,
  };
}

/** Free slots of the booking window, read through the gateways. */
async function freeSlots(wanted: number): Promise<string[]> {
  const slots: string[] = [];
  const day = new Date();
  for (let d = 0; d < 31 && slots.length < wanted; d++) {
    const date = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + d))
      .toISOString()
      .slice(0, 10);
    const res = await fetch(`${bases[d % REPLICAS]}/api/bookings/available?date=${date}`);
    expect(res.status).toBe(200);
    slots.push(...((await res.json()) as { availableSlots: string[] }).availableSlots);
  }
  return slots.slice(0, wanted);
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((t, s) => {
    t[s] = (t[s] ?? 0) + 1;
    return t;
  }, {});

describe('per-client budgets with 3 gateway and 3 service replicas', () => {
  it('PUBLIC_WRITE_RATE_LIMIT: 20 bookings per client per minute in total, not 20 per booking replica', async () => {
    const slots = await freeSlots(60);
    expect(slots).toHaveLength(60);
    // Each replica's first Prisma query loads Prisma's query compiler, which on a busy machine can
    // outlast Prisma's 2 s wait to start a transaction (a 503, whatever the budgets): an admin's
    // read of the bookings, straight to each replica, does it first.
    const assertion = await signAssertion(secret, { adminId: 'warm-up', role: 'admin' });
    for (let i = 0; i < REPLICAS; i++) {
      const res = await fetch(`${services[i * 2]!.url}/api/bookings`, {
        headers: { [ASSERTION_HEADER]: assertion },
      });
      expect(res.status).toBe(200);
    }
    // Sixty bookings, each of its own slot, spread over the three gateways: six at a time (two
    // on each replica at once; more would measure this machine's connection pools, not budgets).
    const answers: Array<Awaited<ReturnType<typeof post>>> = [];
    for (let wave = 0; wave < 10; wave++)
      answers.push(
        ...(await Promise.all(
          slots.slice(wave * 6, wave * 6 + 6).map((timeSlot, j) => {
            const i = wave * 6 + j;
            return post(i, '/api/bookings', {
              name: `Replica ${i}`,
              email: `replica-${i}@budgets.test`,
              company: 'Budgets',
              timeSlot,
            });
          }),
        )),
      );
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 20, 429: 40 });
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.json?.error).toBe('Too Many Requests');
    expect(Number(refused?.retryAfter)).toBeGreaterThan(0);
  });

  it("the gateway's route budget: 120 syntheses per client per minute in total, not 120 per gateway", async () => {
    // The same line each time: after the first syntheses most answers come from the edge cache,
    // which the budget is counted before.
    const answers: Array<{ status: number; retryAfter: string | null }> = [];
    for (let round = 0; round < 6; round++)
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            post(round * 30 + i, '/api/voice/text-to-speech', { text: 'Budgets hold across replicas.' }),
          ),
        )),
      );
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 120, 429: 60 });
    expect(Number(answers.find((a) => a.status === 429)?.retryAfter)).toBeGreaterThan(0);
  });
});
