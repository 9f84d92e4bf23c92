import net from 'node:net';
import { hostname } from 'node:os';
import tls from 'node:tls';

/**
 * A small SMTP client (RFC 5321) with a connection pool, written for campaign volume:
 * PIPELINING (RFC 2920) sends MAIL FROM, RCPT TO and DATA in one write, and the message with
 * its terminator in a second, so a message costs two round trips and two socket writes.
 * Nodemailer's SMTP pool (one command per round trip, the message streamed through a pipeline
 * of transforms) cost more CPU per message than composing it; see docs/benchmarks.md (send).
 * STARTTLS when offered (certificates verified), implicit TLS on port 465 (or `secure`),
 * AUTH PLAIN or LOGIN.
 */

export interface SmtpClientOptions {
  host: string;
  port: number;
  secure?: boolean;
  /** Do not upgrade with STARTTLS even when offered (tests against a local server). */
  ignoreTLS?: boolean;
  username?: string;
  password?: string;
  maxConnections?: number;
  /** A connection is closed (QUIT) and replaced after this many messages. */
  maxMessagesPerConnection?: number;
  connectionTimeoutMs?: number;
  socketTimeoutMs?: number;
  /** An idle pooled connection older than this is closed rather than reused. */
  idleMs?: number;
  /** The name said in EHLO (default: this host's name when it is a domain, else [127.0.0.1]). */
  clientName?: string;
  tls?: tls.ConnectionOptions;
}

/** Where a transaction was when it failed. */
export type SmtpStage =
  | 'connect'
  | 'greeting'
  | 'ehlo'
  | 'starttls'
  | 'auth'
  | 'mail'
  | 'rcpt'
  | 'data'
  | 'message';

const HANDSHAKE: ReadonlySet<SmtpStage> = new Set(['connect', 'greeting', 'ehlo', 'starttls', 'auth']);

export interface SmtpReply {
  code: number;
  /** The reply's text lines joined with newlines (without the codes). */
  text: string;
}

/** The server answered with a refusal (`code` is its reply code). */
export class SmtpReplyError extends Error {
  override name = 'SmtpReplyError';
  constructor(
    readonly stage: SmtpStage,
    readonly code: number,
    text: string,
    /** For RCPT: the refused recipients. */
    readonly recipients: string[] = [],
  ) {
    super(`${code} ${text}`.slice(0, 500));
  }
  get handshake(): boolean {
    return HANDSHAKE.has(this.stage);
  }
}

/** The connection failed (refused, reset, timed out, TLS) with no reply to read. */
export class SmtpNetworkError extends Error {
  override name = 'SmtpNetworkError';
  constructor(
    readonly stage: SmtpStage,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
  get handshake(): boolean {
    return HANDSHAKE.has(this.stage);
  }
}

const defaultName = () => {
  const h = hostname();
  return h.includes('.') ? h : '[127.0.0.1]';
};

/** One SMTP connection: a reply reader over a socket (plain, or TLS after STARTTLS). */
export class SmtpConnection {
  private socket: net.Socket;
  private buf = '';
  private lines: string[] = [];
  private readonly replies: SmtpReply[] = [];
  private readonly waiters: Array<{ resolve: (r: SmtpReply) => void; reject: (e: Error) => void }> = [];
  private failure: Error | null = null;
  private stage: SmtpStage = 'connect';
  capabilities = new Map<string, string>();
  /** Messages accepted on this connection. */
  messages = 0;
  idleSince = 0;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    this.attach(socket);
  }

  get usable(): boolean {
    return this.failure === null && !this.socket.destroyed;
  }

