import { Resolver } from 'node:dns/promises';

/** The four records of the spec's DNS check. */
export type MailDnsFlag = 'spf' | 'dkim' | 'dmarc' | 'mx';

/** What a mail domain publishes: the four flags of the spec's DNS check, with the records found. */
export interface MailDomainCheck {
  domain: string;
  /** DKIM selector looked up (`{selector}._domainkey.{domain}`). */
  selector: string;
  spf: boolean;
  dkim: boolean;
  dmarc: boolean;
  mx: boolean;
  /** The record that counts for each flag (null / empty when none does). */
  records: {
    spf: string | null;
    dkim: string | null;
    dmarc: string | null;
    mx: string[];
  };
  /** Every candidate found, including ones that do not count (a second SPF record, a revoked key). */
  found: { spf: string[]; dkim: string[]; dmarc: string[] };
  /** Where the DMARC record that applies was found: the domain itself or a parent (DMARCbis tree walk). */
  dmarcDomain: string | null;
  /** Why a record that is published does not count, by flag. */
  invalid: Partial<Record<MailDnsFlag, string>>;
  /**
   * Lookups that failed for another reason than "no such record" (timeouts, SERVFAIL, an
   * unreachable name server), by flag, as a sentence naming the query; a flag with an error
   * is false because nothing could be told, not because the record is absent.
   */
  errors: Partial<Record<MailDnsFlag | 'domain', string>>;
  /** The name servers asked ('host:port'). */
  nameServers: string[];
  durationMs: number;
  checkedAt: string;
}

export interface DnsCheckOptions {
  /** Name servers as IP `host` or `host:port` (`[v6]:port`); default: the system's resolv.conf. */
  servers?: string[];
  /**
   * The longest the whole check may take, in ms (default 3000). The lookups run in parallel;
   * whatever has not answered by then is cancelled and reported in `errors`.
   */
  timeoutMs?: number;
}

export const DEFAULT_DNS_TIMEOUT_MS = 3000;

/** Answers that mean "the record is not there", not "the lookup failed". */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const DOMAIN_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);

/** A host name that can be looked up: letters, digits, hyphens and underscores in labels of ≤ 63. */
export const isDomainName = (s: string): boolean => DOMAIN_NAME.test(s.toLowerCase());

function describe(code: string, budgetMs: number): string {
  switch (code) {
    case 'ECANCELLED':
    case 'ETIMEOUT':
      return `no answer within ${budgetMs} ms`;
    case 'ESERVFAIL':
      return 'the name server failed to answer (SERVFAIL)';
    case 'EREFUSED':
      return 'the name server refused the query (REFUSED)';
    case 'ECONNREFUSED':
      return 'the name server could not be reached (connection refused)';
    case 'EBADRESP':
    case 'EFORMERR':
      return `the name server's answer could not be read (${code})`;
    default:
      return `lookup failed (${code})`;
  }
}

/** Tags of a DKIM key record (`v=DKIM1; k=rsa; p=…`), names lower-cased, spaces removed from values. */
function dkimTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return tags;
}

/** The domain and its parents down to two labels, nearest first (at most 5 names). */
function dmarcCandidates(domain: string): string[] {
  const labels = domain.split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2 && out.length < 5; i++) out.push(labels.slice(i).join('.'));
  return out.length ? out : [domain];
}

/**
 * Looks up SPF, DKIM, DMARC and MX of a mail domain with real DNS queries, in parallel, within
 * one time budget. A record that is absent answers false; a lookup that failed also answers
 * false and is named in `errors`, so "not published" and "could not tell" are not confused.
 *
 * - SPF: exactly one TXT record starting `v=spf1` at the domain (two are a permerror, RFC 7208 §4.5).
 * - DKIM: a TXT record at `{selector}._domainkey.{domain}` with a non-empty public key `p=`
 *   (an empty one is a revoked key, RFC 6376 §3.6.1); `v=`, when present, must be DKIM1.
 * - DMARC: exactly one `v=DMARC1` record at `_dmarc.{domain}`, else at the nearest parent that
 *   has one (DMARCbis' tree walk: a subdomain is covered by its organisation's policy).
 * - MX: at least one MX host; a null MX (`.`, RFC 7505) says the domain takes no mail.
 */
