import net, { type AddressInfo } from 'node:net';
import { diagnosticsSubject } from '@parley/contracts';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmailUnderTest, startEmail } from './mail-peers.ts';

/**
 * The SMTP host as an admin could aim it, through the email service's own routes: the test
 * email and the diagnostics refuse the cloud metadata address, say nothing finer than "could
 * not connect" about a port that is not an SMTP server, and reach an IPv6 relay written in
 * brackets.
 */

let t: EmailUnderTest;
let v6: SMTPServer;
let v6Port: number;
const received: string[] = [];
const servers: net.Server[] = [];
let version = 1;

async function tcp(onSocket: (socket: net.Socket) => void): Promise<number> {
  const srv = net.createServer((s) => {
    s.on('error', () => {});
    onSocket(s);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  servers.push(srv);
  return (srv.address() as AddressInfo).port;
}

beforeAll(async () => {
  v6 = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onRcptTo: (address, _s, cb) => {
      received.push(address.address);
      cb();
    },
    onData: (stream, _s, cb) => {
      stream.resume();
      stream.on('end', () => cb());
    },
  });
  await new Promise<void>((r) => v6.listen(0, '::1', r));
  v6Port = (v6.server.address() as AddressInfo).port;
  t = await startEmail('email_smtp_host');
});

afterAll(async () => {
  await t?.stop();
  await new Promise((r) => (v6 ? v6.close(() => r(null)) : r(null)));
  for (const s of servers) s.close();
});

async function aimAt(host: string, port: number) {
  version++;
  await t.setting('smtp_host', host, version);
  await t.setting('smtp_port', String(port), version);
}

/** Retries until the settings copy has the new host (the event arrives asynchronously). */
async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const testEmail = async () =>
  t.call('POST', '/api/admin/settings/test-email', { emails: ['reader@example.com'] }, await t.admin());
const diagnose = async () =>
  (await t.bus.request(diagnosticsSubject('email'), { check: 'email-smtp' })) as {
    status: string;
    details: string;
  };

describe('SMTP host policy through test-email and diagnostics', () => {
  it('refuses the cloud metadata address, in any spelling, before connecting', async () => {
    for (const host of ['169.254.169.254', '2852039166', '[::ffff:169.254.169.254]']) {
      await aimAt(host, 80);
      const r = await eventually(testEmail, (x) => x.status === 422 && /is refused/.test(x.json.message));
      expect(r.status, host).toBe(422);
      expect(r.json.message, host).toMatch(/is refused: it is a link-local \(cloud metadata\) address/);
      const d = await diagnose();
      expect(d.status).toBe('error');
      expect(d.details).toMatch(/is refused/);
    }
  });

  it("is no port prober: a closed port, other protocols' banners and a hang-up all read the same", async () => {
    const free = net.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const closed = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    const ports = [
      closed,
      await tcp((s) => s.write('SSH-2.0-OpenSSH_9.6p1 Debian-3\r\n')),
      await tcp((s) => s.write('HTTP/1.1 400 Bad Request\r\nServer: nginx\r\n\r\n')),
      await tcp((s) => s.destroy()),
    ];
    for (const port of ports) {
      await aimAt('127.0.0.1', port);
      const expected = `could not connect to an SMTP server at 127.0.0.1:${port}`;
      const d = await eventually(diagnose, (x) => x.details === expected);
      expect(d).toMatchObject({ status: 'error', details: expected });
      const r = await testEmail();
      expect(r.status).toBe(422);
      expect(r.json.message).toBe(`Failed to send test emails: ${expected}`);
    }
  });

  it('sends through an IPv6 relay written in brackets ([::1] was ENOTFOUND)', async () => {
    await aimAt('[::1]', v6Port);
    const r = await eventually(testEmail, (x) => x.status === 200);
    expect(r.status).toBe(200);
    expect(received).toContain('reader@example.com');
    expect((await diagnose()).status).toBe('success');
  });
});
