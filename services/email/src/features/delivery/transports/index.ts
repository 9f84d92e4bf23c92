import { MAIL_TRANSPORTS, type MailTransportName, type MailTransportStatus } from '@parley/contracts';
import { HttpError } from '@parley/kit';
import type { EmailConfig } from '../../../config.ts';
import type { SettingsCopy, SettingsView } from '../settings-copy.repository.ts';
import { LocalMailbox } from './local.ts';
import { SmtpTransport } from './smtp.ts';
import type { MailTransport } from './transport.ts';

/** Where mail goes by the saved settings, before a transport is built. */
export type TransportSpec =
  | { kind: 'local' }
  | {
      kind: 'smtp';
      host: string;
      port: number;
      username: string | undefined;
      password: string | undefined;
    }
  | { kind: 'ses'; region: string; endpoint: string | undefined; id: string | undefined };

/** The admin's choice (`mail_transport`), or null while none is saved (or it is unreadable). */
export function chosenTransport(view: SettingsView): MailTransportName | null {
  const v = view.get('mail_transport');
  return (MAIL_TRANSPORTS as readonly string[]).includes(v ?? '') ? (v as MailTransportName) : null;
}

/** Why the chosen transport cannot be used now, in words for the admin; null when it can. */
export function transportProblem(config: EmailConfig, view: SettingsView, choice: MailTransportName | null) {
  if (choice === 'ses' && !config.SES_REGION)
    return 'Amazon SES is chosen, but the email service has no SES configuration (SES_REGION): choose the local mailbox or SMTP';
  if (choice === 'smtp' && !view.get('smtp_host'))
    return 'SMTP is chosen, but no SMTP host is saved: save one, or choose the local mailbox';
  return null;
}

/**
 * The transport the settings name: the admin's `mail_transport` (local mailbox, SMTP with the
 * saved smtp_host, smtp_port, smtp_username, smtp_password, or Amazon SES as the operator
 * configured it); with no choice saved, the earlier rule: SES when SES_REGION is configured,
 * else SMTP when a host is saved, else the local mailbox. A choice that cannot be honoured
 * (SES without its configuration) is a 503 naming why: mail waits rather than going elsewhere.
 */
export function transportSpec(config: EmailConfig, view: SettingsView): TransportSpec {
  const choice = chosenTransport(view);
  const problem = transportProblem(config, view, choice);
  if (problem) throw new HttpError(503, problem);
  const host = view.get('smtp_host');
  const kind: MailTransportName = choice ?? (config.SES_REGION ? 'ses' : host ? 'smtp' : 'local');
  if (kind === 'ses')
    return {
      kind,
      region: config.SES_REGION as string,
      endpoint: config.SES_ENDPOINT,
      id: config.SES_ACCESS_KEY_ID,
    };
  if (kind === 'smtp')
    return {
      kind,
      host: host as string,
      port: Number(view.get('smtp_port') ?? 587) || 587,
      username: view.get('smtp_username'),
      password: view.get('smtp_password'),
    };
  return { kind: 'local' };
}

/**
 * Builds and keeps the transport transportSpec names. The choice follows the settings copy:
 * when it changes (another transport, other SMTP settings), the next send builds a new pooled
 * transport and closes the old one.
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
    const spec = transportSpec(c, view);
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

  /**
   * Where mail goes as the settings are saved now, what the admin chose and what can be
   * chosen (the settings screen and Sent mail). Never throws for a choice that cannot be used:
   * it says why (`problem`).
   */
  async status(): Promise<MailTransportStatus> {
    const view = await this.settings.fresh();
    const c = this.config;
    const chosen = chosenTransport(view);
    const problem = transportProblem(c, view, chosen);
    const transport = problem ? null : await this.forView(view);
    return {
      chosen,
      current: transport?.name ?? null,
      description: transport?.description ?? (problem as string),
      problem,
      smtp: {
        available: Boolean(view.get('smtp_host')),
        host: view.get('smtp_host') ?? null,
        port: Number(view.get('smtp_port') ?? 587) || 587,
      },
      ses: { available: Boolean(c.SES_REGION), region: c.SES_REGION ?? null },
    };
  }

  /** What is wrong with a proposed `mail_transport` for this service (the settings save's check). */
  checkChoice(value: string): string | null {
    if (!(MAIL_TRANSPORTS as readonly string[]).includes(value)) return null;
    return value === 'ses' && !this.config.SES_REGION
      ? 'Amazon SES is not configured for the email service (its operator sets SES_REGION): choose the local mailbox or SMTP'
      : null;
  }

  async close(): Promise<void> {
    await this.current?.transport.close();
    this.current = null;
  }
}

export type { MailTransport } from './transport.ts';
export { SendError } from './transport.ts';
