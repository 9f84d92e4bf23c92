import type { EmailConfig } from '../config.ts';
import type { SettingsCopy, SettingsView } from '../repo/settings-copy.repository.ts';
import { LocalMailbox } from './local.ts';
import { SmtpTransport } from './smtp.ts';
import type { MailTransport } from './transport.ts';

/**
 * Chooses the transport: Amazon SES when SES_REGION is configured; else SMTP when the
 * settings name an SMTP host (smtp_host, smtp_port, smtp_username, smtp_password); else the
 * local mailbox. The choice follows the settings copy: when the SMTP settings change, the
 * next send builds a new pooled transport and closes the old one.
 */
export class Transports {
  private current: { fingerprint: string; transport: MailTransport } | null = null;
  private building: Promise<MailTransport> | null = null;

  constructor(
    private readonly config: EmailConfig,
    private readonly settings: SettingsCopy,
  ) {}

  /**
   * The transport the settings name. `fresh` reads them from the database (a test email or
   * diagnostics right after a save); the send paths use the cached copy (at most 2 s old).
   */
  async get(opts: { fresh?: boolean } = {}): Promise<MailTransport> {
    return this.forView(opts.fresh ? await this.settings.fresh() : await this.settings.view());
  }

  private async forView(view: SettingsView): Promise<MailTransport> {
    const c = this.config;
    const smtpHost = view.get('smtp_host');
    const spec = c.SES_REGION
      ? { kind: 'ses' as const, region: c.SES_REGION, endpoint: c.SES_ENDPOINT, id: c.SES_ACCESS_KEY_ID }
      : smtpHost
        ? {
            kind: 'smtp' as const,
            host: smtpHost,
            port: Number(view.get('smtp_port') ?? 587) || 587,
            username: view.get('smtp_username'),
            password: view.get('smtp_password'),
          }
        : { kind: 'local' as const };
    const fingerprint = JSON.stringify(spec);
    const dkim =
      c.DKIM_DOMAIN && c.DKIM_SELECTOR && c.DKIM_PRIVATE_KEY
        ? {
            domainName: c.DKIM_DOMAIN,
            keySelector: c.DKIM_SELECTOR,
            privateKey: c.DKIM_PRIVATE_KEY.replace(/\\n/g, '\n'),
          }
        : undefined;
    if (this.current?.fingerprint === fingerprint) return this.current.transport;
    // Two sends that notice a change at once share one new transport. One being built for
    // other settings (a cached read racing a fresh one) is waited for, then this one is built.
    if (this.building) {
      await this.building.catch(() => {});
      return this.forView(view);
    }
    this.building = (async () => {
      const transport: MailTransport =
        spec.kind === 'ses'
          ? // The AWS SDK loads only when SES is the transport (it costs start-up time otherwise).
            new (await import('./ses.ts')).SesTransport({
              region: spec.region,
              endpoint: spec.endpoint,
              accessKeyId: c.SES_ACCESS_KEY_ID,
              secretAccessKey: c.SES_SECRET_ACCESS_KEY,
              configurationSet: c.SES_CONFIGURATION_SET,
              ...(dkim ? { dkim } : {}),
            })
          : spec.kind === 'smtp'
            ? new SmtpTransport({
                host: spec.host,
                port: spec.port,
                username: spec.username,
                password: spec.password,
                ...(c.CAMPAIGN_SMTP_CONNECTIONS ? { maxConnections: c.CAMPAIGN_SMTP_CONNECTIONS } : {}),
                ...(dkim ? { dkim } : {}),
              })
            : new LocalMailbox();
      const old = this.current?.transport;
      this.current = { fingerprint, transport };
      // The old pool finishes what it is sending, then closes.
      if (old) void old.close();
      return transport;
    })().finally(() => {
      this.building = null;
    });
    return this.building;
  }

  async close(): Promise<void> {
    await this.current?.transport.close();
    this.current = null;
  }
}

export type { MailTransport } from './transport.ts';
export { SendError } from './transport.ts';