  static async open(o: SmtpClientOptions): Promise<SmtpConnection> {
    const secure = o.secure ?? o.port === 465;
    const timeout = o.connectionTimeoutMs ?? 10_000;
    const servername = net.isIP(o.host) ? undefined : o.host;
    const socket = secure
      ? tls.connect({ host: o.host, port: o.port, servername, ...o.tls })
      : net.connect({ host: o.host, port: o.port });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new SmtpNetworkError('connect', `connection to ${o.host}:${o.port} timed out`, 'ETIMEDOUT'));
      }, timeout);
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new SmtpNetworkError('connect', err.message, err.code));
      });
    });
    const conn = new SmtpConnection(socket);
    socket.setTimeout(o.socketTimeoutMs ?? 30_000);
    try {
      await conn.handshake(o, secure);
    } catch (err) {
      conn.destroy();
      throw err;
    }
    return conn;
  }

  private attach(socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      this.fail(new SmtpNetworkError(this.stage, err.message, err.code)),
    );
    socket.on('close', () =>
      this.fail(new SmtpNetworkError(this.stage, 'the server closed the connection', 'ECONNRESET')),
    );
    socket.on('timeout', () => {
      this.fail(new SmtpNetworkError(this.stage, 'the server did not answer in time', 'ETIMEDOUT'));
      socket.destroy();
    });
  }

  private onData(chunk: Buffer) {
    this.buf += chunk.toString('latin1');
    for (let i = this.buf.indexOf('\n'); i >= 0; i = this.buf.indexOf('\n')) {
      const line = this.buf.slice(0, i).replace(/\r$/, '');
      this.buf = this.buf.slice(i + 1);
      this.lines.push(line);
      // The last line of a reply: code, then a space (or nothing); "250-" continues.
      if (/^\d{3}(?: |$)/.test(line)) {
        const reply = { code: Number(line.slice(0, 3)), text: this.lines.map((l) => l.slice(4)).join('\n') };
        this.lines = [];
        const w = this.waiters.shift();
        if (w) w.resolve(reply);
        else this.replies.push(reply);
      } else if (!/^\d{3}-/.test(line)) {
        this.fail(new SmtpNetworkError(this.stage, `unreadable reply: ${line.slice(0, 100)}`, 'EPROTOCOL'));
        this.socket.destroy();
        return;
      }
    }
  }

  private fail(err: Error) {
    if (this.failure) return;
    this.failure = err;
    for (const w of this.waiters.splice(0)) w.reject(err);
  }

  private read(): Promise<SmtpReply> {
    const r = this.replies.shift();
    if (r) return Promise.resolve(r);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private write(text: string | Buffer) {
    if (this.failure) throw this.failure;
    this.socket.write(text);
  }

  private async command(stage: SmtpStage, line: string): Promise<SmtpReply> {
    this.stage = stage;
    this.write(`${line}\r\n`);
    return this.read();
  }

  private async handshake(o: SmtpClientOptions, secure: boolean) {
    this.stage = 'greeting';
    const greeting = await this.read();
    if (greeting.code !== 220) throw new SmtpReplyError('greeting', greeting.code, greeting.text);
    const name = o.clientName ?? defaultName();
    await this.ehlo(name);
    if (!secure && !o.ignoreTLS && this.capabilities.has('STARTTLS')) {
      const r = await this.command('starttls', 'STARTTLS');
      if (r.code !== 220) throw new SmtpReplyError('starttls', r.code, r.text);
      await this.upgrade(o);
      await this.ehlo(name);
    }
    if (o.username) await this.login(o.username, o.password ?? '');
  }

  private async ehlo(name: string) {
    let r = await this.command('ehlo', `EHLO ${name}`);
    if (r.code !== 250) {
      r = await this.command('ehlo', `HELO ${name}`);
      if (r.code !== 250) throw new SmtpReplyError('ehlo', r.code, r.text);
      this.capabilities = new Map();
      return;
    }
    // The first line is the greeting; each further line a capability and its parameters.
    this.capabilities = new Map(
      r.text
        .split('\n')
        .slice(1)
        .map((l) => {
          const [word = '', ...rest] = l.trim().split(/\s+/);
          return [word.toUpperCase(), rest.join(' ').toUpperCase()] as const;
        }),
    );
  }

  private async upgrade(o: SmtpClientOptions) {
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('close');
    plain.removeAllListeners('timeout');
    plain.setTimeout(0);
    const secured = tls.connect({
      socket: plain,
      servername: net.isIP(o.host) ? undefined : o.host,
      ...o.tls,
    });
    await new Promise<void>((resolve, reject) => {
      secured.once('secureConnect', () => resolve());
      secured.once('error', (err: NodeJS.ErrnoException) =>
        reject(new SmtpNetworkError('starttls', `TLS: ${err.message}`, err.code)),
      );
    });
    plain.removeAllListeners('error');
    this.socket = secured;
    this.attach(secured);
    secured.setTimeout(o.socketTimeoutMs ?? 30_000);
  }

  private async login(user: string, pass: string) {
    const methods = (this.capabilities.get('AUTH') ?? '').split(' ');
    if (methods.includes('PLAIN') || !methods.includes('LOGIN')) {
      const token = Buffer.from(`\u0000${user}\u0000${pass}`, 'utf8').toString('base64');
      const r = await this.command('auth', `AUTH PLAIN ${token}`);
      if (r.code !== 235) throw new SmtpReplyError('auth', r.code, r.text);
      return;
    }
    let r = await this.command('auth', 'AUTH LOGIN');
    if (r.code === 334) r = await this.command('auth', Buffer.from(user, 'utf8').toString('base64'));
    if (r.code === 334) r = await this.command('auth', Buffer.from(pass, 'utf8').toString('base64'));
    if (r.code !== 235) throw new SmtpReplyError('auth', r.code, r.text);
  }

  /**
   * One transaction: MAIL FROM, RCPT TO per recipient and DATA (pipelined when the server
   * offers it), then the message. Resolves with the server's final reply (250 … queued as …).
   * A refusal rejects with an SmtpReplyError after RSET, leaving the connection usable.
   */
  async send(from: string, to: string[], message: Buffer): Promise<SmtpReply> {
    const pipelining = this.capabilities.has('PIPELINING');
    const size = this.capabilities.has('SIZE') ? ` SIZE=${message.length}` : '';
    const commands: Array<[SmtpStage, string]> = [
      ['mail', `MAIL FROM:<${from}>${size}`],
      ...to.map((t): [SmtpStage, string] => ['rcpt', `RCPT TO:<${t}>`]),
      ['data', 'DATA'],
    ];
    const replies: SmtpReply[] = [];
    if (pipelining) {
      this.stage = 'mail';
      this.write(`${commands.map((c) => c[1]).join('\r\n')}\r\n`);
      for (const [stage] of commands) {
        this.stage = stage;
        replies.push(await this.read());
      }
    } else {
      for (const [stage, line] of commands) {
        const r = await this.command(stage, line);
        replies.push(r);
        // Without pipelining, stop at the first refusal that ends the transaction.
        if (stage === 'mail' && r.code >= 400) break;
      }
    }
    const mail = replies[0] as SmtpReply;
    const rcpt = replies.slice(1, 1 + to.length);
    const data = replies[1 + to.length];
    const refused = rcpt.flatMap((r, i) => (r.code >= 400 ? [{ r, to: to[i] as string }] : []));
    const rcptError = () => {
      const first = refused[0] as { r: SmtpReply; to: string };
      return new SmtpReplyError(
        'rcpt',
        first.r.code,
        first.r.text,
        refused.map((x) => x.to),
      );
    };
    if (mail.code >= 400 || refused.length === to.length) {
      // Nothing can go out. A server that said 354 all the same gets an empty message ended.
      if (data?.code === 354) {
        this.stage = 'message';
        this.write('.\r\n');
        await this.read();
      }
      return this.refuse(mail.code >= 400 ? new SmtpReplyError('mail', mail.code, mail.text) : rcptError());
    }
    if (!data) throw new SmtpNetworkError('data', 'no reply to DATA', 'EPROTOCOL');
    if (data.code !== 354) return this.refuse(new SmtpReplyError('data', data.code, data.text));
    this.stage = 'message';
    this.socket.cork();
    this.socket.write(dotStuffed(message));
    this.socket.write(message.length && message[message.length - 1] === 0x0a ? '.\r\n' : '\r\n.\r\n');
    this.socket.uncork();
    const final = await this.read();
    if (final.code >= 400) return this.refuse(new SmtpReplyError('message', final.code, final.text));
    this.messages++;
    // Some recipients were refused, the others got the message: the refusal is reported.
    if (refused.length) throw rcptError();
    return final;
  }

  private async refuse(err: SmtpReplyError): Promise<never> {
    try {
      const r = await this.command(err.stage, 'RSET');
      if (r.code !== 250) this.destroy();
    } catch {
      this.destroy();
    }
    throw err;
  }

  async quit(): Promise<void> {
    if (!this.usable) return this.destroy();
    try {
      this.socket.setTimeout(2000);
      this.write('QUIT\r\n');
      this.socket.end();
    } catch {
      this.destroy();
    }
  }

  destroy() {
    this.fail(new SmtpNetworkError(this.stage, 'connection closed', 'ECONNRESET'));
    this.socket.destroy();
  }
}

