import type { AuthenticationStatus } from '@parley/contracts';
import type { MailDomainCheck } from '../deliverability/dns.ts';
import type { SenderDomainChecks } from '../deliverability/domain-checks.service.ts';

/** The analytics answer waits at most this long for DNS; a slower lookup fills the cache later. */
export const AUTH_WAIT_MS = 1500;

/**
 * SPF, DKIM and DMARC of the from-address domain for the deliverability health, from the
 * sender-domain checks the Deliverability tab uses (one cache, one lookup per domain at a
 * time). It never throws: a lookup that fails or is slow answers `checked: false` with a
 * note, so analytics never fail on DNS.
 */
export class AuthenticationCheck {
  constructor(
    private readonly opts: {
      domains: Pick<SenderDomainChecks, 'selector' | 'recent'>;
      waitMs?: number;
    },
  ) {}

  async status(domain: string): Promise<AuthenticationStatus> {
    const selector = this.opts.domains.selector;
    if (!domain)
      return unchecked('', selector, 'No from address is configured, so there is no domain to look up.');
    const lookup = this.opts.domains.recent(domain).then(
      (check) => toStatus(domain, selector, check),
      (err: Error) => unchecked(domain, selector, `The DNS lookup failed: ${err.message}`),
    );
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
}

function toStatus(domain: string, selector: string, r: MailDomainCheck): AuthenticationStatus {
  // A failed SPF, DKIM or DMARC lookup makes its false flag "unknown", not "absent" (MX is not
  // part of the health).
  const failed = Object.entries(r.errors).filter(([flag]) => flag !== 'mx');
  return {
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
}

function unchecked(domain: string, selector: string, note: string): AuthenticationStatus {
  return { spf: false, dkim: false, dmarc: false, domain, selector, checked: false, checkedAt: null, note };
}
