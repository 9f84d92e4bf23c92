import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger, type ServiceInstance } from '@parley/kit';
import { freePort } from '@parley/kit/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';

/**
 * The gateway against real upstream processes' HTTP servers that stop, start again, hang,
 * or outlive it: what a client sees, and what the service sees when either side stops.
 */
const logger = createLogger('gateway-upstreams-test', 'silent');
const open: Array<{ close(): Promise<unknown> }> = [];

afterEach(async () => {
  for (const it of open.splice(0).reverse()) await it.close();
});

/** A stand-in booking service on a fixed port (so it can come back on the same address). */
async function bookingOn(port: number, opts: { hang?: boolean } = {}): Promise<FastifyInstance> {
  // The services' own settings (services/kit/src/app.ts).
  const app = Fastify({ forceCloseConnections: 'idle', return503OnClosing: false });
  app.get('/api/bookings/available', async () => ({ availableSlots: ['09:00'] }));
  if (opts.hang) {
    app.get('/api/bookings', () => new Promise(() => {}));
    app.get('/health/live', () => new Promise(() => {}));
  }
  await app.listen({ host: '127.0.0.1', port });
  return app;
}

async function gatewayFor(
  port: number,
  extra: Record<string, unknown> = {},
): Promise<{ app: ServiceInstance; base: string }> {
  const app = await buildGateway(
    {
      INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
      BOOKING_URL: `http://127.0.0.1:${port}`,
      WEB_DIST_DIR: '/nonexistent',
      METRICS_PORT: 0,
      ...extra,
    },
    { logger, auth: { resolve: async () => ({ adminId: 'a-1', role: 'admin', mustChangePassword: false }) } },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  return { app, base: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
}

async function getJson(url: string) {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

describe('gateway and its upstreams', () => {
  it('answers 503 JSON with Retry-After while a service is down, and recovers when it is back', async () => {
    const port = await freePort();
    let booking = await bookingOn(port);
    const { app, base } = await gatewayFor(port);
    open.push(app);
    expect((await getJson(`${base}/api/bookings/available`)).status).toBe(200);

    // The service stops (its keep-alive connections from the gateway go with it).
    await booking.close();
    const down = await getJson(`${base}/api/bookings/available`);
    expect(down.status).toBe(503);
    expect(down.json).toEqual({
      error: 'Service Unavailable',
      message: 'The booking service is not available right now. Please try again in a few seconds.',
    });
    expect(down.headers.get('retry-after')).toBe('5');
    // Writes too: nothing reached the service, so nothing is half done.
    const write = await fetch(`${base}/api/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(write.status).toBe(503);

    // The same address answers again: the gateway reconnects by itself.
    booking = await bookingOn(port);
    open.push(booking);
    const back = await getJson(`${base}/api/bookings/available`);
    expect(back.status).toBe(200);
    expect(back.json).toEqual({ availableSlots: ['09:00'] });
  });

  it("logs a failed request with its own request id (the request's logger is made on first use)", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const port = await freePort(); // nothing listens: the service is down
    const app = await buildGateway(
      {
        INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
        BOOKING_URL: `http://127.0.0.1:${port}`,
        WEB_DIST_DIR: '/nonexistent',
        METRICS_PORT: 0,
      },
      { logger: pino({ level: 'warn' }, sink) },
    );
    open.push(app);
    const res = await app.inject({
      method: 'GET',
      url: '/api/bookings/available',
      headers: { 'x-request-id': 'req-42' },
    });
    expect(res.statusCode).toBe(503);
    // The kit logs every 5xx through the request's logger, which carries the request id.
    expect(lines.find((l) => l.msg === 'server error')).toMatchObject({ reqId: 'req-42', statusCode: 503 });
    // The same over HTTP, where a public read takes the fast path.
    await app.listen({ host: '127.0.0.1', port: 0 });
    const addr = app.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/api/bookings/available`;
    const overHttp = await fetch(url, { headers: { 'x-request-id': 'req-43' } });
    expect(overHttp.status).toBe(503);
    expect(lines.find((l) => l.msg === 'server error' && l.reqId === 'req-43')).toMatchObject({
      statusCode: 503,
      url: '/api/bookings/available',
    });
  });

  it('applies TRUST_PROXY the same way to public reads and to everything else', async () => {
    const port = await freePort();
    const echo = Fastify();
    echo.all('/*', async (req) => ({ headers: req.headers }));
    await echo.listen({ host: '127.0.0.1', port });
    open.push(echo);
    const forwarded = {
      'x-forwarded-for': '198.51.100.9, 203.0.113.7',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'www.parley.example',
    };
    const seen = async (trust: string | undefined) => {
      const { app, base } = await gatewayFor(port, trust ? { TRUST_PROXY: trust } : {});
      open.push(app);
      const read = await fetch(`${base}/api/bookings/available`, { headers: forwarded });
      const write = await fetch(`${base}/api/contact`, {
        method: 'POST',
        headers: { ...forwarded, 'content-type': 'application/json' },
        body: '{}',
      });
      const pick = async (r: Response) => {
        const h = ((await r.json()) as { headers: Record<string, string> }).headers;
        return [h['x-forwarded-for'], h['x-forwarded-proto'], h['x-forwarded-host']];
      };
      return { read: await pick(read), write: await pick(write), base };
    };
    const none = await seen(undefined);
    expect(none.read).toEqual(['127.0.0.1', 'http', new URL(none.base).host]);
    expect(none.write).toEqual(none.read);
    // A hop count: Fastify 5.12 trusts no peer for it (fail closed); both paths agree.
    const oneHop = await seen('1');
    expect(oneHop.write).toEqual(oneHop.read);
    // The load balancer's network trusted: the client is the last address it added.
    const loopback = await seen('127.0.0.1/8');
    expect(loopback.read).toEqual(['203.0.113.7', 'https', 'www.parley.example']);
    expect(loopback.write).toEqual(loopback.read);
  });

  it('answers 504 JSON when a service takes longer than the upstream timeout', async () => {
    const port = await freePort();
    const booking = await bookingOn(port, { hang: true });
    const { app, base } = await gatewayFor(port, { UPSTREAM_TIMEOUT_SECONDS: 0.2 });
    open.push({ close: async () => booking.server.closeAllConnections() }, booking, app);
    // The service never answers these routes: the outcome cannot depend on the machine's speed.
    for (const path of ['/api/bookings', '/api/health/booking']) {
      const r = await getJson(`${base}${path}`);
      expect(r.status, path).toBe(504);
      expect(r.json, path).toEqual({
        error: 'Gateway Timeout',
        message: 'The booking service did not answer in time. Please try again.',
      });
    }
    // Other routes of the same service are unaffected.
    expect((await getJson(`${base}/api/bookings/available`)).status).toBe(200);
  });

  it('closes its upstream connections when it closes, so a service stopping next is not kept waiting', async () => {
    const port = await freePort();
    const booking = await bookingOn(port);
    open.push(booking);
    const { app, base } = await gatewayFor(port);
    // Enough parallel requests that the gateway holds several keep-alive connections.
    await Promise.all(Array.from({ length: 20 }, () => getJson(`${base}/api/bookings/available`)));
    const held = await new Promise<number>((resolve, reject) =>
      booking.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
    );
    expect(held).toBeGreaterThan(0);
    await app.close();
    // Closing the gateway closed every connection it had opened: the service holds none.
    const left = await new Promise<number>((resolve, reject) => {
      const check = () =>
        booking.server.getConnections((err, n) => {
          if (err) return reject(err);
          if (n === 0) return resolve(0);
          // FIN travels asynchronously; the next check comes once the loop has run.
          setTimeout(check, 5);
        });
      check();
    });
    expect(left).toBe(0);
  });
});
