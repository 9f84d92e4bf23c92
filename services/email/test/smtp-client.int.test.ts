import net, { type AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { classify } from '../src/features/delivery/transports/smtp.ts';
import { SmtpPool } from '../src/features/delivery/transports/smtp-client.ts';
import {
  dotStuffed,
  SmtpCommandError,
  SmtpNetworkError,
  SmtpReplyError,
} from '../src/features/delivery/transports/smtp-protocol.ts';

/**
 * The pipelining SMTP client against real peers: smtp-server (the SMTP server of the
 * Nodemailer project) for the protocol as servers speak it, and a scripted socket server for
 * what servers rarely do on request (drop the line mid-transaction, close an idle connection).
 */

interface Got {
  from: string;
  to: string[];
  data: Buffer;
  user?: string;
  secure: boolean;
}

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  // Newest first: the client pools quit before their servers close (which wait for them).
  for (const c of closers.splice(0).reverse()) await c();
});

async function server(
  options: SMTPServerOptions & { refuse?: (to: string) => number | null; listenHost?: string } = {},
) {
  const got: Got[] = [];
  let connections = 0;
  const { refuse, listenHost, ...rest } = options;
  const s = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: [],
    logger: false,
    ...rest,
    onConnect(_session, cb) {
      connections++;
      cb();
    },
    onRcptTo(address, _session, cb) {
      const code = refuse?.(address.address);
      if (!code) return cb();
      const err = new Error(code >= 500 ? 'no such user' : 'try again later') as Error & {
        responseCode: number;
      };
      err.responseCode = code;
      cb(err);
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        got.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks),
          user: session.user as string | undefined,
          secure: session.secure,
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => s.listen(0, listenHost ?? '127.0.0.1', r));
  closers.push(() => new Promise((r) => s.close(() => r(undefined))));
  const port = (s.server.address() as AddressInfo).port;
  return { port, got, connections: () => connections };
}

/** A plain TCP server for the tests of what is not SMTP (or not yet): `onSocket` plays the peer. */
async function tcp(onSocket: (socket: net.Socket) => void) {
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        srv.close(() => r(undefined));
      }),
  );
  return (srv.address() as AddressInfo).port;
}

/** A name that resolves to these addresses (the system resolver is not asked). */
const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address }));

const message = (subject: string) =>
  Buffer.from(`From: <a@parley.test>\r\nTo: <b@example.test>\r\nSubject: ${subject}\r\n\r\nHello.\r\n`);

function pool(port: number, extra: Partial<ConstructorParameters<typeof SmtpPool>[0]> = {}) {
  const p = new SmtpPool({ host: '127.0.0.1', port, ignoreTLS: true, maxConnections: 2, ...extra });
  closers.push(() => p.close());
  return p;
}

