import type { DiagnosticResult } from '@parley/contracts';

/**
 * One transport interface, three implementations (SMTP, Amazon SES, the local mailbox). A
 * transport sends a message that is already composed (the stored MIME bytes) and says how a
 * failure should be treated: temporary failures are retried by the consumer's retry policy,
 * permanent ones are recorded against the recipient and never retried.
 */

export type TransportName = 'local' | 'smtp' | 'ses';

export interface Envelope {
  from: string;
  to: string[];
}

export interface SendResult {
  /** The provider's id of the message (SES MessageId; the SMTP server's queue answer). */
  providerMessageId: string | null;
  response: string;
}

export class SendError extends Error {
  override name = 'SendError';
  constructor(
    message: string,
    /** permanent: the recipient or message was refused for good (5xx, MessageRejected). */
    readonly permanent: boolean,
    readonly responseCode?: number,
    /** The refusal is about the recipient (a 5xx to RCPT TO): the address bounced. */
    readonly recipientRefused = false,
    /**
     * No connection to the mail server could be made (connect, DNS, TLS or AUTH failed): the
     * message certainly was not handed over. Campaign sends start a cooling period on these.
     */
    readonly connection = false,
  ) {
    super(message);
  }
}

export interface MailTransport {
  readonly name: TransportName;
  /** Where mail goes, for people (host:port, region, "local mailbox"). */
  readonly description: string;
  send(envelope: Envelope, raw: Buffer): Promise<SendResult>;
  /** A real check of the transport (connect + EHLO/AUTH, GetSendQuota, ...). */
  verify(): Promise<Omit<DiagnosticResult, 'duration'>>;
  close(): Promise<void>;
}
