import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Conversation, EventEnvelope } from '@parley/contracts';
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
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceService } from '../src/service.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers
type Json = any;
const secret = randomBytes(32).toString('hex');
const logger = createLogger('voice-calls-test', 'silent');
let sim: RunningService;
let twilioSvc: RunningService;
let admin: Record<string, string>;
let observer: EventBus;
let db: pg.Pool;
const events: EventEnvelope[] = [];
const AUTH_TOKEN = 'f'.repeat(32);
const BASE = 'https://parley.example';

/**
 * A stand-in for Twilio's REST API (the real SDK talks to it through TWILIO_API_URL): each
 * test decides how a call creation is answered, and may send status callbacks first.
 */
type TwilioAnswer = { status: number; body: Record<string, unknown> };
const twilioCreates: Array<Record<string, string>> = [];
const newSid = () => `CA${randomBytes(16).toString('hex')}`;
let answerCreate: (form: Record<string, string>) => Promise<TwilioAnswer> = async () => ({
  status: 201,
  body: { sid: newSid(), status: 'queued' },
});
let fakeTwilio: Server;
let fakeTwilioUrl: string;

async function call(
  svc: RunningService,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: Json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body: json, text };
}
const until = async (cond: () => Promise<boolean> | boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Twilio's documented algorithm: HMAC-SHA1 over the URL plus the POST fields sorted by name. */
function twilioSignature(token: string, url: string, params: Record<string, string>): string {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((k) => k + params[k])
      .join('');
  return createHmac('sha1', token).update(Buffer.from(data, 'utf-8')).digest('base64');
}

beforeAll(async () => {
  fakeTwilio = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method !== 'POST' || !/^\/2010-04-01\/Accounts\/AC\w+\/Calls\.json$/.test(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":20404,"status":404}');
      return;
    }
    const form = Object.fromEntries(new URLSearchParams(raw));
    twilioCreates.push(form);
    const answer = await answerCreate(form);
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => fakeTwilio.listen(0, '127.0.0.1', resolve));
  const address = fakeTwilio.address();
  fakeTwilioUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const natsUrl = process.env.NATS_URL;
  const common = {
    INTERNAL_AUTH_SECRET: secret,
    NATS_URL: natsUrl,
    LOG_LEVEL: 'silent' as const,
    TTS_WORKERS: '1',
  };
  const databaseUrl = await createTestDatabase('voice_calls');
  sim = await startService(voiceService, {
    env: {
      ...common,
      DATABASE_URL: databaseUrl,
      DEMO_CALLS_PER_NUMBER_PER_DAY: '2',
      DEMO_CALLS_PER_IP_PER_DAY: '4',
      DEMO_CALLS_MAX_CONCURRENT: '3',
    },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  // A replica configured for Twilio: it places calls through the stand-in and checks callbacks.
  twilioSvc = await startService(voiceService, {
    env: {
      ...common,
      DATABASE_URL: databaseUrl,
      NATS_URL: process.env.NATS_URL,
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_FROM_NUMBER: '+15005550006',
      TWILIO_API_URL: fakeTwilioUrl,
      PUBLIC_ORIGIN: BASE,
      DEMO_CALLS_PER_NUMBER_PER_DAY: '2',
      DEMO_CALLS_PER_IP_PER_DAY: '5',
      DEMO_CALLS_MAX_CONCURRENT: '3',
    },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  admin = { 'x-parley-assertion': await signAssertion(secret, { adminId: 'a1', role: 'admin' }) };
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  observer = await createBus({ natsUrl, name: 'voice-test-observer', logger });
  await observer.subscribe(
    plainConsumer({
      durable: `voice-test-${Date.now()}`,
      subjects: ['voice.call.started', 'voice.call.completed'],
      handler: async (e) => void events.push(e),
    }),
  );
});
afterAll(async () => {
  await observer?.close();
  await db?.end();
  await twilioSvc?.stop();
  await sim?.stop();
  await new Promise((resolve) => fakeTwilio?.close(resolve));
});

describe('admin calls (simulated without Twilio)', () => {
  it('requires a phone number and an admin', async () => {
    expect((await call(sim, 'POST', '/api/voice/call', { phoneNumber: '5551234567' })).status).toBe(401);
    const missing = await call(sim, 'POST', '/api/voice/call', { phoneNumber: ' ' }, admin);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Please enter a phone number');
  });

  it('normalises the number, goes through Twilio’s statuses to completed and records a transcript', async () => {
    const r = await call(
      sim,
      'POST',
      '/api/voice/call',
      { phoneNumber: '(415) 555-0134', message: 'Hello from the test.' },
      admin,
    );
    expect(r.status).toBe(200);
    const sid = r.body.callSid as string;
    const seen = new Set<string>();
    await until(async () => {
      const list = (await call(sim, 'GET', '/api/voice/conversations', undefined, admin)).body
        .conversations as Conversation[];
      const c = list.find((x) => x.callSid === sid);
      if (c) seen.add(c.status);
      return c?.status === 'completed';
    });
    const list = (await call(sim, 'GET', '/api/voice/conversations', undefined, admin)).body
      .conversations as Conversation[];
    const c = list.find((x) => x.callSid === sid) as Conversation;
    expect(c).toMatchObject({ phone: '+14155550134', status: 'completed', simulated: true, kind: 'admin' });
    expect(c.duration).toBeGreaterThan(0);
    expect(c.transcript[0]).toBe('AI: Hello from the test.');
    expect(seen.has('in-progress') || seen.has('ringing')).toBe(true);
    // The shared test NATS holds other suites' voice events too (some built by hand, without a conversation).
    await until(() =>
      ['voice.call.started', 'voice.call.completed'].every((s) =>
        events.some((e) => e.subject === s && (e.payload as Json).conversation?.callSid === sid),
      ),
    );
  });

  it('shows live figures on the overview', async () => {
    const o = await call(sim, 'GET', '/api/voice/overview', undefined, admin);
    expect(o.body).toMatchObject({ speechEngine: 'local', callProvider: 'simulator', simulatedCalls: true });
    expect(o.body.callsToday).toBeGreaterThanOrEqual(1);
  });
});

describe('Twilio status callbacks', () => {
  const path = '/api/voice/twilio/status';
  const form = (params: Record<string, string>, signature?: string) =>
    fetch(`${twilioSvc.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature ? { 'x-twilio-signature': signature } : {}),
      },
      body: new URLSearchParams(params).toString(),
    });

  it('accepts a correctly signed callback and applies it; refuses unsigned and altered ones', async () => {
    const callSid = `CA${randomBytes(16).toString('hex')}`;
    await db.query(
      `INSERT INTO conversations (id, call_sid, phone, status, kind, simulated, updated_at) VALUES (gen_random_uuid(), $1, '+14155550100', 'ringing', 'admin', false, now())`,
      [callSid],
    );
    const params = {
      CallSid: callSid,
      CallStatus: 'completed',
      CallDuration: '42',
      AccountSid: `AC${'0'.repeat(32)}`,
    };
    const good = twilioSignature(AUTH_TOKEN, `${BASE}${path}`, params);
    expect((await form(params)).status).toBe(403);
    expect((await form(params, 'bm90IGEgc2lnbmF0dXJl')).status).toBe(403);
    expect((await form({ ...params, CallDuration: '9999' }, good)).status).toBe(403);
    expect((await form(params, twilioSignature('x'.repeat(32), `${BASE}${path}`, params))).status).toBe(403);
    const ok = await form(params, good);
    expect(ok.status).toBe(200);
    const { rows } = await db.query('SELECT status, duration FROM conversations WHERE call_sid = $1', [
      callSid,
    ]);
    expect(rows[0]).toEqual({ status: 'completed', duration: 42 });
  });

  it('answers 404 on a replica without Twilio', async () => {
    expect(
      (
        await fetch(`${sim.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'a=b',
        })
      ).status,
    ).toBe(404);
  });
});