describe('SMTP client', () => {
  it('pipelines a transaction and delivers the message byte for byte, with dots and bare LFs mended', async () => {
    const peer = await server();
    const p = pool(peer.port);
    const body = Buffer.from('Subject: dots\r\n\r\n.starts with a dot\nbare LF line\r\n..two dots\r\nend');
    const reply = await p.send('a@parley.test', ['b@example.test', 'c@example.test'], body);
    expect(reply.code).toBe(250);
    expect(peer.got).toHaveLength(1);
    expect(peer.got[0]?.to).toEqual(['b@example.test', 'c@example.test']);
    expect(peer.got[0]?.data.toString()).toBe(
      'Subject: dots\r\n\r\n.starts with a dot\r\nbare LF line\r\n..two dots\r\nend\r\n',
    );
  });

  it('reuses pooled connections and speaks without PIPELINING when the server lacks it', async () => {
    const peer = await server({ hidePIPELINING: true });
    const p = pool(peer.port, { maxConnections: 2 });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => p.send('a@parley.test', ['b@example.test'], message(`m${i}`))),
    );
    expect(peer.got).toHaveLength(20);
    expect(peer.connections()).toBeLessThanOrEqual(2);
    expect(new Set(peer.got.map((g) => /Subject: (m\d+)/.exec(g.data.toString())?.[1])).size).toBe(20);
  });

  it('signs in with AUTH PLAIN or LOGIN; a refused login is a connection failure', async () => {
    const users = { sam: 'secret' } as Record<string, string>;
    const onAuth: SMTPServerOptions['onAuth'] = (auth, _s, cb) =>
      users[auth.username ?? ''] === auth.password
        ? cb(null, { user: auth.username })
        : cb(new Error('bad login'));
    for (const authMethods of [['PLAIN'], ['LOGIN']]) {
      const peer = await server({ authOptional: false, authMethods, onAuth });
      await pool(peer.port, { username: 'sam', password: 'secret' }).send(
        'a@parley.test',
        ['b@example.test'],
        message('x'),
      );
      expect(peer.got[0]?.user).toBe('sam');
      const err = await pool(peer.port, { username: 'sam', password: 'wrong' })
        .send('a@parley.test', ['b@example.test'], message('x'))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SmtpReplyError);
      expect((err as SmtpReplyError).stage).toBe('auth');
      expect(classify(err)).toMatchObject({ connection: true, permanent: false });
    }
  });

  it('upgrades with STARTTLS when offered, and verifies the certificate', async () => {
    // smtp-server's built-in certificate is self-signed: refused by default, accepted when told.
    const peer = await server();
    const strict = await pool(peer.port, { ignoreTLS: false })
      .send('a@parley.test', ['b@example.test'], message('x'))
      .catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(SmtpNetworkError);
    expect(classify(strict)).toMatchObject({ connection: true });
    await pool(peer.port, { ignoreTLS: false, tls: { rejectUnauthorized: false } }).send(
      'a@parley.test',
      ['b@example.test'],
      message('secure'),
    );
    expect(peer.got).toHaveLength(1);
    expect(peer.got[0]?.secure).toBe(true);
  });

  it('reports refused recipients (5xx permanent, 4xx temporary) and keeps the connection', async () => {
    const peer = await server({
      refuse: (to) => (to.startsWith('gone') ? 550 : to.startsWith('busy') ? 451 : null),
    });
    const p = pool(peer.port, { maxConnections: 1 });
    const gone = await p.send('a@parley.test', ['gone@example.test'], message('x')).catch((e: unknown) => e);
    expect(gone).toMatchObject({ stage: 'rcpt', code: 550, recipients: ['gone@example.test'] });
    expect(classify(gone)).toMatchObject({ permanent: true, recipientRefused: true, responseCode: 550 });
    const busy = await p.send('a@parley.test', ['busy@example.test'], message('x')).catch((e: unknown) => e);
    expect(classify(busy)).toMatchObject({ permanent: false, responseCode: 451, connection: false });
    // Partly refused: the others get it, the refusal is reported.
    const partly = await p
      .send('a@parley.test', ['ok@example.test', 'gone@example.test'], message('partly'))
      .catch((e: unknown) => e);
    expect(partly).toMatchObject({ stage: 'rcpt', recipients: ['gone@example.test'] });
    await p.send('a@parley.test', ['ok@example.test'], message('after'));
    expect(peer.got.map((g) => g.to)).toEqual([['ok@example.test'], ['ok@example.test']]);
    expect(peer.connections()).toBe(1);
  });

  it('a refused connection is a connection failure', async () => {
    const free = net.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    const err = await pool(port)
      .send('a@parley.test', ['b@example.test'], message('x'))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ stage: 'connect' });
    expect(classify(err)).toMatchObject({ connection: true, permanent: false });
  });
});

/** Drops the line without a word; true: the script answers nothing more. */
const hangUp = (socket: net.Socket) => {
  socket.destroy();
  return true;
};

