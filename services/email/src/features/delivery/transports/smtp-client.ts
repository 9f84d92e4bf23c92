import { lookup as dnsLookup } from 'node:dns/promises';
import net from 'node:net';
import { hostname } from 'node:os';
import tls from 'node:tls';
import { connectableHost, mailAddressVerdict, parseMailHost } from '@parley/kit/mail-host';

/**
 * A small SMTP client (RFC 5321) with a connection pool, written for campaign volume. With
 * PIPELINING (RFC 2920) a connection sends a message, its terminator and the next queued
 * message's MAIL FROM, RCPT TO and DATA in one write (the RFC lets message content open a
 * group), so back to back a message costs one socket write and one round trip. Nodemailer's
 * SMTP pool (one command per round trip, the message streamed through a pipeline of
 * transforms) cost more CPU per message than composing it; see docs/benchmarks.md (send).
 * STARTTLS when offered (certificates verified), implicit TLS on port 465 (or `secure`),
 * AUTH PLAIN or LOGIN.
 *
 * What it will not do, whatever the settings say: connect to an address the mail host policy
 * refuses (`@parley/kit/mail-host`: link-local, cloud metadata, unspecified; checked on every
 * address the host resolves to, and the connection goes to a checked address); send a password
 * over a connection without TLS (requireTLS), unless the relay is this machine (a loopback
 * host, connected on loopback: the password never leaves it); write a command with a line
 * break or control character in it (MAIL FROM and RCPT TO are checked before anything is
 * queued). Before the server has answered EHLO, every failure reads the same, "could not
 * connect to an SMTP server": the test email and the diagnostics show no finer port state.
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
  /** Resolves the host (default: the system resolver, as `net.connect` would). */
  lookup?: (host: string) => Promise<Array<{ address: string }>>;
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
    /** What happened underneath, for the logs (the message may be kept coarse on purpose). */
    readonly detail?: string,
  ) {
    super(message);
  }
  get handshake(): boolean {
    return HANDSHAKE.has(this.stage);
  }
}

/** A command would carry a line break or control character: refused before anything is sent. */
export class SmtpCommandError extends Error {
  override name = 'SmtpCommandError';
  constructor(
    readonly stage: SmtpStage,
    message: string,
  ) {
    super(message);
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const UNSAFE_IN_PATH = /[\u0000-\u001f\u007f<>]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const UNSAFE_IN_COMMAND = /[\u0000-\u001f\u007f]/;

/** The refusal of an envelope address that would break out of its MAIL FROM or RCPT TO line. */
function envelopeProblem(from: string, to: readonly string[]): SmtpCommandError | null {
  if (UNSAFE_IN_PATH.test(from))
    return new SmtpCommandError('mail', 'the sender address holds a line break, control character or <>');
  if (to.some((t) => UNSAFE_IN_PATH.test(t)))
    return new SmtpCommandError('rcpt', 'a recipient address holds a line break, control character or <>');
  return null;
}

/** Every failure before the server answered EHLO, as the caller sees it (no finer port state). */
const unreachable = (o: SmtpClientOptions, code: string | undefined, detail: string) =>
  new SmtpNetworkError('connect', `could not connect to an SMTP server at ${o.host}:${o.port}`, code, detail);

/** The addresses the host resolves to, each allowed by the mail host policy (else an error). */
async function resolveHost(o: SmtpClientOptions): Promise<string[]> {
  const host = connectableHost(o.host);
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      const found = await (o.lookup ?? ((h: string) => dnsLookup(h, { all: true, verbatim: true })))(host);
      addresses = found.map((a) => a.address);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw new SmtpNetworkError('connect', `the SMTP host name ${o.host} was not found`, e.code, e.message);
    }
    if (!addresses.length)
      throw new SmtpNetworkError('connect', `the SMTP host name ${o.host} was not found`);
  }
  // One refused address refuses the host: a name that also resolves to the metadata service is
  // not a mail relay, and the system would not say which address a connection picks.
  for (const address of addresses) {
    const verdict = mailAddressVerdict(address);
    if (!verdict.allowed)
      throw new SmtpNetworkError(
        'connect',
        `the SMTP host ${o.host} is refused: it is ${/^[aeiou]/.test(verdict.kind) ? 'an' : 'a'} ${verdict.kind} address (loopback, private and public relays are allowed)`,
        'EHOSTPOLICY',
      );
  }
  return addresses;
}

/** A loopback address (IPv4-mapped ones too). */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const verdict = mailAddressVerdict(address);
  return verdict.allowed && verdict.kind === 'loopback';
}

