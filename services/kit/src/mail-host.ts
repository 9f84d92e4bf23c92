import ipaddr from 'ipaddr.js';

/**
 * Where the platform may connect to deliver mail: the `smtp_host` setting. Any admin types
 * it, and the test email and the diagnostics connect to it at once, so it must not reach the
 * cloud's metadata service or other addresses that are no mail relay. The settings service
 * checks the host when it is saved (every spelling of an address: `2130706433`, `0x7f.1`,
 * `0177.0.0.1`, `169.254.43518`, `[::ffff:a9fe:a9fe]`, ...); the email service checks every
 * address the host resolves to before it connects (a name may resolve to anything).
 *
 * Refused: link-local (169.254.0.0/16, where AWS, GCP, Azure and OCI serve instance
 * metadata and credentials, and fe80::/10), unspecified (0.0.0.0/8, `::`: connecting there
 * reaches this machine), multicast, broadcast, reserved and documentation ranges, the
 * metadata addresses inside otherwise allowed ranges (Alibaba's 100.100.100.200, AWS's
 * fd00:ec2::/32), and IPv6 forms that embed a refused IPv4 address (mapped, NAT64,
 * compatible). Allowed: public unicast, loopback and private ranges, because a local Postfix
 * or a relay on the private network is a real set-up (docs/adr/0053-smtp-host-policy-and-tls.md).
 */

export interface MailAddressVerdict {
  allowed: boolean;
  /** Why, in words ('link-local', 'loopback', 'public', ...). */
  kind: string;
}

/** The host as typed, read the way a connection would read it. */
export type MailHost = { kind: 'address'; address: string } | { kind: 'name'; name: string };

const V4_ALLOWED: Record<string, string> = {
  unicast: 'public',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'carrier-grade NAT',
};
const V6_ALLOWED: Record<string, string> = {
  unicast: 'public',
  loopback: 'loopback',
  uniqueLocal: 'unique local',
};
const WORDS: Record<string, string> = {
  linkLocal: 'link-local',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
};
const METADATA_V4 = new Set(['100.100.100.200']);
const METADATA_V6 = ipaddr.parseCIDR('fd00:ec2::/32') as [ipaddr.IPv6, number];
/** Names the clouds give their metadata service. */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** The IPv4 address an IPv6 one carries and would reach: mapped, NAT64, IPv4-compatible. */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts;
  const low = () => ipaddr.IPv4.parse(`${p[6]! >> 8}.${p[6]! & 0xff}.${p[7]! >> 8}.${p[7]! & 0xff}`);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  // 64:ff9b::/96 (RFC 6052) and 64:ff9b:1::/48 (RFC 8215): a NAT64 gateway connects there.
  if (p[0] === 0x64 && p[1] === 0xff9b) return low();
  // ::a.b.c.d (deprecated IPv4-compatible), not :: or ::1.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || (p[7] ?? 0) > 1)) return low();
  return null;
}

function verdictOf(ip: ipaddr.IPv4 | ipaddr.IPv6): MailAddressVerdict {
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    const inner = embeddedIPv4(v6);
    if (inner) return verdictOf(inner);
    if (v6.match(METADATA_V6)) return { allowed: false, kind: 'cloud metadata' };
    const range = v6.range();
    const allowed = V6_ALLOWED[range];
    return allowed ? { allowed: true, kind: allowed } : { allowed: false, kind: WORDS[range] ?? 'reserved' };
  }
  const v4 = ip as ipaddr.IPv4;
  if (METADATA_V4.has(v4.toString())) return { allowed: false, kind: 'cloud metadata' };
  const range = v4.range();
  if (range === 'linkLocal') return { allowed: false, kind: 'link-local (cloud metadata)' };
  const allowed = V4_ALLOWED[range];
  return allowed ? { allowed: true, kind: allowed } : { allowed: false, kind: WORDS[range] ?? 'reserved' };
}

/** May mail be delivered to this IP address (IPv6 with or without brackets)? */
export function mailAddressVerdict(address: string): MailAddressVerdict {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(bare) || bare.includes('%')) return { allowed: false, kind: 'not an IP address' };
  return verdictOf(ipaddr.parse(bare));
}

/**
 * Reads a typed host as a connection would: an IPv4 address in any spelling the system's
 * resolver accepts (decimal, hex, octal, dotted partials) becomes its dotted form (the URL
 * standard's IPv4 parser reads the same spellings), an IPv6 address loses its brackets.
 * Null when it is neither an address nor a host name (a port, a path, a zone id, spaces).
 */
export function parseMailHost(host: string): MailHost | null {
  const typed = host.trim();
  const unbracketed = typed.replace(/^\[(.*)\]$/, '$1');
  if (unbracketed.includes(':')) {
    if (unbracketed.includes('%') || !ipaddr.IPv6.isValid(unbracketed)) return null;
    return { kind: 'address', address: ipaddr.IPv6.parse(unbracketed).toString() };
  }
  if (typed !== unbracketed) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${typed}/`).hostname;
  } catch {
    return null;
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(hostname)) return { kind: 'address', address: hostname };
  return HOST_NAME.test(typed) ? { kind: 'name', name: typed.toLowerCase() } : null;
}

/** Why mail may not go to this host as typed, or null. Names are checked again once resolved. */
export function mailHostProblem(host: string): string | null {
  const parsed = parseMailHost(host);
  if (!parsed) return 'not a host name';
  if (parsed.kind === 'name') return METADATA_NAMES.has(parsed.name) ? 'a cloud metadata service' : null;
  const verdict = mailAddressVerdict(parsed.address);
  return verdict.allowed ? null : `${/^[aeiou]/.test(verdict.kind) ? 'an' : 'a'} ${verdict.kind} address`;
}

/** A host as `net.connect` takes it: an IPv6 address without its brackets. */
export const connectableHost = (host: string): string => host.trim().replace(/^\[(.*)\]$/, '$1');