/** A scripted SMTP server: answers like Postfix, with hooks to drop the line. */
async function scripted(hooks: {
  onMail?: (n: number, socket: net.Socket) => boolean;
  onDot?: (socket: net.Socket) => boolean;
  /** The reply to the nth end of data (1-based), instead of 250. */
  dotReply?: (n: number) => string | undefined;
}) {
  let connections = 0;
  let mails = 0;
  let dots = 0;
  let delivered = 0;
  // MAIL FROMs that came in the same read as the end of the message before them, that is,
  // before the server had answered it: the client chained the transactions.
  let chained = 0;
  const commands: string[] = [];
  const ended: Array<Promise<unknown>> = [];
  const srv = net.createServer((socket) => {
    connections++;
    ended.push(new Promise((r) => socket.once('close', r)));
    socket.write('220 scripted ESMTP\r\n');
    let buf = '';
    let inData = false;
    socket.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      let answeredDot = false;
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          buf = buf.slice(end + 5);
          inData = false;
          if (hooks.onDot?.(socket)) return;
          answeredDot = true;
          const refusal = hooks.dotReply?.(++dots);
          if (refusal) {
            socket.write(`${refusal}\r\n`);
            continue;
          }
          delivered++;
          socket.write(`250 2.0.0 Ok: queued as Q${delivered}\r\n`);
          continue;
        }
        const i = buf.indexOf('\r\n');
        if (i < 0) return;
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const verb = line.slice(0, 4).toUpperCase();
        commands.push(verb);
        if (verb === 'MAIL' && answeredDot) chained++;
        if (verb === 'EHLO') socket.write('250-scripted\r\n250-PIPELINING\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          if (hooks.onMail?.(++mails, socket)) return;
          socket.write('250 2.1.0 Ok\r\n');
        } else if (verb === 'RCPT') socket.write('250 2.1.5 Ok\r\n');
        else if (verb === 'DATA') {
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
          inData = true;
        } else if (verb === 'RSET') socket.write('250 2.0.0 Ok\r\n');
        else if (verb === 'QUIT') socket.end('221 2.0.0 Bye\r\n');
        else socket.write('502 5.5.2 Error: command not recognized\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => srv.close(r)));
  return {
    port: (srv.address() as AddressInfo).port,
    connections: () => connections,
    delivered: () => delivered,
    chained: () => chained,
    commands,
    /** Every connection so far, closed. */
    allClosed: () => Promise.all(ended),
  };
}

describe('SMTP client, when the line drops', () => {
  it('answers the queue id, and replaces a pooled connection the server dropped before the transaction', async () => {
    // The second MAIL FROM meets a server that hangs up without a word, as one does after its
    // idle timeout: nothing was handed over, so the message goes through a fresh connection.
    const peer = await scripted({ onMail: (n, socket) => n === 2 && hangUp(socket) });
    const p = pool(peer.port, { maxConnections: 1 });
    const first = await p.send('a@parley.test', ['b@example.test'], message('1'));
    expect(first.text).toContain('queued as Q1');
    await p.send('a@parley.test', ['b@example.test'], message('2'));
    expect(peer.delivered()).toBe(2);
    expect(peer.connections()).toBe(2);
  });

  it('a line lost after the message was written leaves the outcome unknown (no code, not permanent)', async () => {
    const peer = await scripted({ onDot: hangUp });
    const err = await pool(peer.port)
      .send('a@parley.test', ['b@example.test'], message('x'))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ stage: 'message' });
    const e = classify(err);
    expect(e).toMatchObject({ permanent: false, connection: false, responseCode: undefined });
  });

  it('chains transactions on a busy connection: the next MAIL FROM rides with the message before it', async () => {
    const peer = await scripted({});
    const p = pool(peer.port, { maxConnections: 1 });
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => p.send('a@parley.test', ['b@example.test'], message(`m${i}`))),
    );
    expect(replies.map((r) => r.code)).toEqual(Array(10).fill(250));
    expect(peer.delivered()).toBe(10);
    expect(peer.connections()).toBe(1);
    // The first MAIL opens the connection's work; each of the nine others came with a message.
    expect(peer.chained()).toBe(9);
  });

  it('a closed pool still sends what it was given, and what a batch still hands it, then quits', async () => {
    const peer = await scripted({});
    const p = pool(peer.port, { maxConnections: 2 });
    const given = Array.from({ length: 6 }, (_, i) =>
      p.send('a@parley.test', ['b@example.test'], message(`m${i}`)),
    );
    const closing = p.close();
    const late = p.send('a@parley.test', ['b@example.test'], message('late'));
    const replies = await Promise.all([...given, late]);
    await closing;
    expect(replies.map((r) => r.code)).toEqual(Array(7).fill(250));
    expect(peer.delivered()).toBe(7);
    // Each connection said QUIT: none was left open, none was dropped.
    await peer.allClosed();
    expect(peer.commands.filter((c) => c === 'QUIT').length).toBe(peer.connections());
  });

  it('a refused message does not stop the one chained behind it (and no RSET comes between)', async () => {
    const peer = await scripted({ dotReply: (n) => (n === 1 ? '554 5.7.1 Rejected: spam' : undefined) });
    const p = pool(peer.port, { maxConnections: 1 });
    const [first, second] = await Promise.allSettled([
      p.send('a@parley.test', ['b@example.test'], message('spammy')),
      p.send('a@parley.test', ['b@example.test'], message('fine')),
    ]);
    expect(first).toMatchObject({ status: 'rejected', reason: { stage: 'message', code: 554 } });
    expect(classify((first as PromiseRejectedResult).reason)).toMatchObject({
      permanent: true,
      responseCode: 554,
    });
    expect(second).toMatchObject({ status: 'fulfilled', value: { code: 250 } });
    expect(peer.chained()).toBe(1);
    expect(peer.commands).not.toContain('RSET');
    expect(peer.connections()).toBe(1);
  });

  it('a line lost after a message leaves it unknown; the message chained behind it goes on a new connection', async () => {
    let dots = 0;
    const peer = await scripted({ onDot: (socket) => ++dots === 1 && hangUp(socket) });
    const p = pool(peer.port, { maxConnections: 1 });
    const [first, second] = await Promise.allSettled([
      p.send('a@parley.test', ['b@example.test'], message('lost')),
      p.send('a@parley.test', ['b@example.test'], message('next')),
    ]);
    expect(first).toMatchObject({ status: 'rejected', reason: { stage: 'message' } });
    expect(classify((first as PromiseRejectedResult).reason)).toMatchObject({ responseCode: undefined });
    expect(second).toMatchObject({ status: 'fulfilled', value: { code: 250 } });
    expect(peer.delivered()).toBe(1);
    expect(peer.connections()).toBe(2);
  });

  it('a line lost before the message was written is a temporary failure (retried later)', async () => {
    const peer = await scripted({ onMail: (_n, socket) => hangUp(socket) });
    const err = await pool(peer.port)
      .send('a@parley.test', ['b@example.test'], message('x'))
      .catch((e: unknown) => e);
    expect(classify(err)).toMatchObject({ permanent: false, connection: false, responseCode: 421 });
  });
});

