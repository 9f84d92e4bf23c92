import type { MailTransport } from './transport.ts';

/**
 * The local mailbox: chosen by the admin (Settings → SMTP, "Send mail through"), and the
 * default while nothing is chosen and neither SMTP nor SES is configured. Every message is
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
      result: 'local mailbox: mail is not delivered',
      details:
        'Mail is kept in the local mailbox (Email → Sent mail) and not delivered. To deliver it, choose SMTP (or Amazon SES, when configured) under "Send mail through" in Settings → SMTP.',
    };
  }

  async close() {}
}