describe('demo calls (Try AI Agent)', () => {
  const demo = (phone: string, ip: string, name = 'Ada') =>
    call(sim, 'POST', '/api/voice/demo-call', { name, phone_number: phone }, { 'x-forwarded-for': ip });

  it('accepts US numbers only', async () => {
    for (const bad of ['12345', '+44 20 7946 0958', '(055) 123-4567', '555-123-456']) {
      const r = await demo(bad, '198.51.100.1');
      expect(r.status, bad).toBe(400);
      expect(r.body.message).toBe('Please enter a valid 10-digit US phone number');
    }
    const ok = await demo('(212) 555-0101', '198.51.100.1');
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('initiated');
  });

  it('limits calls per destination number per day', async () => {
    expect((await demo('212-555-0102', '198.51.100.2')).status).toBe(200);
    expect((await demo('212-555-0102', '198.51.100.3')).status).toBe(200);
    const third = await demo('2125550102', '198.51.100.4');
    expect(third.status).toBe(429);
    expect(third.body.message).toMatch(/maximum number of demo calls today/);
    expect(third.headers.get('retry-after')).toBeTruthy();
  });

  it('limits concurrent demo calls even under a parallel burst', async () => {
    // Let earlier calls finish first so only this burst is active.
    await until(
      async () =>
        Number(
          (
            await db.query(
              `SELECT count(*) AS n FROM conversations WHERE kind = 'demo' AND status NOT IN ('completed','busy','failed','no-answer','canceled')`,
            )
          ).rows[0].n,
        ) === 0,
    );
    const burst = await Promise.all(
      Array.from({ length: 6 }, (_, i) => demo(`(312) 555-01${String(10 + i)}`, `198.51.101.${i + 1}`)),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    expect(burst.find((r) => r.status === 429)?.body.message).toBe(
      'All demo lines are busy right now. Please try again in a minute.',
    );
  });

  it('limits demo calls per client address per day', async () => {
    await until(
      async () =>
        Number(
          (
            await db.query(
              `SELECT count(*) AS n FROM conversations WHERE kind = 'demo' AND status NOT IN ('completed','busy','failed','no-answer','canceled')`,
            )
          ).rows[0].n,
        ) === 0,
    );
    const ip = '198.51.102.9';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await demo(`(646) 555-01${String(20 + i)}`, ip)).status);
      await until(
        async () =>
          Number(
            (
              await db.query(
                `SELECT count(*) AS n FROM conversations WHERE kind = 'demo' AND status NOT IN ('completed','busy','failed','no-answer','canceled')`,
              )
            ).rows[0].n,
          ) < 3,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});

describe('calls through Twilio (the real SDK against a stand-in API)', () => {
  const activeDemoCalls = async () =>
    Number(
      (
        await db.query(
          `SELECT count(*) AS n FROM conversations WHERE kind = 'demo' AND status NOT IN ('completed','busy','failed','no-answer','canceled')`,
        )
      ).rows[0].n,
    );
  /** Sends a status callback the way Twilio does: to the URL it was given, signed over it. */
  const callback = async (statusCallback: string, params: Record<string, string>) => {
    const url = new URL(statusCallback);
    const res = await fetch(`${twilioSvc.url}${url.pathname}${url.search}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(AUTH_TOKEN, statusCallback, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    return res.status;
  };
  const status = (callSid: string, CallStatus: string, more: Record<string, string> = {}) => ({
    CallSid: callSid,
    CallStatus,
    AccountSid: `AC${'0'.repeat(32)}`,
    ...more,
  });
  const rowOf = async (where: string, value: string) =>
    (
      await db.query(
        `SELECT id, call_sid, status, duration, place_error FROM conversations WHERE ${where} = $1 ORDER BY created_at`,
        [value],
      )
    ).rows;
  const eventsOf = async (conversationId: string) =>
    Object.fromEntries(
      (
        await db.query(
          `SELECT subject, count(*)::int AS n FROM outbox_events WHERE payload->'conversation'->>'id' = $1 GROUP BY subject`,
          [conversationId],
        )
      ).rows.map((r) => [r.subject, r.n]),
    );
  const demo = (phone: string, ip: string) =>
    call(
      twilioSvc,
      'POST',
      '/api/voice/demo-call',
      { name: 'Grace', phone_number: phone },
      { 'x-forwarded-for': ip },
    );

  it('applies status callbacks that arrive before Twilio answers the call creation', async () => {
    const sid = newSid();
    answerCreate = async (form) => {
      // Twilio may call back (initiated, ringing) before its answer to the creation arrives.
      expect(form.StatusCallback).toMatch(
        /^https:\/\/parley\.example\/api\/voice\/twilio\/status\?conversation=[0-9a-f-]{36}$/,
      );
      expect(await callback(form.StatusCallback as string, status(sid, 'initiated'))).toBe(200);
      expect(await callback(form.StatusCallback as string, status(sid, 'ringing'))).toBe(200);
      return { status: 201, body: { sid, status: 'queued' } };
    };
    const r = await call(twilioSvc, 'POST', '/api/voice/call', { phoneNumber: '+1 (415) 555-0177' }, admin);
    expect(r.status).toBe(200);
    expect(r.body.callSid).toBe(sid);
    const [row] = await rowOf('call_sid', sid);
    expect(row).toMatchObject({ call_sid: sid, status: 'ringing', place_error: null });
    const statusCallback = twilioCreates.at(-1)?.StatusCallback as string;
    expect(statusCallback).toBe(`${BASE}/api/voice/twilio/status?conversation=${row.id}`);
    expect(await callback(statusCallback, status(sid, 'completed', { CallDuration: '12' }))).toBe(200);
    expect((await rowOf('call_sid', sid))[0]).toMatchObject({ status: 'completed', duration: 12 });
    // Started once (by the early callback) and completed once.
    expect(await eventsOf(row.id)).toEqual({ 'voice.call.started': 1, 'voice.call.completed': 1 });
    const listed = (await call(twilioSvc, 'GET', '/api/voice/conversations', undefined, admin)).body
      .conversations as Conversation[];
    expect(listed.find((c) => c.callSid === sid)).toMatchObject({
      kind: 'admin',
      simulated: false,
      status: 'completed',
    });
  });

  it('refuses a callback whose query (the conversation) was altered after signing', async () => {
    const sid = newSid();
    answerCreate = async () => ({ status: 201, body: { sid, status: 'queued' } });
    expect(
      (await call(twilioSvc, 'POST', '/api/voice/call', { phoneNumber: '4155550178' }, admin)).status,
    ).toBe(200);
    const signedFor = twilioCreates.at(-1)?.StatusCallback as string;
    const other = signedFor.replace(/conversation=.*/, `conversation=${crypto.randomUUID()}`);
    const params = status(sid, 'completed');
    const res = await fetch(`${twilioSvc.url}${new URL(other).pathname}${new URL(other).search}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(AUTH_TOKEN, signedFor, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(res.status).toBe(403);
    expect((await rowOf('call_sid', sid))[0].status).toBe('queued');
    expect(await callback(signedFor, params)).toBe(200);
  });

  it('places a demo call outside any transaction: a slow Twilio answer neither fails it nor holds other calls', async () => {
    await until(async () => (await activeDemoCalls()) === 0);
    const slowSid = newSid();
    let releaseSlow!: () => void;
    const slowAnswered = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    let slowArrived = false;
    answerCreate = async (form) => {
      if (form.To !== '+17185550150') return { status: 201, body: { sid: newSid(), status: 'queued' } };
      slowArrived = true;
      await slowAnswered;
      return { status: 201, body: { sid: slowSid, status: 'queued' } };
    };
    const slow = demo('(718) 555-0150', '198.51.110.1');
    await until(() => slowArrived);
    const t0 = Date.now();
    // While Twilio thinks, the reservation is committed (it holds a demo line for this call)…
    expect(await rowOf('phone', '+17185550150')).toEqual([
      expect.objectContaining({ call_sid: null, status: 'queued', place_error: null }),
    ]);
    // …and another visitor's demo call goes through at once.
    const other = await demo('(718) 555-0151', '198.51.110.2');
    expect(other.status).toBe(200);
    // Twilio answers after more than Prisma's 5 s transaction timeout.
    await new Promise((r) => setTimeout(r, Math.max(0, 6000 - (Date.now() - t0))));
    releaseSlow();
    const answered = await slow;
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({ status: 'initiated', callSid: slowSid });
    const [row] = await rowOf('phone', '+17185550150');
    expect(row).toMatchObject({ call_sid: slowSid, status: 'queued' });
    expect(await eventsOf(row.id)).toEqual({ 'voice.call.started': 1 });
    // Both calls end.
    for (const c of twilioCreates.filter((f) => f.To === '+17185550150' || f.To === '+17185550151')) {
      const sid = c.To === '+17185550150' ? slowSid : (await rowOf('phone', c.To as string))[0].call_sid;
      expect(await callback(c.StatusCallback as string, status(sid, 'completed'))).toBe(200);
    }
  });

  it('records a call Twilio refuses as failed (502), and it counts against no limit', async () => {
    await until(async () => (await activeDemoCalls()) === 0);
    let refuse = true;
    answerCreate = async () =>
      refuse
        ? {
            status: 400,
            body: {
              code: 21215,
              message: 'Geo Permission configuration is not permitting call',
              status: 400,
            },
          }
        : { status: 201, body: { sid: newSid(), status: 'queued' } };
    const ip = '198.51.111.1';
    const refused = await demo('(917) 555-0160', ip);
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe('Bad Gateway');
    expect(await rowOf('phone', '+19175550160')).toEqual([
      expect.objectContaining({
        call_sid: null,
        status: 'failed',
        place_error: expect.stringMatching(/Geo Permission/),
      }),
    ]);
    // The visitor still has the number's two calls of the day.
    refuse = false;
    expect((await demo('9175550160', ip)).status).toBe(200);
    expect((await demo('9175550160', ip)).status).toBe(200);
    expect((await demo('9175550160', ip)).status).toBe(429);
    // Admins see the two placed calls and the refused attempt, with its reason and no SID.
    const listed = (await call(twilioSvc, 'GET', '/api/voice/conversations', undefined, admin)).body
      .conversations as Conversation[];
    const ofNumber = listed.filter((c) => c.phone === '+19175550160');
    expect(ofNumber).toHaveLength(3);
    expect(ofNumber.filter((c) => c.callSid === null)).toEqual([
      expect.objectContaining({ status: 'failed', placeError: expect.stringMatching(/Geo Permission/) }),
    ]);
    for (const c of twilioCreates.filter((f) => f.To === '+19175550160').slice(-2)) {
      const conversation = new URL(c.StatusCallback as string).searchParams.get('conversation') as string;
      const sid = (await rowOf('id', conversation))[0].call_sid;
      expect(await callback(c.StatusCallback as string, status(sid, 'completed'))).toBe(200);
    }
  });
});
