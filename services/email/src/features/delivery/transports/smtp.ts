import { type DkimKey, dkimSigner, type Signer } from './dkim.ts';
import { SmtpPool } from './smtp-client.ts';
import type { SmtpClientOptions } from './smtp-host.ts';
import { SmtpCommandError, SmtpNetworkError, type SmtpReply, SmtpReplyError } from './smtp-protocol.ts';
import { type Envelope, type MailTransport, SendError, type SendResult } from './transport.ts';

export interface SmtpOptions {
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** Port 465 speaks TLS from the first byte; others upgrade with STARTTLS when offered. */
  secure?: boolean;
  dkim?: DkimKey;
  /** Tests against a local server without TLS. */
  ignoreTLS?: boolean;
  maxConnections?: number;
  /** Resolves the host (tests: a local table); default the system resolver. */
  lookup?: SmtpClientOptions['lookup'];
}

/** SMTP through the pooled, pipelining client of smtp-client.ts (kept open between messages). */
export class SmtpTransport implements MailTransport {
  readonly name = 'smtp' as const;
  readonly description: string;
  private readonly pool: SmtpPool;
  private readonly signer: Signer | null;

  constructor(private readonly opts: SmtpOptions) {
    this.description = `SMTP ${opts.host}:${opts.port}`;
    this.signer = opts.dkim ? dkimSigner(opts.dkim) : null;
    this.pool = new SmtpPool({
      host: opts.host,
      port: opts.port,
      secure: opts.secure ?? opts.port === 465,
      maxConnections: opts.maxConnections ?? 5,
      connectionTimeoutMs: 10_000,
      socketTimeoutMs: 30_000,
      ...(opts.ignoreTLS ? { ignoreTLS: true } : {}),
      ...(opts.lookup ? { lookup: opts.lookup } : {}),
      ...(opts.username ? { username: opts.username, password: opts.password ?? '' } : {}),
    });
  }

  private sign(raw: Buffer): Promise<Buffer> {
    return this.signer ? this.signer(raw) : Promise.resolve(raw);
  }

  async send(envelope: Envelope, raw: Buffer): Promise<SendResult> {
    let reply: SmtpReply;
    try {
      reply = await this.pool.send(envelope.from, envelope.to, await this.sign(raw));
    } catch (err) {
      throw classify(err);
    }
    // "250 2.0.0 Ok: queued as 4Xyz": the server's queue id names the message there.
    const queued = /queued as\s+(\S+)/i.exec(reply.text)?.[1] ?? null;
    return { providerMessageId: queued, response: `${reply.code} ${reply.text}` };
  }

  async verify() {
    const caps = await this.pool.verify();
    const tlsNote = caps.has('STARTTLS') || this.opts.secure || this.opts.port === 465 ? ', TLS' : '';
    return {
      status: 'success' as const,
      result: 'Connected',
      details: `${this.description} accepted the connection (EHLO${tlsNote}${this.opts.username ? ' and AUTH' : ''})`,
    };
  }

  async close() {
    await this.pool.close();
  }
}

/**
 * What a failure means for the message: a 5xx refusal is permanent (to RCPT TO: the address
 * bounced); a 4xx refusal is temporary; a failure before the transaction (connect, greeting,
 * EHLO, STARTTLS, AUTH) is a connection failure (the message certainly never left); a
 * connection lost before the message was written is temporary (code 421); lost after it, the
 * outcome is unknown (no code). An envelope address that would break its command line is
 * refused for good before anything is sent (not a bounce: no server saw it).
 */
export function classify(err: unknown): SendError {
  if (err instanceof SendError) return err;
  if (err instanceof SmtpCommandError) return new SendError(err.message, true);
  if (err instanceof SmtpReplyError) {
    if (err.handshake) return new SendError(err.message, false, err.code, false, true);
    if (err.code >= 500) return new SendError(err.message, true, err.code, err.stage === 'rcpt');
    return new SendError(err.message, false, err.code);
  }
  if (err instanceof SmtpNetworkError) {
    if (err.handshake) return new SendError(err.message, false, undefined, false, true);
    if (err.stage !== 'message') return new SendError(err.message, false, 421);
    return new SendError(err.message, false);
  }
  return new SendError((err as Error)?.message ?? 'send failed', false);
}