export async function checkMailDomain(
  domain: string,
  selector: string,
  options: DnsCheckOptions = {},
): Promise<MailDomainCheck> {
  const started = Date.now();
  const name = domain.trim().toLowerCase().replace(/\.$/, '');
  const sel = selector.trim().toLowerCase();
  const budget = Math.max(50, options.timeoutMs ?? DEFAULT_DNS_TIMEOUT_MS);
  // c-ares doubles its timeout on each retry: two tries of a third each fit the budget; the
  // timer below cancels whatever is still waiting (several name servers, slow sockets).
  const resolver = new Resolver({ timeout: Math.max(25, Math.floor(budget / 3)), tries: 2 });
  if (options.servers?.length) resolver.setServers(options.servers);
  const result: MailDomainCheck = {
    domain: name,
    selector: sel,
    spf: false,
    dkim: false,
    dmarc: false,
    mx: false,
    records: { spf: null, dkim: null, dmarc: null, mx: [] },
    found: { spf: [], dkim: [], dmarc: [] },
    dmarcDomain: null,
    invalid: {},
    errors: {},
    nameServers: resolver.getServers(),
    durationMs: 0,
    checkedAt: new Date().toISOString(),
  };
  if (!isDomainName(name)) {
    result.errors.domain = `"${domain}" is not a domain name that can be looked up`;
    return result;
  }

  type Answer<T> = { ok: true; value: T } | { ok: false; absent: boolean; error: string };
  const attempt = async <T>(query: string, fn: () => Promise<T>): Promise<Answer<T>> => {
    try {
      return { ok: true, value: await fn() };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'ERROR';
      return ABSENT.has(code)
        ? { ok: false, absent: true, error: '' }
        : { ok: false, absent: false, error: `${query}: ${describe(code, budget)}` };
    }
  };
  const txt = (host: string) =>
    attempt(`TXT ${host}`, async () => (await resolver.resolveTxt(host)).map((chunks) => chunks.join('')));
  const records = (a: Answer<string[]>) => (a.ok ? a.value : []);

  const timer = setTimeout(() => resolver.cancel(), budget);
  try {
    const dmarcNames = dmarcCandidates(name);
    const validSelector = isDomainName(sel);
    const [root, dkimTxt, mx, ...dmarcTxt] = await Promise.all([
      txt(name),
      validSelector ? txt(`${sel}._domainkey.${name}`) : Promise.resolve(null),
      attempt(`MX ${name}`, () => resolver.resolveMx(name)),
      ...dmarcNames.map((d) => txt(`_dmarc.${d}`)),
    ]);

    // SPF
    if (!root.ok && !root.absent) result.errors.spf = root.error;
    const spf = records(root).filter((r) => /^v=spf1(\s|$)/i.test(r.trim()));
    result.found.spf = spf;
    if (spf.length === 1) result.records.spf = spf[0] ?? null;
    else if (spf.length > 1)
      result.invalid.spf = `${spf.length} SPF records are published; receivers treat that as an error (RFC 7208 §4.5) — merge them into one`;

    // DKIM
    if (!dkimTxt) result.errors.dkim = `"${selector}" is not a valid DKIM selector`;
    else {
      if (!dkimTxt.ok && !dkimTxt.absent) result.errors.dkim = dkimTxt.error;
      const keys = records(dkimTxt).filter((r) => {
        const tags = dkimTags(r);
        return tags.has('p') || /^v=DKIM1/i.test(r.trim());
      });
      result.found.dkim = keys;
      const usable = keys.find((r) => {
        const tags = dkimTags(r);
        const v = tags.get('v');
        return Boolean(tags.get('p')) && (v === undefined || v.toUpperCase() === 'DKIM1');
      });
      if (usable) result.records.dkim = usable;
      else if (keys.length)
        result.invalid.dkim = keys.some((r) => dkimTags(r).get('p') === '')
          ? 'the published key is revoked (empty p=)'
          : 'the record carries no usable public key (p=)';
    }

    // DMARC: the nearest name with a record; a lookup that failed before it means "cannot tell".
    for (let i = 0; i < dmarcNames.length; i++) {
      const answer = dmarcTxt[i] as Answer<string[]>;
      if (!answer.ok && !answer.absent) {
        result.errors.dmarc = answer.error;
        break;
      }
      const found = records(answer).filter((r) => /^v=DMARC1\s*(;|$)/i.test(r.trim()));
      if (!found.length) continue;
      result.found.dmarc = found;
      result.dmarcDomain = dmarcNames[i] ?? null;
      if (found.length === 1) result.records.dmarc = found[0] ?? null;
      else
        result.invalid.dmarc = `${found.length} DMARC records are published at _dmarc.${dmarcNames[i]}; receivers then apply none (RFC 7489 §6.6.3) — keep one`;
      break;
    }

    // MX
    if (!mx.ok && !mx.absent) result.errors.mx = mx.error;
    const hosts = mx.ok ? mx.value : [];
    result.records.mx = hosts
      .filter((m) => m.exchange && m.exchange !== '.')
      .sort((a, b) => a.priority - b.priority)
      .map((m) => m.exchange);
    if (hosts.length && !result.records.mx.length)
      result.invalid.mx =
        'a null MX record says the domain accepts no mail (RFC 7505): replies and bounces cannot reach it';
  } finally {
    clearTimeout(timer);
  }

  result.spf = result.records.spf !== null;
  result.dkim = result.records.dkim !== null;
  result.dmarc = result.records.dmarc !== null;
  result.mx = result.records.mx.length > 0;
  result.durationMs = Date.now() - started;
  return result;
}

/** The domain part of an address, lower-cased ('' when there is none). */
export const domainOf = (address: string): string => {
  const at = address.lastIndexOf('@');
  return at < 0
    ? ''
    : address
        .slice(at + 1)
        .trim()
        .toLowerCase();
};

/**
 * Name servers from a comma separated list (DNS_SERVERS): IPv4 or IPv6 addresses, optionally
 * with a port (`127.0.0.1:5353`, `[::1]:5353`). Throws with the offending entry otherwise
 * (node's resolver takes addresses only, not host names).
 */
export function parseNameServers(list: string | undefined): string[] | undefined {
  const entries = (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!entries.length) return undefined;
  for (const e of entries) {
    try {
      new Resolver().setServers([e]);
    } catch {
      throw new Error(`DNS_SERVERS: "${e}" is not an IP address (optionally with :port)`);
    }
  }
  return entries;
}
