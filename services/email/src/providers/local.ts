import type { MailTransport } from './transport.ts';

/**
 * The local mailbox: the default when neither SMTP nor SES is configured. Every message is
 * already stored as real MIME in mail_messages before any transport runs, so "sending" here
 * is accepting it: the admin's Sent mail view shows it (HTML, text, headers, raw), like
 * Mailpit. Nothing leaves the machine.
 */
export class LocalMailbox implements MailTransport {
  readonly name = 'local' as const;
  readonly description = 'mail is kept here and not delivered';

  async send() {
    return { providerMessageId: null, response: 'stored in the local mailbox' };
  }

  async verify() {
    return {
      status: 'warning' as const,
      result: 'local transport, no SMTP configured',
      details:
        'Mail is kept in the local mailbox (Email → Sent mail) and not delivered. Configure SMTP in Settings → SMTP, or SES, to deliver it.',
    };
  }

  async close() {}
}
