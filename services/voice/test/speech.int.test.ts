import { randomBytes } from 'node:crypto';
import type { VoicesResponse } from '@parley/contracts';
import { createLogger, type RunningService, signAssertion, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceService } from '../src/service.ts';
import { parseMp3 } from './mp3.ts';

const secret = randomBytes(32).toString('hex');
let svc: RunningService;
let databaseUrl: string;
let db: pg.Pool;

async function tts(body: unknown, headers: Record<string, string> = {}, path = '/api/voice/text-to-speech') {
  const res = await fetch(`${svc.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    json: () => JSON.parse(new TextDecoder().decode(bytes)),
  };
}
const clips = async () => Number((await db.query('SELECT count(*) AS n FROM speech_clips')).rows[0].n);

beforeAll(async () => {
  databaseUrl = await createTestDatabase('voice');
  svc = await startService(voiceService, {
    env: {
      DATABASE_URL: databaseUrl,
      NATS_URL: process.env.NATS_URL,
      INTERNAL_AUTH_SECRET: secret,
      TTS_RATE_LIMIT: '40',
      TTS_WORKERS: '2',
      LOG_LEVEL: 'silent',
    },
    logger: createLogger('voice-test', 'silent'),
    listen: { host: '127.0.0.1', port: 0 },
  });
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
});
afterAll(async () => {
  await db?.end();
  await svc?.stop();
});

describe('speech synthesis', () => {
  it('answers valid MP3 with a real duration, labelled as the local engine', async () => {
    const r = await tts({
      text: 'Thank you for calling Sunrise Dental. How can I help you today?',
      speaker: 'ai',
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('audio/mpeg');
    expect(r.headers.get('x-speech-engine')).toBe('local');
    const info = parseMp3(r.bytes);
    expect(info.frames).toBeGreaterThan(50);
    expect(info.durationSeconds).toBeGreaterThan(1.5);
    expect(info.durationSeconds).toBeLessThan(15);
  });

  it('gives the agent and the customer different voices', async () => {
    const text = 'I would like to book a cleaning next Tuesday morning.';
    const ai = await tts({ text, speaker: 'ai' });
    const customer = await tts({ text, speaker: 'customer' });
    expect(ai.status).toBe(200);
    expect(customer.status).toBe(200);
    expect(Buffer.from(ai.bytes).equals(Buffer.from(customer.bytes))).toBe(false);
    // Different voices speak at different rates: the same words take a different time.
    expect(parseMp3(ai.bytes).durationSeconds).not.toBeCloseTo(parseMp3(customer.bytes).durationSeconds, 2);
  });

  it('serves repeats from the cache without synthesis, whatever the cacheBuster', async () => {
    const text = 'Your appointment is confirmed for Tuesday at nine thirty.';
    const before = await clips();
    const first = await tts({ text, speaker: 'ai', cacheBuster: Date.now() });
    expect(first.headers.get('x-speech-cache')).toBe('miss');
    // A fresh synthesis is not offered to the gateway's edge cache; a repeated line is.
    expect(first.headers.get('surrogate-control')).toBeNull();
    expect(await clips()).toBe(before + 1);
    for (const buster of ['a', 'b', String(Math.random())]) {
      const again = await tts({ text, speaker: 'ai', cacheBuster: buster, useCase: 'healthcare' });
      expect(again.headers.get('x-speech-cache')).toBe('hit');
      expect(again.headers.get('surrogate-control')).toBe('max-age=60');
      expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    }
    expect(await clips()).toBe(before + 1);
  });

  it('shares the cache between replicas through the database', async () => {
    const text = 'A second replica answers this line from the shared cache.';
    const first = await tts({ text });
    expect(first.headers.get('x-speech-cache')).toBe('miss');
    const other = await startService(voiceService, {
      env: {
        DATABASE_URL: databaseUrl,
        NATS_URL: process.env.NATS_URL,
        INTERNAL_AUTH_SECRET: secret,
        LOG_LEVEL: 'silent',
        TTS_WORKERS: '1',
      },
      logger: createLogger('voice-test-2', 'silent'),
      listen: { host: '127.0.0.1', port: 0 },
    });
    try {
      const res = await fetch(`${other.url}/api/voice/text-to-speech`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
      expect(res.headers.get('x-speech-cache')).toBe('hit');
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(first.bytes))).toBe(true);
    } finally {
      await other.stop();
    }
  });

  it('answers 12 parallel first-time syntheses, every one (two workers)', async () => {
    // Seen through the gateway as two 502s: the worker handed requests that arrived together
    // an empty slot of its prepared-instance list. Distinct texts, so each one is synthesised.
    const lines = Array.from({ length: 12 }, (_, i) => `Parallel first-time line ${i}, ${Date.now()}.`);
    const answers = await Promise.all(
      lines.map((text, i) =>
        tts({ text, speaker: i % 2 ? 'customer' : 'ai' }, { 'x-forwarded-for': '203.0.113.12' }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
    for (const r of answers) {
      expect(r.headers.get('x-speech-cache')).toBe('miss');
      expect(parseMp3(r.bytes).frames).toBeGreaterThan(10);
    }
    // The local engine costs nothing: it has no paid budget to spend (speech-budget.int.test.ts).
    expect(Number((await db.query('SELECT count(*) AS n FROM speech_budget')).rows[0].n)).toBe(0);
  });

  it('refuses empty and overlong text with 400 and synthesises nothing', async () => {
    const before = await clips();
    const empty = await tts({ text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.json().message).toBe('Text is required');
    const long = await tts({ text: 'word '.repeat(200) });
    expect(long.status).toBe(400);
    expect(long.json().message).toMatch(/too long/);
    expect(await clips()).toBe(before);
  });

  it('limits public synthesis per client IP with 429 and Retry-After', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await tts({ text: 'Rate limited line.' }, headers)).status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(40);
    const limited = await tts({ text: 'Rate limited line.' }, headers);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is unaffected.
    expect((await tts({ text: 'Rate limited line.' }, { 'x-forwarded-for': '203.0.113.78' })).status).toBe(
      200,
    );
  });

  it('lets admins test any catalog voice and list the voices', async () => {
    const admin = { 'x-parley-assertion': await signAssertion(secret, { adminId: 'a1', role: 'admin' }) };
    expect(
      (await tts({ text: 'Hello', voiceId: 'ErXwobaYiN019PkySvjV' }, {}, '/api/voice/test-synthesis')).status,
    ).toBe(401);
    const antoni = await tts(
      { text: 'Hello from Antoni.', voiceId: 'ErXwobaYiN019PkySvjV' },
      admin,
      '/api/voice/test-synthesis',
    );
    expect(antoni.status).toBe(200);
    expect(parseMp3(antoni.bytes).frames).toBeGreaterThan(10);
    expect((await tts({ text: 'x', voiceId: 'nope' }, admin, '/api/voice/test-synthesis')).status).toBe(400);
    const voices = (await fetch(`${svc.url}/api/voice/voices`, { headers: admin }).then((r) =>
      r.json(),
    )) as VoicesResponse;
    expect(voices.engine).toBe('local');
    expect(voices.voices.map((v: { name: string }) => v.name)).toEqual([
      'Rachel',
      'Domi',
      'Bella',
      'Antoni',
      'Elli',
      'Josh',
      'Arnold',
      'Adam',
      'Sam',
    ]);
  });
});
