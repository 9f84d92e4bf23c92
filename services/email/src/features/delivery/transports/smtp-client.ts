import { SmtpConnection, type SmtpJob } from './smtp-connection.ts';
import type { SmtpClientOptions } from './smtp-host.ts';
import { envelopeProblem, SmtpNetworkError, type SmtpReply } from './smtp-protocol.ts';

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
 *
 * This file holds the pool (SmtpPool); a connection's session is in smtp-connection.ts, the
 * settings and the host policy in smtp-host.ts, replies, errors and the wire rules in
 * smtp-protocol.ts.
 */

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