/**
 * The message as DATA needs it: CRLF line ends, and a dot doubled at the start of a line
 * (RFC 5321 §4.5.2). Untouched (no copy) when it needs neither, as composed messages do.
 */
export function dotStuffed(message: Buffer): Buffer {
  let bareLf = false;
  for (let i = message.indexOf(0x0a); i >= 0; i = message.indexOf(0x0a, i + 1)) {
    if (i === 0 || message[i - 1] !== 0x0d) {
      bareLf = true;
      break;
    }
  }
  const dotLine = message[0] === 0x2e || message.indexOf('\n.') >= 0;
  if (!bareLf && !dotLine) return message;
  const text = message.toString('latin1');
  const crlf = bareLf ? text.replace(/\r?\n/g, '\r\n') : text;
  return Buffer.from(crlf.replace(/(^|\n)\./g, '$1..'), 'latin1');
}

/** A bounded pool of SMTP connections, reused across messages. */
export class SmtpPool {
  private readonly idle: SmtpConnection[] = [];
  private readonly waiters: Array<() => void> = [];
  private open = 0;
  private closed = false;

  constructor(readonly options: SmtpClientOptions) {}

  private get max() {
    return this.options.maxConnections ?? 5;
  }

  async acquire(): Promise<{ conn: SmtpConnection; reused: boolean }> {
    const idleMs = this.options.idleMs ?? 60_000;
    for (;;) {
      if (this.closed) throw new SmtpNetworkError('connect', 'the SMTP pool is closed', 'ECLOSED');
      const c = this.idle.pop();
      if (c) {
        if (c.usable && performance.now() - c.idleSince < idleMs) return { conn: c, reused: true };
        this.open--;
        void c.quit();
        continue;
      }
      if (this.open < this.max) {
        this.open++;
        try {
          return { conn: await SmtpConnection.open(this.options), reused: false };
        } catch (err) {
          this.open--;
          this.waiters.shift()?.();
          throw err;
        }
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  release(conn: SmtpConnection) {
    const limit = this.options.maxMessagesPerConnection ?? 1000;
    if (!this.closed && conn.usable && conn.messages < limit) {
      conn.idleSince = performance.now();
      this.idle.push(conn);
    } else {
      this.open--;
      void conn.quit();
    }
    this.waiters.shift()?.();
  }

  /** One transaction on a pooled connection; a stale pooled connection is replaced once. */
  async send(from: string, to: string[], message: Buffer): Promise<SmtpReply> {
    for (let attempt = 0; ; attempt++) {
      const { conn, reused } = await this.acquire();
      try {
        return await conn.send(from, to, message);
      } catch (err) {
        // A reused connection the server had closed while idle fails before any reply:
        // nothing was handed over, so one fresh connection gets the message.
        const stale = err instanceof SmtpNetworkError && err.stage !== 'message' && reused;
        if (!(stale && attempt === 0)) throw err;
      } finally {
        this.release(conn);
      }
    }
  }

  /** Connects, says EHLO (and AUTH), and quits: what a settings check wants to know. */
  async verify(): Promise<SmtpConnection['capabilities']> {
    const conn = await SmtpConnection.open(this.options);
    const caps = conn.capabilities;
    await conn.quit();
    return caps;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.idle.splice(0)) await c.quit();
    for (const w of this.waiters.splice(0)) w();
  }
}
