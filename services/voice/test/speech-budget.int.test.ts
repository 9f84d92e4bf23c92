import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type RunningService, startService } from '@parley/kit';
import { createTestDatabase } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceService } from '../src/service.ts';

/**
 * The paid speech budget across replicas: two voice services on one database, ElevenLabs
 * answered by a local HTTP stand-in that records every character it is asked to speak, and
 * one clock both replicas read (moved by the test across minutes and days).
 */

const PER_MINUTE = 100;
const PER_DAY = 250;
/** Every line the tests speak is this long, so the budget's arithmetic is plain. */
const LINE = 25;

let replicas: RunningService[] = [];
let db: pg.Pool;
let standIn: Server;
let clock = new Date('2026-11-26T10:00:05.000Z');
/** The texts the stand-in was asked to speak. */
const spoken: string[] = [];

const line = (label: string) => `Line ${label} `.padEnd(LINE, 'x');

beforeAll(async () => {
  standIn = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const { text } = JSON.parse(body) as { text: string };
      if (req.headers['xi-api-key'] !== 'test-elevenlabs-key' || text.includes('FAIL')) {
        res.statusCode = 500;
        return void res.end('{"detail":"failed"}');
      }
      spoken.push(text);
      res.setHeader('content-type', 'audio/mpeg');
      res.end(Buffer.from(`mp3:${text}`));
    });
  });
  await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', r));
  const databaseUrl = await createTestDatabase('voice_budget');
  const env = {
    DATABASE_URL: databaseUrl,
    NATS_URL: process.env.NATS_URL,
    INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
    ELEVENLABS_API_KEY: 'test-elevenlabs-key',
    ELEVENLABS_API_URL: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`,
    TTS_PAID_CHARS_PER_MINUTE: String(PER_MINUTE),
    TTS_PAID_CHARS_PER_DAY: String(PER_DAY),
    TTS_RATE_LIMIT: '1000',
    LOG_LEVEL: 'silent',
  };
  for (let i = 0; i < 2; i++)
    replicas.push(
      await startService(voiceService, {
        env,
        logger: createLogger('voice-budget-test', 'silent'),
        listen: { host: '127.0.0.1', port: 0 },
        now: () => clock,
      }),
    );
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
});

afterAll(async () => {
  await db?.end();
  for (const r of replicas) await r.stop();
  replicas = [];
  await new Promise((r) => (standIn ? standIn.close(r) : r(null)));
});

async function speak(text: string, replica = 0) {
  const res = await fetch(`${replicas[replica % 2]?.url}/api/voice/text-to-speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text, speaker: 'ai' }),
  });
  const body = Buffer.from(await res.arrayBuffer());
  let json: { error?: string; message?: string } | null = null;
  if (res.headers.get('content-type')?.includes('json')) json = JSON.parse(body.toString());
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json };
}

const charsSpoken = () => spoken.reduce((n, t) => n + t.length, 0);

async function metric(name: string, labels: string): Promise<number> {
  let sum = 0;
  for (const r of replicas) {
    const text = await (await fetch(`${r.url}/metrics`)).text();
    const m = new RegExp(`^${name}\\{[^}]*${labels}[^}]*\\} (\\d+)`, 'm').exec(text);
    sum += Number(m?.[1] ?? 0);
  }
  return sum;
}

describe('paid speech budget (ElevenLabs), shared by every replica', () => {
  it('speaks at most the minute budget, however the requests spread over replicas; cache hits stay free', async () => {
    // Ten different lines at once, alternating replicas: 4 × 25 characters fit in 100.
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => speak(line(`m1-${i}`), i)));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(PER_MINUTE / LINE);
    expect(refused).toHaveLength(10 - PER_MINUTE / LINE);
    expect(charsSpoken()).toBe(PER_MINUTE);
    for (const r of refused) {
      expect(r.json).toEqual({
        error: 'Too Many Requests',
        message: 'Speech is busy right now. Please try again in 55 seconds.',
      });
      expect(r.retryAfter).toBe('55');
    }
    // A line already spoken comes from the cache: answered, nothing spent or sent.
    const first = spoken[0] as string;
    expect((await speak(first, 1)).status).toBe(200);
    expect(charsSpoken()).toBe(PER_MINUTE);
    expect(await metric('speech_paid_characters_total', 'engine="elevenlabs"')).toBe(PER_MINUTE);
    expect(await metric('speech_budget_refusals_total', 'period="minute"')).toBe(6);
  });

  it('starts a new minute, and refuses for the rest of the day once the day budget is spent', async () => {
    clock = new Date('2026-11-26T10:01:30.000Z');
    for (let i = 0; i < 4; i++) expect((await speak(line(`m2-${i}`), i)).status).toBe(200);
    clock = new Date('2026-11-26T10:02:00.000Z');
    for (let i = 0; i < 2; i++) expect((await speak(line(`m3-${i}`), i)).status).toBe(200);
    expect(charsSpoken()).toBe(PER_DAY);
    const over = await speak(line('m3-over'), 1);
    expect(over.status).toBe(429);
    expect(over.json?.message).toBe("Today's speech budget is used up. Please try again tomorrow.");
    // Until 00:00 UTC.
    expect(over.retryAfter).toBe(String(14 * 3600 - 120));
    expect(await metric('speech_budget_refusals_total', 'period="day"')).toBe(1);
    expect(charsSpoken()).toBe(PER_DAY);

    clock = new Date('2026-11-27T00:00:10.000Z');
    expect((await speak(line('next-day'), 0)).status).toBe(200);
  });

  it('gives the characters back when the engine fails (nothing was billed)', async () => {
    clock = new Date('2026-11-28T09:00:00.000Z');
    const used = async () =>
      (
        await db.query<{ period: string; chars: number }>(
          `SELECT "period", "chars" FROM "speech_budget" WHERE "starts_at" >= '2026-11-28' ORDER BY "period"`,
        )
      ).rows;
    expect((await speak(line('ok'), 0)).status).toBe(200);
    const before = await used();
    expect(before).toEqual([
      { period: 'day', chars: LINE },
      { period: 'minute', chars: LINE },
    ]);
    expect((await speak(line('FAIL'), 1)).status).toBe(502);
    expect(await used()).toEqual(before);
  });
});
