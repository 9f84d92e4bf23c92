import net from 'node:net';
import { hostname } from 'node:os';
import tls from 'node:tls';
import { connectableHost } from '@parley/kit/mail-host';
import { isLoopback, namesThisMachine, resolveHost, type SmtpClientOptions } from './smtp-host.ts';
import {
  dotStuffed,
  SmtpCommandError,
  SmtpNetworkError,
  type SmtpReply,
  SmtpReplyError,
  type SmtpStage,
  UNSAFE_IN_COMMAND,
} from './smtp-protocol.ts';

/**
 * One SMTP connection and its session: connecting (to an address smtp-host.ts allowed), the
 * greeting, EHLO, STARTTLS, AUTH, then transactions back to back, pipelined when the server
 * offers PIPELINING. The pool that hands it messages is in smtp-client.ts.
 */

/** Every failure before the server answered EHLO, as the caller sees it (no finer port state). */
const unreachable = (o: SmtpClientOptions, code: string | undefined, detail: string) =>
  new SmtpNetworkError('connect', `could not connect to an SMTP server at ${o.host}:${o.port}`, code, detail);

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
  private readonly waiters: Array<{
    stage: SmtpStage;
    resolve: (r: SmtpReply) => void;
    reject: (e: Error) => void;
  }> = [];
  /** Why the connection is gone; each read or write after it fails at its own stage. */
  private failure: { message: string; code: string | undefined } | null = null;
  private stage: SmtpStage = 'connect';
  capabilities = new Map<string, string>();
  /** Messages accepted on this connection. */
  messages = 0;
  /** The server has answered EHLO (or HELO): it speaks SMTP. */
  spokeSmtp = false;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    this.attach(socket);
  }

  get usable(): boolean {
    return this.failure === null && !this.socket.destroyed;
  }

  static async open(o: SmtpClientOptions): Promise<SmtpConnection> {
    const secure = o.secure ?? o.port === 465;
    const deadline = Date.now() + (o.connectionTimeoutMs ?? 10_000);
    const host = connectableHost(o.host);
    const servername = net.isIP(host) ? undefined : host;
    const addresses = await resolveHost(o);
    // The connection goes to an address checked above (never resolved again), each in turn
    // as the system's connect would try them (`localhost` may be ::1 and 127.0.0.1).
    let socket: net.Socket | undefined;
    let last: NodeJS.ErrnoException | undefined;
    for (const address of addresses) {
      const candidate = secure
        ? tls.connect({ host: address, port: o.port, servername, ...o.tls })
        : net.connect({ host: address, port: o.port });
      candidate.setNoDelay(true);
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(Object.assign(new Error('connection timed out'), { code: 'ETIMEDOUT' })),
            Math.max(0, deadline - Date.now()),
          );
          candidate.once(secure ? 'secureConnect' : 'connect', () => {
            clearTimeout(timer);
            resolve();
          });
          candidate.once('error', (err: NodeJS.ErrnoException) => {
            clearTimeout(timer);
            reject(err);
          });
        });
        socket = candidate;
        break;
      } catch (err) {
        candidate.destroy();
        last = err as NodeJS.ErrnoException;
        if (last.code === 'ETIMEDOUT') break;
      }
    }
    if (!socket) throw unreachable(o, last?.code, last?.message ?? 'no address');
    const conn = new SmtpConnection(socket);
    socket.setTimeout(o.socketTimeoutMs ?? 30_000);
    try {
      await conn.handshake(o, secure);
    } catch (err) {
      conn.destroy();
      // Until EHLO was answered the peer has not shown itself an SMTP server: whatever it
      // did (closed, timed out, sent a banner of another protocol) reads as one failure.
      if (!conn.spokeSmtp) {
        const e = err as Error & { code?: string | number };
        throw unreachable(o, typeof e.code === 'string' ? e.code : undefined, e.message);
      }
      throw err;
    }
    return conn;
  }

  private attach(socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => this.fail(err.message, err.code));
    socket.on('close', () => this.fail('the server closed the connection', 'ECONNRESET'));
    socket.on('timeout', () => {
      this.fail('the server did not answer in time', 'ETIMEDOUT');
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
        this.fail(`unreadable reply: ${line.slice(0, 100)}`, 'EPROTOCOL');
        this.socket.destroy();
        return;
      }
    }
  }

  private fail(message: string, code: string | undefined) {
    if (this.failure) return;
    this.failure = { message, code };
    for (const w of this.waiters.splice(0)) w.reject(this.lost(w.stage));
  }

  /** The connection's failure as met at `stage` (before or after the message decides its meaning). */
  private lost(stage: SmtpStage): SmtpNetworkError {
    const f = this.failure ?? { message: 'connection closed', code: 'ECONNRESET' };
    return new SmtpNetworkError(stage, f.message, f.code);
  }

  private read(stage: SmtpStage = this.stage): Promise<SmtpReply> {
    const r = this.replies.shift();
    if (r) return Promise.resolve(r);
    if (this.failure) return Promise.reject(this.lost(stage));
    return new Promise((resolve, reject) => this.waiters.push({ stage, resolve, reject }));
  }

  private write(text: string | Buffer, stage: SmtpStage = this.stage) {
    if (this.failure) throw this.lost(stage);
    this.socket.write(text);
  }

  private async command(stage: SmtpStage, line: string): Promise<SmtpReply> {
    // The last guard: no command line ever carries a second one.
    if (UNSAFE_IN_COMMAND.test(line))
      throw new SmtpCommandError(stage, 'a command would hold a line break or control character');
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
    if (o.username) {
      // requireTLS: a server that offers no STARTTLS (or a man in the middle who struck it
      // from the EHLO answer) never gets the password in clear, unless the relay is this
      // machine, reached on loopback.
      const encrypted = this.socket instanceof tls.TLSSocket && this.socket.encrypted;
      if (!encrypted && !(namesThisMachine(o.host) && isLoopback(this.socket.remoteAddress)))
        throw new SmtpNetworkError(
          'starttls',
          `the SMTP server at ${o.host}:${o.port} offered no TLS (STARTTLS): the password is not sent over a plain connection`,
          'ETLSREQUIRED',
        );
      await this.login(o.username, o.password ?? '');
    }
  }

  private async ehlo(name: string) {
    let r = await this.command('ehlo', `EHLO ${name}`);
    if (r.code !== 250) {
      r = await this.command('ehlo', `HELO ${name}`);
      if (r.code !== 250) throw new SmtpReplyError('ehlo', r.code, r.text);
      this.spokeSmtp = true;
      this.capabilities = new Map();
      return;
    }
    this.spokeSmtp = true;
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

  /** MAIL FROM, RCPT TO per recipient and DATA, each with its stage. */
  private envelope(job: SmtpJob): Array<[SmtpStage, string]> {
    const size = this.capabilities.has('SIZE') ? ` SIZE=${job.message.length}` : '';
    return [
      ['mail', `MAIL FROM:<${job.from}>${size}`],
      ...job.to.map((t): [SmtpStage, string] => ['rcpt', `RCPT TO:<${t}>`]),
      ['data', 'DATA'],
    ];
  }

  /** The envelope's commands as written in one go (PIPELINING), each line ended. */
  private envelopeText(job: SmtpJob): string {
    return `${this.envelope(job)
      .map((c) => c[1])
      .join('\r\n')}\r\n`;
  }

  /**
   * Transactions back to back: `first`, then, while a message goes out, the job `next` hands
   * over (with PIPELINING only). That job's MAIL FROM, RCPT TO and DATA ride in the same write
   * as the message and its terminator; their replies follow the message's. Every job is
   * settled once: resolved with the server's final reply (250 … queued as …), or rejected
   * with an SmtpReplyError (after RSET when the envelope was refused, leaving the connection
   * usable) or an SmtpNetworkError whose stage says whether the message had been written.
   * Returns when no job follows, or the connection is gone.
   */
  async transactions(first: SmtpJob, next: () => SmtpJob | undefined): Promise<void> {
    const pipelining = this.capabilities.has('PIPELINING');
    let job: SmtpJob | undefined = first;
    // The job's envelope is already written (behind the previous message).
    let announced = false;
    while (job) {
      const current: SmtpJob = job;
      job = undefined;
      try {
        const reply = await this.transaction(current, pipelining, announced, () => {
          job = pipelining ? next() : undefined;
          return job;
        });
        current.resolve(reply);
      } catch (err) {
        current.reject(err as Error);
      }
      announced = job !== undefined;
    }
  }

  private async transaction(
    job: SmtpJob,
    pipelining: boolean,
    announced: boolean,
    following: () => SmtpJob | undefined,
  ): Promise<SmtpReply> {
    const commands = this.envelope(job);
    const replies: SmtpReply[] = [];
    if (pipelining) {
      if (!announced) this.write(this.envelopeText(job), 'mail');
      for (const [stage] of commands) replies.push(await this.read(stage));
    } else {
      for (const [stage, line] of commands) {
        const r = await this.command(stage, line);
        replies.push(r);
        // Without pipelining, stop at the first refusal that ends the transaction.
        if (stage === 'mail' && r.code >= 400) break;
      }
    }
    const { to } = job;
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
        this.write('.\r\n', 'message');
        await this.read('message');
      }
      return this.refuse(mail.code >= 400 ? new SmtpReplyError('mail', mail.code, mail.text) : rcptError());
    }
    if (!data) throw new SmtpNetworkError('data', 'no reply to DATA', 'EPROTOCOL');
    if (data.code !== 354) return this.refuse(new SmtpReplyError('data', data.code, data.text));
    if (this.failure) throw this.lost('data');
    const terminator =
      job.message.length && job.message[job.message.length - 1] === 0x0a ? '.\r\n' : '\r\n.\r\n';
    const after = following();
    const tail = after ? `${terminator}${this.envelopeText(after)}` : terminator;
    this.socket.cork();
    this.socket.write(dotStuffed(job.message));
    this.socket.write(tail);
    this.socket.uncork();
    // The transaction ends with this reply, accepted or refused: no RSET (the next one may be on its way).
    const final = await this.read('message');
    if (final.code >= 400) throw new SmtpReplyError('message', final.code, final.text);
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
    this.fail('connection closed', 'ECONNRESET');
    this.socket.destroy();
  }
}

/** One message waiting for, or on, a pooled connection. */
export interface SmtpJob {
  from: string;
  to: string[];
  message: Buffer;
  resolve: (reply: SmtpReply) => void;
  reject: (err: Error) => void;
}
