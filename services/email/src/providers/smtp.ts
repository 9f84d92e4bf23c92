import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import { type Envelope, type MailTransport, SendError, type SendResult } from './transport.ts';

export interface SmtpOptions {
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** Port 465 speaks TLS from the first byte; others upgrade with STARTTLS when offered. */
  secure?: boolean;
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  /** Tests against a local server without TLS. */
  ignoreTLS?: boolean;
  maxConnections?: number;
}

/** Errors nodemailer reports that say nothing about the recipient: try again later. */
const TEMPORARY_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EAUTH',
  'EPROTOCOL',
]);

/** SMTP through nodemailer's pooled transport (kept open between messages). */
export class SmtpTransport implements MailTransport {
  readonly name = 'smtp' as const;
  readonly description: string;
  private readonly transporter: Transporter<SMTPPool.SentMessageInfo>;

  constructor(opts: SmtpOptions) {
    this.description = `SMTP ${opts.host}:${opts.port}`;
    this.transporter = nodemailer.createTransport({
      pool: true,
      host: opts.host,
      port: opts.port,
      secure: opts.secure ?? opts.port === 465,
      maxConnections: opts.maxConnections ?? 5,
      maxMessages: 100,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      ...(opts.ignoreTLS ? { ignoreTLS: true } : {}),
      ...(opts.username ? { auth: { user: opts.username, pass: opts.password ?? '' } } : {}),
      ...(opts.dkim ? { dkim: opts.dkim } : {}),
      // Never log message content or credentials.
      logger: false,
      debug: false,
    });
  }

  async send(envelope: Envelope, raw: Buffer): Promise<SendResult> {
    try {
      const info: SMTPPool.SentMessageInfo = await this.transporter.sendMail({
        envelope: { from: envelope.from, to: envelope.to } as never,
        raw,
      });
      if (info.rejected?.length) {
        throw new SendError(
          `recipient refused: ${info.rejectedErrors?.[0]?.message ?? 'rejected'}`,
          true,
          550,
        );
      }
      return { providerMessageId: info.messageId ?? null, response: info.response ?? '' };
    } catch (err) {
      throw classify(err);
    }
  }

  async verify() {
    await this.transporter.verify();
    return {
      status: 'success' as const,
      result: 'Connected',
      details: `${this.description} accepted the connection (EHLO${this.transporter.options && (this.transporter.options as { auth?: unknown }).auth ? ' and AUTH' : ''})`,
    };
  }

  async close() {
    this.transporter.close();
  }
}

/** A permanent 5xx refusal is the DSN of this send; everything else is retried. */
export function classify(err: unknown): SendError {
  if (err instanceof SendError) return err;
  const e = err as {
    message?: string;
    code?: string;
    responseCode?: number;
    response?: string;
    command?: string;
  };
  const code = e.responseCode;
  const message = (e.response || e.message || 'send failed').slice(0, 500);
  if (typeof code === 'number' && code >= 500 && code < 600 && !TEMPORARY_CODES.has(e.code ?? ''))
    // EENVELOPE / RCPT TO: the server refused this recipient; else it refused the message.
    return new SendError(message, true, code, e.code === 'EENVELOPE' || /RCPT/i.test(e.command ?? ''));
  const connection = ['ECONNECTION', 'EDNS', 'ETLS', 'EAUTH'].includes(e.code ?? '') || e.command === 'CONN';
  return new SendError(message, false, code, false, connection);
}