describe('SMTP client: what it refuses to do', () => {
  it('never sends the password when a man in the middle strips STARTTLS from the EHLO answer', async () => {
    // A real server offering STARTTLS and AUTH, behind a proxy that strikes STARTTLS from its
    // EHLO answer (as an attacker on the path would) and records what the client sends.
    const auths: string[] = [];
    const peer = await server({
      authOptional: false,
      onAuth: (auth, _s, cb) => {
        auths.push(auth.username ?? '');
        cb(null, { user: auth.username });
      },
    });
    const sent: string[] = [];
    const strip = (reply: string) => {
      const lines = reply.split('\r\n');
      const kept = lines.filter((l) => !/^250[- ]STARTTLS$/i.test(l));
      // The struck line may have been the last one of the answer: the new last says so.
      const last = kept.length - 2;
      if (kept.length !== lines.length && last >= 0 && /^250-/.test(kept[last] ?? ''))
        kept[last] = `250 ${(kept[last] as string).slice(4)}`;
      return kept.join('\r\n');
    };
    const proxyPort = await tcp((client) => {
      const upstream = net.connect(peer.port, '127.0.0.1');
      upstream.on('error', () => client.destroy());
      client.on('data', (d: Buffer) => {
        sent.push(d.toString('latin1'));
        upstream.write(d);
      });
      upstream.on('data', (d: Buffer) => client.write(strip(d.toString('latin1'))));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    const err = await pool(proxyPort, {
      host: 'relay.example.test',
      lookup: resolvesTo('127.0.0.1'),
      ignoreTLS: false,
      username: 'sam',
      password: 'the secret',
    })
      .send('a@parley.test', ['b@example.test'], message('x'))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmtpNetworkError);
    expect(err).toMatchObject({ stage: 'starttls', code: 'ETLSREQUIRED' });
    expect((err as Error).message).toContain('offered no TLS');
    expect(classify(err)).toMatchObject({ connection: true, permanent: false });
    const wire = sent.join('');
    expect(wire).toContain('EHLO ');
    expect(wire).not.toMatch(/AUTH/i);
    expect(wire).not.toContain(Buffer.from('\u0000sam\u0000the secret').toString('base64'));
    expect(auths).toEqual([]);
    expect(peer.got).toEqual([]);

    // Not stripped, the same path signs in inside TLS.
    await pool(peer.port, {
      host: 'relay.example.test',
      lookup: resolvesTo('127.0.0.1'),
      ignoreTLS: false,
      tls: { rejectUnauthorized: false },
      username: 'sam',
      password: 'the secret',
    }).send('a@parley.test', ['b@example.test'], message('secure'));
    expect(peer.got[0]).toMatchObject({ user: 'sam', secure: true });
  });

  it('signs in without TLS only to a relay on this machine (loopback host, loopback connection)', async () => {
    const peer = await server({
      disabledCommands: ['STARTTLS'],
      authOptional: false,
      onAuth: (auth, _s, cb) => cb(null, { user: auth.username }),
    });
    const creds = { username: 'sam', password: 'the secret', ignoreTLS: false };
    for (const host of ['127.0.0.1', 'localhost', '2130706433'])
      await pool(peer.port, { host, ...creds }).send('a@parley.test', ['b@example.test'], message(host));
    expect(peer.got.map((g) => g.user)).toEqual(['sam', 'sam', 'sam']);
    // The same server under a name of the network: no.
    const err = await pool(peer.port, {
      host: 'mail.internal.test',
      lookup: resolvesTo('127.0.0.1'),
      ...creds,
    })
      .send('a@parley.test', ['b@example.test'], message('x'))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ETLSREQUIRED' });
    expect(peer.got).toHaveLength(3);
  });

  it('refuses a line break, control character or <> in MAIL FROM or RCPT TO before anything is sent', async () => {
    const peer = await server();
    const p = pool(peer.port);
    const cases: Array<[string, string[], 'mail' | 'rcpt']> = [
      ['a@parley.test\r\nRCPT TO:<evil@example.test>', ['b@example.test'], 'mail'],
      ['a@parley.test\r', ['b@example.test'], 'mail'],
      ['a@parley.test>', ['b@example.test'], 'mail'],
      ['a@parley.test', ['b@example.test>\r\nDATA'], 'rcpt'],
      ['a@parley.test', ['ok@example.test', 'b@example.test\nRSET'], 'rcpt'],
      ['a@parley.test', ['b@example.test\u0000'], 'rcpt'],
    ];
    for (const [from, to, stage] of cases) {
      const err = await p.send(from, to, message('x')).catch((e: unknown) => e);
      expect(err, JSON.stringify([from, to])).toBeInstanceOf(SmtpCommandError);
      expect(err).toMatchObject({ stage });
      expect(classify(err)).toMatchObject({ permanent: true, recipientRefused: false, connection: false });
    }
    expect(peer.connections()).toBe(0);
    await p.send('a@parley.test', ['b@example.test'], message('clean'));
    expect(peer.got.map((g) => g.to)).toEqual([['b@example.test']]);
  });

  it('refuses link-local, cloud metadata and unspecified addresses at connect time, in every spelling and behind names', async () => {
    const peer = await server();
    const refused: Array<[string, Partial<ConstructorParameters<typeof SmtpPool>[0]>]> = [
      ['169.254.169.254', {}],
      ['169.254.43518', {}],
      ['2852039166', {}],
      ['0xA9FEA9FE', {}],
      ['0251.0376.0251.0376', {}],
      ['[::ffff:169.254.169.254]', {}],
      ['[fe80::1]', {}],
      ['0.0.0.0', {}],
      ['0', {}],
      ['[::]', {}],
      ['100.100.100.200', {}],
      ['metadata.attacker.test', { lookup: resolvesTo('169.254.169.254') }],
      ['dual.attacker.test', { lookup: resolvesTo('127.0.0.1', 'fd00:ec2::254') }],
    ];
    for (const [host, extra] of refused) {
      const p = pool(peer.port, { host, ...extra });
      const err = await p.send('a@parley.test', ['b@example.test'], message('x')).catch((e: unknown) => e);
      expect(err, host).toMatchObject({ stage: 'connect', code: 'EHOSTPOLICY' });
      expect((err as Error).message, host).toMatch(/is refused: it is an? .+ address/);
      expect(await p.verify().catch((e: unknown) => (e as Error).message), host).toMatch(/is refused/);
    }
    expect(peer.connections()).toBe(0);
  });

  it('connects to loopback in any spelling, IPv6 in brackets included ([::1] was ENOTFOUND)', async () => {
    const v4 = await server();
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', 'localhost'])
      await pool(v4.port, { host }).send('a@parley.test', ['b@example.test'], message(host));
    expect(v4.got).toHaveLength(4);
    const v6 = await server({ listenHost: '::1' });
    await pool(v6.port, { host: '[::1]' }).send('a@parley.test', ['b@example.test'], message('v6'));
    expect(v6.got).toHaveLength(1);
  });

  it('tells no port state before EHLO: closed, silent, closing and other protocols all read the same', async () => {
    const silent = await tcp(() => {});
    // A closed port: one that was free a moment ago.
    const free = net.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const freePort = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    const ports = {
      closed: freePort,
      silent,
      hangsUp: await tcp((s) => s.destroy()),
      ssh: await tcp((s) => s.write('SSH-2.0-OpenSSH_9.6p1 Debian-3\r\n')),
      // Greets like SMTP (FTP does), then understands neither EHLO nor HELO.
      ftp: await tcp((s) => {
        s.write('220 ProFTPD Server (Debian) ready\r\n');
        s.on('data', () => s.write('500 command not understood\r\n'));
      }),
      refusing: await tcp((s) => s.end('554 5.3.2 no service for you\r\n')),
    };
    for (const [what, port] of Object.entries(ports)) {
      const p = pool(port, { socketTimeoutMs: 300, connectionTimeoutMs: 1000 });
      const expected = `could not connect to an SMTP server at 127.0.0.1:${port}`;
      const sendErr = await p
        .send('a@parley.test', ['b@example.test'], message('x'))
        .catch((e: unknown) => e);
      expect((sendErr as Error).message, what).toBe(expected);
      expect(classify(sendErr), what).toMatchObject({ connection: true, permanent: false });
      expect(await p.verify().catch((e: unknown) => (e as Error).message), what).toBe(expected);
    }
  });
});

describe('dotStuffed', () => {
  it('leaves a clean message untouched (the same buffer) and mends the rest', () => {
    const clean = Buffer.from('a\r\nb\r\n');
    expect(dotStuffed(clean)).toBe(clean);
    expect(dotStuffed(Buffer.from('.a\r\nb\r\n.c')).toString()).toBe('..a\r\nb\r\n..c');
    expect(dotStuffed(Buffer.from('a\nb\r\n')).toString()).toBe('a\r\nb\r\n');
  });
});
