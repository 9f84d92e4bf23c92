import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { addressVerdict, endpointKey } from '../domain/address-policy.ts';

/**
 * An SSRF-safe GET for the brand crawl (OWASP SSRF prevention cheat sheet):
 * - http and https only, no credentials in the URL, ports 80, 443, 8080 and 8443 only;
 * - the host is resolved once and every address it has must be public unicast (see
 *   address-policy.ts); the connection is pinned to the checked address through the agent's
 *   `connect.lookup`, so a second DNS answer (rebinding) is never used;
 * - redirects are followed by hand, at most 5, each target checked the same way;
 * - bodies up to 2 MB, HTML or CSS content types only, and one deadline for everything.
 * `allowPrivate` (test only) lets chosen `ip:port` endpoints through the address check.
 */

export type Resolver = (hostname: string) => Promise<string[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address of the name. */
export const systemResolver: Resolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export type DocumentKind = 'html' | 'css';

const CONTENT_TYPES: Record<DocumentKind, readonly string[]> = {
  html: ['text/html', 'application/xhtml+xml'],
  css: ['text/css'],
};
const ALLOWED_PORTS = new Set([80, 443, 8080, 8443]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Why a crawl stopped: `refused` = the policy forbids it (400); `failed` = the site did not serve it (422). */
export class CrawlError extends Error {
  override name = 'CrawlError';
  constructor(
    readonly reason: 'refused' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  resolve?: Resolver;
  /** Endpoint keys (`ip:port`) exempt from the address check. Test only. */
  allowPrivate?: ReadonlySet<string>;
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
}

export interface FetchedDocument {
  /** The URL that answered, after redirects. */
  url: string;
  contentType: string;
  text: string;
}

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * One crawl's fetcher: names resolved by it stay pinned to their checked address for its
 * lifetime (one crawl), so every request of a crawl to a host goes to the address checked once.
 */
export class SafeFetcher {
  private readonly resolve: Resolver;
  private readonly allowPrivate: ReadonlySet<string>;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly userAgent: string;
  /** hostname → the one checked address its connections go to. */
  private readonly pinned = new Map<string, { address: string; family: 4 | 6 }>();
  private readonly resolving = new Map<string, Promise<void>>();
  private readonly agent: Agent;

  constructor(opts: SafeFetchOptions = {}) {
    this.resolve = opts.resolve ?? systemResolver;
    this.allowPrivate = opts.allowPrivate ?? new Set();
    this.maxBytes = opts.maxBytes ?? MAX_BODY_BYTES;
    this.maxRedirects = opts.maxRedirects ?? 5;
    this.userAgent = opts.userAgent ?? 'ParleyBrandCrawler/1.0 (+brand analysis)';
    this.agent = new Agent({
      connections: 4,
      connect: {
        // Never a DNS query here: only the address checked for this host, or nothing.
        lookup: (hostname, options, callback) => {
          const pin = this.pinned.get(hostname.toLowerCase());
          const cb = callback as unknown as (
            err: Error | null,
            address: string | LookupAddress[],
            family?: number,
          ) => void;
          if (!pin) return cb(new Error(`${hostname} was not checked by the crawl policy`), '', 0);
          if ((options as { all?: boolean }).all)
            return cb(null, [{ address: pin.address, family: pin.family }]);
          return cb(null, pin.address, pin.family);
        },
      },
    });
  }

  /** GETs `url` (following checked redirects) and returns its text; throws CrawlError. */
  async get(url: string, kind: DocumentKind, signal: AbortSignal): Promise<FetchedDocument> {
    let current = await this.check(url);
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(current, {
          method: 'GET',
          dispatcher: this.agent,
          signal,
          headers: {
            'user-agent': this.userAgent,
            accept: kind === 'html' ? 'text/html,application/xhtml+xml;q=0.9' : 'text/css',
          },
        });
      } catch (err) {
        throw this.failure(current, err, signal);
      }
      // A body we stop reading may still report an error (an abort); nobody waits for it.
      res.body.on('error', () => {});
      if (REDIRECTS.has(res.statusCode)) {
        res.body.destroy();
        const location = res.headers.location;
        const target = Array.isArray(location) ? location[0] : location;
        if (!target) throw new CrawlError('failed', `${current.href} redirected without a Location`);
        if (hop >= this.maxRedirects)
          throw new CrawlError('failed', `${url} redirected more than ${this.maxRedirects} times`);
        let next: URL;
        try {
          next = new URL(target, current);
        } catch {
          throw new CrawlError('failed', `${current.href} redirected to an invalid address`);
        }
        current = await this.check(next.href);
        continue;
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        res.body.destroy();
        throw new CrawlError('failed', `${current.href} answered HTTP ${res.statusCode}`);
      }
      const header = res.headers['content-type'];
      const contentType = (Array.isArray(header) ? header[0] : header) ?? '';
      const mime = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
      if (!CONTENT_TYPES[kind].includes(mime)) {
        res.body.destroy();
        throw new CrawlError(
          'failed',
          `${current.href} is ${mime || 'of no stated type'}, not ${kind === 'html' ? 'an HTML page' : 'a stylesheet'}`,
        );
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.maxBytes) {
        res.body.destroy();
        throw new CrawlError('failed', `${current.href} is larger than ${this.limitText()}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > this.maxBytes) {
            res.body.destroy();
            throw new CrawlError('failed', `${current.href} is larger than ${this.limitText()}`);
          }
          chunks.push(chunk as Buffer);
        }
      } catch (err) {
        if (err instanceof CrawlError) throw err;
        throw this.failure(current, err, signal);
      }
      return { url: current.href, contentType: mime, text: decode(Buffer.concat(chunks), contentType) };
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy().catch(() => {});
  }

  private limitText() {
    return this.maxBytes >= 1024 * 1024 ? `${this.maxBytes / (1024 * 1024)} MB` : `${this.maxBytes} bytes`;
  }

  /** Checks a URL against the policy and pins its host; returns the parsed URL. */
  private async check(raw: string): Promise<URL> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new CrawlError('refused', `${raw} is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CrawlError(
        'refused',
        `${url.protocol.replace(':', '')} addresses are not crawled; only http and https`,
      );
    if (url.username || url.password)
      throw new CrawlError('refused', 'URLs with credentials are not crawled');
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    if (!host) throw new CrawlError('refused', `${raw} has no host`);
    const literal = isIP(host) !== 0;
    const exempt = (address: string) => this.allowPrivate.has(endpointKey(address, port));
    if (literal) {
      this.judge(host, host, port, exempt);
      return url;
    }
    if (!this.pinned.has(host)) {
      // One resolution per host per crawl, even when several requests ask at once.
      let pending = this.resolving.get(host);
      if (!pending) {
        pending = this.resolveAndPin(host, port, exempt);
        this.resolving.set(host, pending);
      }
      await pending;
    } else {
      const pin = this.pinned.get(host) as { address: string };
      this.judge(host, pin.address, port, exempt);
    }
    return url;
  }

  private async resolveAndPin(host: string, port: number, exempt: (a: string) => boolean): Promise<void> {
    let addresses: string[];
    try {
      addresses = await this.resolve(host);
    } catch {
      throw new CrawlError('failed', `${host} could not be resolved`);
    }
    if (addresses.length === 0) throw new CrawlError('failed', `${host} has no address`);
    // Every address must pass, not just the first: a name with one private address is refused.
    for (const a of addresses) this.judge(host, a, port, exempt);
    const first = addresses[0] as string;
    this.pinned.set(host, { address: first, family: isIP(first) === 6 ? 6 : 4 });
  }

  private judge(host: string, ip: string, port: number, exempt: (a: string) => boolean): void {
    if (exempt(ip)) return;
    const verdict = addressVerdict(ip);
    if (!verdict.allowed)
      throw new CrawlError(
        'refused',
        `${host} is not a public address (${ip} is ${describeRange(verdict.range)}); only public websites are crawled`,
      );
    if (!ALLOWED_PORTS.has(port))
      throw new CrawlError('refused', `port ${port} is not crawled; only 80, 443, 8080 and 8443`);
  }

  private failure(url: URL, err: unknown, signal: AbortSignal): CrawlError {
    if (err instanceof CrawlError) return err;
    if (signal.aborted) return new CrawlError('failed', `${url.href} did not answer in time`);
    const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
    const code = e.cause?.code ?? e.code ?? '';
    const why =
      code === 'ECONNREFUSED'
        ? 'refused the connection'
        : code === 'ENOTFOUND'
          ? 'could not be resolved'
          : /CERT|SSL|TLS/.test(code)
            ? 'presented an invalid TLS certificate'
            : `could not be reached (${code || e.cause?.message || e.message || 'network error'})`;
    return new CrawlError('failed', `${url.host} ${why}`);
  }
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (cloud metadata lives here)',
  uniqueLocal: 'a unique-local address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address',
  carrierGradeNat: 'a carrier-grade NAT address',
  reserved: 'a reserved address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
};
const describeRange = (range: string) => RANGE_NAMES[range] ?? `a non-public address (${range})`;

/** Decodes a body with the charset its Content-Type names (UTF-8 when none or unknown). */
function decode(bytes: Buffer, contentType: string): string {
  const charset = /charset="?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
