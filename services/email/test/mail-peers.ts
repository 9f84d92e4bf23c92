import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type EventPayload, type EventSubject, eventKey } from '@parley/contracts';
import {
  createBus,
  createLogger,
  type EventBus,
  parseSecretKey,
  type RunningService,
  sealSecret,
  signAssertion,
  startService,
} from '@parley/kit';
import { createTestDatabase, type NatsServer, startNatsServer } from '@parley/kit/testing';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { emailService } from '../src/service.ts';

/**
 * Real protocol peers for the mail tests: an SMTP server process (smtp-server) that parses
 * what it receives with mailparser, and the email service on real PostgreSQL and its own
 * nats-server (the email service's durables start at the beginning of each stream, so a NATS
 * shared with other suites would hand it their booking events).
 */

export interface Received {
  raw: Buffer;
  parsed: ParsedMail;
  envelope: { from: string; to: string[] };
  user: string | undefined;
}

export interface SmtpSink {
  port: number;
  received: Received[];
  /** Answers for RCPT TO: return an error to refuse the recipient (e.g. 450 or 550). */
  rcpt: (address: string) => { code: number; message: string } | null;
  /** With `wire`: each connection's bytes as they arrived (DATA as sent, dot-stuffed). */
  wires: Buffer[][];
  close(): Promise<void>;
}

export async function startSmtpSink(
  opts: {
    users?: Record<string, string> /** Answers each message after this long (a slow server). */;
    delayMs?: number;
    /** Keeps the bytes of every connection (see SmtpSink.wires). */
    wire?: boolean;
    /** Where it listens (default 127.0.0.1:any): another loopback address is another SMTP host. */
    host?: string;
    port?: number;
  } = {},
): Promise<SmtpSink> {
  const sink: SmtpSink = { port: 0, received: [], rcpt: () => null, wires: [], close: async () => {} };
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS (the client would refuse the sink's self-signed cert).
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: !opts.users,
    logger: false,
    onAuth(auth, _session, cb) {
      if (opts.users && opts.users[auth.username ?? ''] === auth.password)
        return cb(null, { user: auth.username });
      cb(new Error('Invalid username or password'));
    },
    onRcptTo(address: SMTPServerAddress, _session: SMTPServerSession, cb) {
      const refusal = sink.rcpt(address.address);
      if (!refusal) return cb();
      const err = new Error(refusal.message) as Error & { responseCode: number };
      err.responseCode = refusal.code;
      cb(err);
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        sink.received.push({
          raw,
          parsed: await simpleParser(raw),
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          user: session.user as string | undefined,
        });
        if (opts.delayMs) setTimeout(cb, opts.delayMs);
        else cb();
      });
    },
  });
  // A client that dies mid-conversation (a worker killed by a test) resets its socket: the
  // server reports it as an error event, which without a listener would end the test process.
  server.on('error', () => {});
  if (opts.wire)
    // The client speaks only after the greeting, when smtp-server reads the socket too.
    server.server.on('connection', (socket) => {
      const chunks: Buffer[] = [];
      sink.wires.push(chunks);
      socket.on('data', (c: Buffer) => chunks.push(c));
    });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  sink.port = (server.server.address() as AddressInfo).port;
  sink.close = () => new Promise((resolve) => server.close(() => resolve()));
  return sink;
}

/** A JSON answer read loosely by the tests. */
// biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely
type Loose = any;

export interface EmailUnderTest {
  svc: RunningService;
  bus: EventBus;
  nats: NatsServer | null;
  natsUrl: string;
  databaseUrl: string;
  encryptionKey: string;
  signingSecret: string;
  secret: string;
  publish<S extends EventSubject>(
    subject: S,
    payload: EventPayload<S>,
    opts?: { id?: string; occurredAt?: Date },
  ): Promise<string>;
  setting(key: string, value: string | null, version: number, opts?: { secret?: boolean }): Promise<void>;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; text: string; json: Loose }>;
  admin(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export async function startEmail(prefix: string, env: Record<string, string> = {}): Promise<EmailUnderTest> {
  const nats = await startNatsServer();
  const natsUrl = nats.url;
  const secret = randomBytes(32).toString('hex');
  const encryptionKey = randomBytes(32).toString('hex');
  const signingSecret = randomBytes(32).toString('hex');
  const databaseUrl = await createTestDatabase(prefix);
  const logger = createLogger('email-test', 'silent');
  const svc = await startService(emailService, {
    env: {
      DATABASE_URL: databaseUrl,
      NATS_URL: natsUrl,
      INTERNAL_AUTH_SECRET: secret,
      SETTINGS_ENCRYPTION_KEY: encryptionKey,
      EMAIL_SIGNING_SECRET: signingSecret,
      PUBLIC_ORIGIN: 'https://parley.test',
      EVENT_RETRY_MAX_DELAY_SECONDS: '0.3',
      LOG_LEVEL: 'silent',
      ...env,
    },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  const bus = await createBus({ natsUrl, name: `${prefix}-publisher`, logger });
  const key = parseSecretKey(encryptionKey);
  const t: EmailUnderTest = {
    svc,
    bus,
    nats,
    natsUrl,
    databaseUrl,
    encryptionKey,
    signingSecret,
    secret,
    async publish(subject, payload, opts = {}) {
      const id = opts.id ?? randomUUID();
      await bus.publish({
        id,
        subject,
        occurredAt: (opts.occurredAt ?? new Date()).toISOString(),
        payload,
        key: eventKey(subject, payload),
      });
      return id;
    },
    async setting(k, value, version, opts = {}) {
      await t.publish('settings.setting.changed', {
        key: k,
        category: k.startsWith('smtp_') ? 'smtp' : 'general',
        description: null,
        value: opts.secret ? null : value,
        secret: Boolean(opts.secret),
        ...(opts.secret && value !== null ? { sealedValue: sealSecret(key, value, k) } : {}),
        deleted: value === null,
        version,
        updatedAt: new Date().toISOString(),
      });
    },
    async call(method, path, body, headers = {}) {
      const res = await fetch(`${svc.url}${path}`, {
        method,
        redirect: 'manual',
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {}
      return { status: res.status, headers: res.headers, text, json };
    },
    async admin() {
      return { 'x-parley-assertion': await signAssertion(secret, { adminId: 'a1', role: 'admin' }) };
    },
    async stop() {
      await bus.close();
      await svc.stop();
      await nats.dispose();
    },
  };
  return t;
}
