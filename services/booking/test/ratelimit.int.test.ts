import { randomBytes } from 'node:crypto';
import { createLogger, type RunningService, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bookingService } from '../src/service.ts';

let svc: RunningService;
/** The same service under the load-test switch. */
let raised: RunningService;

const start = async (name: string, extra: Record<string, string>) =>
  startService(bookingService, {
    env: {
      DATABASE_URL: await createTestDatabase(name),
      NATS_URL: process.env.NATS_URL,
      INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
      PUBLIC_WRITE_RATE_LIMIT: '3',
      ...extra,
    },
    logger: createLogger('booking-rl', 'silent'),
    listen: { host: '127.0.0.1', port: 0 },
  });

beforeAll(async () => {
  svc = await start('booking_rl', {});
  raised = await start('booking_rl_x', { RATE_LIMIT_MULTIPLIER: '2' });
});
afterAll(async () => {
  await svc?.stop();
  await raised?.stop();
});

const contact = (service: RunningService, ip: string) =>
  fetch(`${service.url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ firstName: 'A', lastName: 'B', email: 'a@b.co', company: 'C' }),
  });

it('limits public writes per client IP with 429 and Retry-After', async () => {
  const post = (ip: string) => contact(svc, ip);
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await post('203.0.113.7')).status);
  expect(statuses).toEqual([201, 201, 201, 429]);
  const limited = await post('203.0.113.7');
  expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(await limited.json()).toMatchObject({ error: 'Too Many Requests' });
  // Another client is unaffected.
  expect((await post('203.0.113.8')).status).toBe(201);
});

it('RATE_LIMIT_MULTIPLIER, the one load-test switch, raises the public write limit too', async () => {
  const statuses = [];
  for (let i = 0; i < 7; i++) statuses.push((await contact(raised, '203.0.113.9')).status);
  expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429]);
});
