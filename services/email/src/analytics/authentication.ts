import type { AuthenticationStatus } from '@parley/contracts';
import { checkMailDomain, type DnsCheckOptions, type MailDomainCheck } from '../deliverability/dns.ts';

/** A DNS answer is reused this long (records change rarely; a page load must not wait on DNS). */
export const AUTH_CACHE_MS = 5 * 60_000;
/** A failed lookup is asked again sooner. */
export const AUTH_FAILURE_CACHE_MS = 60_000;
/** The analytics answer waits at most this long for DNS; a slower lookup fills the cache later. */
export const AUTH_WAIT_MS = 1500;
/** What the DNS check itself may take (all lookups in parallel). */
export const AUTH_DNS_BUDGET_MS = 1200;

type Check = (domain: string, selector: string, options: DnsCheckOptions) => Promise<MailDomainCheck>;

/**
 * SPF, DKIM and DMARC of the from-address domain for the deliverability health, through the
 * deliverability DNS check (real queries), cached per domain. It never throws: a lookup that
 * fails or is slow answers `checked: false` with a note, so analytics never fail on DNS.
 */
export class AuthenticationCheck {
  private readonly cache = new Map<string, { until: number; status: AuthenticationStatus }>();
  private readonly running = new Map<string, Promise<AuthenticationStatus>>();

  constructor(
    private readonly opts: {
      selector: string;
      servers?: string[];
      timeoutMs?: number;
      waitMs?: number;
      check?: Check;
      now?: () => number;
    },
  ) {}

  async status(domain: string): Promise<AuthenticationStatus> {
    const selector = this.opts.selector;
    if (!domain)
      return unchecked('', selector, 'No from address is configured, so there is no domain to look up.');
    const now = (this.opts.now ?? Date.now)();
    const hit = this.cache.get(domain);
    if (hit && hit.until > now) return hit.status;
    let lookup = this.running.get(domain);
    if (!lookup) {
      lookup = this.lookup(domain).finally(() => this.running.delete(domain));
      this.running.set(domain, lookup);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<AuthenticationStatus>((resolve) => {
      timer = setTimeout(
        () =>
          resolve(
            unchecked(
              domain,
              selector,
              'The DNS lookup is taking longer than usual; the next refresh shows it.',
            ),
          ),
        this.opts.waitMs ?? AUTH_WAIT_MS,
      );
      timer.unref?.();
    });
    try {
      return await Promise.race([lookup, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async lookup(domain: string): Promise<AuthenticationStatus> {
    const selector = this.opts.selector;
    const check = this.opts.check ?? checkMailDomain;
    let status: AuthenticationStatus;
    try {
      const r = await check(domain, selector, {
        ...(this.opts.servers?.length ? { servers: this.opts.servers } : {}),
        // The whole check's budget: it answers (with what it has) before the analytics stop waiting.
        timeoutMs: this.opts.timeoutMs ?? AUTH_DNS_BUDGET_MS,
      });
      // A failed SPF, DKIM or DMARC lookup makes its false flag "unknown", not "absent" (MX
      // is not part of the health).
      const failed = Object.entries(r.errors).filter(([flag]) => flag !== 'mx');
      status = {
        spf: r.spf,
        dkim: r.dkim,
        dmarc: r.dmarc,
        domain,
        selector,
        checked: failed.length === 0,
        checkedAt: r.checkedAt,
        note: failed.length
          ? `Some lookups failed (${failed.map(([flag, why]) => `${flag.toUpperCase()}: ${why}`).join('; ')}); a false flag may only mean DNS did not answer.`
          : null,
      };
    } catch (err) {
      status = unchecked(domain, selector, `The DNS lookup failed: ${(err as Error).message}`);
    }
    const now = (this.opts.now ?? Date.now)();
    this.cache.set(domain, {
      until: now + (status.checked ? AUTH_CACHE_MS : AUTH_FAILURE_CACHE_MS),
      status,
    });
    return status;
  }
}

function unchecked(domain: string, selector: string, note: string): AuthenticationStatus {
  return { spf: false, dkim: false, dmarc: false, domain, selector, checked: false, checkedAt: null, note };
}
