import { GetSendQuotaCommand, SESClient, SendRawEmailCommand } from '@aws-sdk/client-ses';
import { type DkimKey, dkimSigner, type Signer } from './dkim.ts';
import { type Envelope, type MailTransport, SendError, type SendResult } from './transport.ts';

export interface SesOptions {
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  configurationSet?: string;
  /**
   * Our own DKIM signature besides SES's Easy DKIM (whose signed fields are SES's choice): it
   * covers List-Unsubscribe-Post, leaving out Message-ID and Date, which SES may rewrite.
   */
  dkim?: DkimKey;
}

/** SES errors about the message or its addresses: retrying cannot help. */
const PERMANENT = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'ConfigurationSetDoesNotExistException',
  'ConfigurationSetSendingPausedException',
  'AccountSendingPausedException',
  'InvalidParameterValue',
]);

/** Amazon SES v1 SendRawEmail with the stored MIME bytes. */
export class SesTransport implements MailTransport {
  readonly name = 'ses' as const;
  readonly description: string;
  private readonly client: SESClient;
  private readonly signer: Signer | null;

  constructor(private readonly opts: SesOptions) {
    this.description = `Amazon SES ${opts.region}${opts.endpoint ? ` (${opts.endpoint})` : ''}`;
    this.client = new SESClient({
      region: opts.region,
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      ...(opts.accessKeyId && opts.secretAccessKey
        ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
        : {}),
      maxAttempts: 2,
    });
    this.signer = opts.dkim ? dkimSigner(opts.dkim, ['Message-ID', 'Date']) : null;
  }

  async send(envelope: Envelope, raw: Buffer): Promise<SendResult> {
    const data = this.signer ? await this.signer(raw) : raw;
    try {
      const out = await this.client.send(
        new SendRawEmailCommand({
          RawMessage: { Data: data },
          Source: envelope.from,
          Destinations: envelope.to,
          ...(this.opts.configurationSet ? { ConfigurationSetName: this.opts.configurationSet } : {}),
        }),
      );
      return { providerMessageId: out.MessageId ?? null, response: `SES accepted ${out.MessageId ?? ''}` };
    } catch (err) {
      const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      // Only refusals of the message itself are permanent: credentials, throttling and
      // outages are fixed by time or by an operator, and the send is retried.
      const permanent = PERMANENT.has(e.name ?? '');
      throw new SendError(`${e.name ?? 'SES error'}: ${e.message ?? ''}`.slice(0, 500), permanent, status);
    }
  }

  async verify() {
    const q = await this.client.send(new GetSendQuotaCommand({}));
    return {
      status: 'success' as const,
      result: 'Connected',
      details: `${this.description}: sent ${q.SentLast24Hours ?? 0} of ${q.Max24HourSend ?? 0} in the last 24 h, at most ${q.MaxSendRate ?? 0}/s`,
    };
  }

  async close() {
    this.client.destroy();
  }
}
