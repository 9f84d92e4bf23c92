import type { EmailConfig } from '../../config.ts';
import type { SettingsCopy } from '../delivery/settings-copy.repository.ts';
import { type TransportSpec, transportSpec } from '../delivery/transports/index.ts';
import { checkMailDomain, type DnsCheckOptions, type MailDomainCheck } from './dns.ts';
import type { SendingSetup } from './domain/dns-advice.ts';

/** DKIM_SELECTOR when none is configured: the selector most self-hosted signers (OpenDKIM, cPanel) use. */
export const DEFAULT_DKIM_SELECTOR = 'default';

/** A check is reused by the Deliverability tab this long (a failed one for less), so the tab stays fast. */
const FRESH_MS = 10 * 60_000;
const FRESH_FAILED_MS = 60_000;

/**
 * The DNS checks of sender domains, with a short-lived cache per domain: the explicit check
 * (Check DNS) always asks the name servers and refreshes the cache; the Deliverability tab's
 * recommendations and the analytics' authentication status reuse a fresh result. Concurrent
 * checks of one domain share one lookup.
 */
export class SenderDomainChecks {
  private readonly cache = new Map<string, { at: number; check: MailDomainCheck }>();
  private readonly running = new Map<string, Promise<MailDomainCheck>>();

  constructor(
    private readonly opts: {
      config: EmailConfig;
      settings: SettingsCopy;
      servers: string[] | undefined;
      timeoutMs: number;
      /** The DNS check (tests give their own). */
      lookup?: (domain: string, selector: string, options: DnsCheckOptions) => Promise<MailDomainCheck>;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  get selector(): string {
    return this.opts.config.DKIM_SELECTOR ?? DEFAULT_DKIM_SELECTOR;
  }

  /** Asks the name servers now. */
  check(domain: string): Promise<MailDomainCheck> {
    const key = domain.toLowerCase();
    const running = this.running.get(key);
    if (running) return running;
    const p = (this.opts.lookup ?? checkMailDomain)(key, this.selector, {
      ...(this.opts.servers ? { servers: this.opts.servers } : {}),
      timeoutMs: this.opts.timeoutMs,
    })
      .then((check) => {
        this.cache.set(key, { at: this.now(), check });
        if (this.cache.size > 100) this.cache.delete(this.cache.keys().next().value as string);
        return check;
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, p);
    return p;
  }

  /** A recent result when there is one, else a new check. */
  async recent(domain: string): Promise<MailDomainCheck> {
    const hit = this.cache.get(domain.toLowerCase());
    const failed = hit && Object.keys(hit.check.errors).length > 0;
    if (hit && this.now() - hit.at < (failed ? FRESH_FAILED_MS : FRESH_MS)) return hit.check;
    return this.check(domain);
  }

  /** How mail leaves now and the DKIM key the service signs with (for the advice). */
  async sendingSetup(): Promise<SendingSetup> {
    const c = this.opts.config;
    let spec: TransportSpec | null = null;
    try {
      spec = transportSpec(c, await this.opts.settings.view());
    } catch {
      // The chosen transport cannot be used now: no advice about where mail leaves.
    }
    return {
      transport:
        spec?.kind === 'smtp'
          ? { kind: 'smtp', host: spec.host }
          : spec?.kind === 'ses'
            ? { kind: 'ses' }
            : { kind: 'local' },
      dkim:
        c.DKIM_DOMAIN && c.DKIM_SELECTOR && c.DKIM_PRIVATE_KEY
          ? { domain: c.DKIM_DOMAIN, selector: c.DKIM_SELECTOR, privateKey: c.DKIM_PRIVATE_KEY }
          : null,
    };
  }
}
