import ipaddr from 'ipaddr.js';

/**
 * Which addresses the brand crawl may connect to (OWASP SSRF prevention): public unicast
 * only. Loopback, private (RFC 1918), carrier-grade NAT, link-local (169.254.0.0/16, the
 * cloud metadata address included), unique-local, multicast, broadcast, reserved and
 * documentation ranges are refused; so are IPv6 forms that embed an IPv4 address (mapped
 * ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64, 6to4, Teredo), whatever that address is.
 */

export interface AddressVerdict {
  allowed: boolean;
  /** ipaddr.js's range name ('unicast', 'loopback', 'private', ...) or why it is not an address. */
  range: string;
}

/** 2000::/3, the only IPv6 space assigned for global unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

export function addressVerdict(address: string): AddressVerdict {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // ipaddr.parse accepts only canonical dotted IPv4 and valid IPv6 (no octal/hex forms);
    // the URL parser has already turned such forms of a literal host into dotted decimal.
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return { allowed: false, range: 'not an IP address' };
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return { allowed: false, range: 'ipv4Mapped' };
    const range = v6.range();
    if (range !== 'unicast') return { allowed: false, range };
    if (!v6.match(GLOBAL_UNICAST_V6)) return { allowed: false, range: 'reserved' };
    return { allowed: true, range };
  }
  const range = (ip as ipaddr.IPv4).range();
  return { allowed: range === 'unicast', range };
}

/** `ip:port` as the allow-list writes it (IPv6 in brackets), for an address and a port. */
export function endpointKey(address: string, port: number): string {
  const bare = address.replace(/^\[|\]$/g, '');
  let normal = bare;
  try {
    normal = ipaddr.parse(bare).toString();
  } catch {
    // not an address; left as it is (it will not match)
  }
  return normal.includes(':') ? `[${normal}]:${port}` : `${normal}:${port}`;
}

/** Parses SETTINGS_CRAWL_ALLOW_PRIVATE (`ip:port,...`) into endpoint keys. */
export function parseAllowList(text: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const item of (text ?? '').split(',')) {
    const entry = item.trim();
    if (!entry) continue;
    const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(entry);
    if (!m) throw new Error(`SETTINGS_CRAWL_ALLOW_PRIVATE: ${entry} is not ip:port`);
    out.add(endpointKey(m[1] as string, Number(m[2])));
  }
  return out;
}
