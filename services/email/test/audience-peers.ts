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
import { createTestDatabase, type NatsServer, startNatsServer } from '@parley/kit/testing';
import pg from 'pg';
import { emailService } from '../src/service.ts';

/**
 * The email service on real PostgreSQL and its own nats-server (its durables read streams
 * from the beginning), a pg pool on its database, and an observer of the audience's events.
 */

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely
export type Loose = any;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: Loose;
}

export interface AudienceUnderTest {
  svc: RunningService;
  url: string;
  db: pg.Pool;
  databaseUrl: string;
  events: EventEnvelope[];
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Multipart upload of one file (fields first, as browsers send them). */
  upload(
    path: string,
    file: { name: string; content: string | Buffer | Uint8Array; type?: string },
    fields?: Record<string, string>,
  ): Promise<Answer>;
  admin(): Promise<Record<string, string>>;
  /** Events of `subject` whose payload matches `where`, waiting up to 10 s for at least one. */
  waitEvent(subject: string, where?: (payload: Loose) => boolean): Promise<EventEnvelope>;
  stop(): Promise<void>;
}

const AUDIENCE_SUBJECTS = [
  'email.address_book.created',
  'email.address_book.deleted',
  'email.import.completed',
  'email.contact.unsubscribed',
  'email.contact.resubscribed',
] as const;

export async function startAudience(
  prefix: string,
  env: Record<string, string> = {},
): Promise<AudienceUnderTest> {
  const nats: NatsServer = await startNatsServer();
  const secret = randomBytes(32).toString('hex');
  const databaseUrl = await createTestDatabase(prefix);
  const logger = createLogger('audience-test', process.env.PARLEY_TEST_LOG_LEVEL ?? 'silent');
  const svc = await startService(emailService, {
    env: {
      DATABASE_URL: databaseUrl,
      NATS_URL: nats.url,
      INTERNAL_AUTH_SECRET: secret,
      SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      EMAIL_SIGNING_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      ...env,
    },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  const observer: EventBus = await createBus({ natsUrl: nats.url, name: `${prefix}-observer`, logger });
  const events: EventEnvelope[] = [];
  await observer.subscribe(
    plainConsumer({
      durable: `${prefix}-observer`,
      subjects: [...AUDIENCE_SUBJECTS],
      handler: async (e) => {
        events.push(e);
      },
    }),
  );
  const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const admin = async () => ({
    'x-parley-assertion': await signAssertion(secret, { adminId: 'admin-1', role: 'admin' }),
  });
  const read = async (res: Response): Promise<Answer> => {
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, headers: res.headers, text, json };
  };
  return {
    svc,
    url: svc.url,
    db,
    databaseUrl,
    events,
    admin,
    async call(method, path, body, headers) {
      const res = await fetch(`${svc.url}${path}`, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(headers ?? (await admin())),
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return read(res);
    },
    async upload(path, file, fields = {}) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([file.content], { type: file.type ?? 'text/csv' }), file.name);
      const res = await fetch(`${svc.url}${path}`, { method: 'POST', headers: await admin(), body: form });
      return read(res);
    },
    async waitEvent(subject, where = () => true) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const hit = events.find((e) => e.subject === subject && where(e.payload));
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no ${subject} event arrived`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      await db.end();
      await observer.close();
      await svc.stop();
      await nats.dispose();
    },
  };
}

/** A CSV file from rows of cells (RFC 4180 quoting where needed). */
export function csv(rows: Array<Array<string | number>>, eol = '\n'): string {
  return rows
    .map((r) =>
      r
        .map((c) => {
          const s = String(c);
          return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
        })
        .join(','),
    )
    .join(eol)
    .concat(eol);
}
