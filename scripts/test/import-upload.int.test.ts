import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { emailService } from '@parley/email/service';
import { buildGateway, type GatewayOptions } from '@parley/gateway/app';
import { createLogger, type RunningService, type ServiceInstance, startService } from '@parley/kit';
import { createTestDatabase, type NatsServer, startNatsServer } from '@parley/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Bodies the file imports refuse, sent through the real gateway to the real email service:
 * the refusal arrives as the client's answer (not as a 503 for a connection the service
 * closed while the gateway still forwarded the body), and the client's keep-alive connection
 * serves its next request.
 */

const secret = randomBytes(32).toString('hex');
const logger = createLogger('import-upload', 'silent');
let nats: NatsServer;
let email: RunningService;
let gateway: ServiceInstance;
let port = 0;

/** Sessions as identity would resolve them: the cookie sid=admin is a signed-in admin. */
const auth: NonNullable<GatewayOptions['auth']> = {
  async resolve(request) {
    return /(?:^|;\s*)sid=admin(?:;|$)/.test(request.headers.cookie ?? '')
      ? { adminId: 'a-1', role: 'admin', mustChangePassword: false }
      : null;
  },
};

beforeAll(async () => {
  nats = await startNatsServer();
  email = await startService(emailService, {
    env: {
      DATABASE_URL: await createTestDatabase('import_upload'),
      NATS_URL: nats.url,
      INTERNAL_AUTH_SECRET: secret,
      SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      EMAIL_SIGNING_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
    },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  gateway = await buildGateway(
    { INTERNAL_AUTH_SECRET: secret, EMAIL_URL: email.url, WEB_DIST_DIR: '/nonexistent', METRICS_PORT: 0 },
    { logger, auth },
  );
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  const addr = gateway.server.address();
  port = typeof addr === 'object' && addr ? addr.port : 0;
});

afterAll(async () => {
  await gateway?.close();
  await email?.stop();
  await nats?.dispose();
});

interface Answer {
  status: number;
  connection: string | undefined;
  json: { error?: string; message?: string } | null;
  /** The request went out on a connection an earlier request had used. */
  reused: boolean;
}

/** One request on `agent` (one keep-alive connection); a body without a length is sent chunked. */
function send(
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | Buffer[],
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json: Answer['json'] = null;
        try {
          json = JSON.parse(text);
        } catch {}
        resolve({
          status: res.statusCode ?? 0,
          connection: res.headers.connection,
          json,
          reused: req.reusedSocket,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (Array.isArray(body)) {
      for (const b of body) req.write(b);
      req.end();
    } else req.end(body);
  });
}

const admin = { cookie: 'sid=admin', 'x-requested-with': 'parley' };
const threeMb = Buffer.alloc(3 * 1024 * 1024, 'a');

describe('a body the file imports refuse, through the gateway', () => {
  it('3 MB that is not multipart: 413, and the keep-alive connection serves the next request', async () => {
    for (const path of ['/api/admin/contacts/import-csv', '/api/admin/email/import-csv'])
      for (const type of ['text/plain', 'application/json', 'text/csv', 'application/octet-stream']) {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          const r = await send(agent, 'POST', path, { ...admin, 'content-type': type }, threeMb);
          expect(r.status, `${path} ${type}: ${JSON.stringify(r.json)}`).toBe(413);
          expect(r.json).toEqual({
            error: 'Payload Too Large',
            message:
              'The request body is too large (at most 1 MB). Send the file as multipart/form-data (field "file", plus "addressBookId").',
          });
          expect(r.connection).not.toBe('close');
          const next = await send(agent, 'GET', '/api/admin/email/imports', admin);
          expect(next.status).toBe(200);
          expect(next.reused, 'the same connection').toBe(true);
          // Sent without a length (chunked): the same.
          const chunked = await send(
            agent,
            'POST',
            path,
            { ...admin, 'content-type': type },
            Array.from({ length: 48 }, () => threeMb.subarray(0, 64 * 1024)),
          );
          expect(chunked.status).toBe(413);
          expect(chunked.reused).toBe(true);
          expect((await send(agent, 'GET', '/api/admin/email/imports', admin)).reused).toBe(true);
        } finally {
          agent.destroy();
        }
      }
  });

  it('a multipart upload of 3 MB is imported as before', async () => {
    const book = await send(
      new Agent(),
      'POST',
      '/api/admin/address-books',
      { ...admin, 'content-type': 'application/json' },
      Buffer.from(JSON.stringify({ name: 'Through the gateway' })),
    );
    expect(book.status).toBe(201);
    const rows = Array.from({ length: 40_000 }, (_, i) => `big${i}@gateway.example.com,Person ${i}`);
    const csv = Buffer.from(`Email,Name\n${rows.join('\n')}\n`);
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    const form = new FormData();
    form.append('addressBookId', String((book.json as { id?: number }).id));
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'big.csv');
    const res = await fetch(`http://127.0.0.1:${port}/api/admin/contacts/import-csv`, {
      method: 'POST',
      headers: admin,
      body: form,
    });
    let body = (await res.json()) as { importId?: string; imported?: number; status?: string };
    // 200 with the result, or 202 when the merge outlives the upload (a slow machine): then the
    // job is followed to its end, as the import dialog does.
    expect([200, 202], JSON.stringify(body)).toContain(res.status);
    const deadline = Date.now() + 120_000;
    while (body.status === 'running' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      const job = await fetch(`http://127.0.0.1:${port}/api/admin/email/imports/${body.importId}`, {
        headers: admin,
      });
      body = (await job.json()) as typeof body;
    }
    expect(body.status).toBe('completed');
    expect(body.imported).toBe(40_000);
  });

  it('a small body that is not multipart: 415 as before, on a connection that stays usable', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const r = await send(
        agent,
        'POST',
        '/api/admin/contacts/import-csv',
        { ...admin, 'content-type': 'application/json' },
        Buffer.from('{"file":"x"}'),
      );
      expect(r.status).toBe(415);
      expect(r.json?.message).toBe(
        'Send the file as multipart/form-data (field "file", plus "addressBookId").',
      );
      const next = await send(agent, 'GET', '/api/admin/email/imports', admin);
      expect(next.status).toBe(200);
      expect(next.reused).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});