/** The configured host names this machine: `localhost` or a loopback address in any spelling. */
function namesThisMachine(host: string): boolean {
  const parsed = parseMailHost(host);
  if (!parsed) return false;
  return parsed.kind === 'name' ? parsed.name === 'localhost' : isLoopback(parsed.address);
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

/** One message waiting for, or on, a pooled connection. */
export interface SmtpJob {
  from: string;
  to: string[];
  message: Buffer;
  resolve: (reply: SmtpReply) => void;
  reject: (err: Error) => void;
}

/**
 * A bounded pool of SMTP connections, reused across messages. Messages queue in the pool;
 * each connection takes the next one as its current message goes out, so a busy connection
 * chains transactions (see SmtpConnection.transactions) and an idle one waits for work until
 * `idleMs`.
 */
export class SmtpPool {
  private readonly queue: SmtpJob[] = [];
  /** Connections waiting for work, the most recently used last (it is woken first). */
  private readonly parked: Array<(job: SmtpJob | undefined) => void> = [];
  private readonly runners = new Set<Promise<void>>();
  /** Connections open or opening. */
  private open = 0;
  private closed = false;

  constructor(readonly options: SmtpClientOptions) {}

  private get max() {
    return this.options.maxConnections ?? 5;
  }

  /**
   * One transaction on a pooled connection. A message that met a connection the server had
   * dropped before it was written (nothing handed over) gets one more connection.
   */
  send(from: string, to: string[], message: Buffer): Promise<SmtpReply> {
    // Checked before the job is queued: a pipelined envelope is written beside others.
    const refused = envelopeProblem(from, to);
    if (refused) return Promise.reject(refused);
    return new Promise((resolve, reject) => {
      let retried = false;
      const job: SmtpJob = {
        from,
        to,
        message,
        resolve,
        reject: (err) => {
          const stale =
            err instanceof SmtpNetworkError && !err.handshake && err.stage !== 'message' && !retried;
          if (!stale) return reject(err);
          retried = true;
          this.queue.unshift(job);
          this.dispatch();
        },
      };
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Hands queued messages to waiting connections, and opens one more when they are not enough. */
  private dispatch() {
    while (this.queue.length && this.parked.length)
      (this.parked.pop() as (job: SmtpJob) => void)(this.queue.shift() as SmtpJob);
    if (this.queue.length && this.open < this.max) {
      this.open++;
      const run = this.run().finally(() => this.runners.delete(run));
      this.runners.add(run);
    }
  }

  /** One connection's life: open, take messages until idle too long (or drained, or worn), quit. */
  private async run(): Promise<void> {
    let conn: SmtpConnection;
    try {
      conn = await SmtpConnection.open(this.options);
    } catch (err) {
      this.open--;
      // The failed attempt fails one waiting message; each of the others gets its own attempt.
      this.queue.shift()?.reject(err as Error);
      this.dispatch();
      return;
    }
    const limit = this.options.maxMessagesPerConnection ?? 1000;
    let taken = 0;
    const take = () => {
      if (taken >= limit) return undefined;
      const job = this.queue.shift();
      if (job) taken++;
      return job;
    };
    try {
      for (;;) {
        let job = take();
        if (!job) {
          if (this.closed || taken >= limit) break;
          job = await this.park();
          if (!job) break;
          taken++;
        }
        if (!conn.usable) {
          // The server closed it while it waited: the message goes to another connection.
          this.queue.unshift(job);
          break;
        }
        await conn.transactions(job, take);
        if (!conn.usable) break;
      }
    } finally {
      this.open--;
      await conn.quit();
      this.dispatch();
    }
  }

  private park(): Promise<SmtpJob | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const wake = (job: SmtpJob | undefined) => {
        clearTimeout(timer);
        resolve(job);
      };
      const timer = setTimeout(() => {
        const i = this.parked.indexOf(wake);
        if (i >= 0) this.parked.splice(i, 1);
        resolve(undefined);
      }, this.options.idleMs ?? 60_000);
      timer.unref();
      this.parked.push(wake);
    });
  }

  /** Connects, says EHLO (and AUTH), and quits: what a settings check wants to know. */
  async verify(): Promise<SmtpConnection['capabilities']> {
    const conn = await SmtpConnection.open(this.options);
    const caps = conn.capabilities;
    await conn.quit();
    return caps;
  }

  /**
   * Drains the pool: what it was given, and anything still handed to it, is sent, and each
   * connection quits as soon as it has nothing to do. A transport replaced after a settings
   * change closes this way while a batch may still be sending through it: failing those
   * messages would count as connection failures, and could start the cooling period.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.dispatch();
    for (const wake of this.parked.splice(0)) wake(undefined);
    while (this.runners.size) await Promise.allSettled([...this.runners]);
  }
}
