import ipaddr from 'ipaddr.js';
import type { TokenSigner } from '../../../shared/tokens.ts';

/**
 * What a tracking hit says about who made it. Mail-privacy proxies fetch images for the
 * reader, often before (or without) any human opening the message, so their opens are
 * recorded and flagged, never counted as human opens:
 *
 * - Apple Mail Privacy Protection preloads every remote image through Apple's relays with
 *   the bare User-Agent `Mozilla/5.0`, from Apple's own network 17.0.0.0/8 or relay partners;
 *   the bare User-Agent alone is the signal most senders use (no real mail client sends it).
 * - Gmail fetches images through its image proxy: User-Agent ends with
 *   `(via ggpht.com GoogleImageProxy)`, from Google's 66.249.64.0/19 crawler/proxy range.
 * - Yahoo's proxy says `YahooMailProxy`.
 *
 * An address in one of the ranges below also flags a hit whatever its User-Agent (Apple's
 * relays sometimes send a fuller one). The ranges are the owners' published blocks.
 */
const PROXY_RANGES: Array<{ proxy: string; cidr: [ipaddr.IPv4 | ipaddr.IPv6, number] }> = [
  { proxy: 'apple-mpp', cidr: ipaddr.parseCIDR('17.0.0.0/8') },
  { proxy: 'gmail-proxy', cidr: ipaddr.parseCIDR('66.249.64.0/19') },
];

export function privacyProxyOf(userAgent: string | undefined, ip: string | undefined): string | null {
  const ua = (userAgent ?? '').trim();
  if (/GoogleImageProxy/i.test(ua)) return 'gmail-proxy';
  if (/YahooMailProxy/i.test(ua)) return 'yahoo-proxy';
  if (ua === 'Mozilla/5.0') return 'apple-mpp';
  // Only the listed IPv4 blocks can match: skip parsing every other address (the hot path).
  if (ip && /^(?:::ffff:)?(?:17|66)\./i.test(ip)) {
    try {
      let addr = ipaddr.parse(ip);
      if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
        addr = (addr as ipaddr.IPv6).toIPv4Address();
      for (const range of PROXY_RANGES) {
        if (addr.kind() === range.cidr[0].kind() && addr.match(range.cidr)) return range.proxy;
      }
    } catch {
      // Not an address: nothing to match.
    }
  }
  return null;
}

export type DeviceType = 'mobile' | 'tablet' | 'desktop' | 'unknown';

export function deviceTypeOf(userAgent: string | undefined): DeviceType {
  const ua = userAgent ?? '';
  if (!ua) return 'unknown';
  if (/iPad|Tablet|PlayBook|Silk|(Android(?!.*Mobile))/i.test(ua)) return 'tablet';
  if (/iPhone|iPod|Mobile|Android|Windows Phone|BlackBerry/i.test(ua)) return 'mobile';
  if (/Windows NT|Macintosh|Mac OS X|X11|Linux|CrOS/i.test(ua)) return 'desktop';
  return 'unknown';
}

/** The mail client or browser, as far as the User-Agent tells (first match wins). */
export function browserTypeOf(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const rules: Array<[RegExp, string]> = [
    [/GoogleImageProxy/i, 'Gmail'],
    [/YahooMailProxy/i, 'Yahoo Mail'],
    [/Microsoft Outlook|MSOffice|ms-office/i, 'Outlook'],
    [/Thunderbird/i, 'Thunderbird'],
    [/Edg\//, 'Edge'],
    [/OPR\/|Opera/, 'Opera'],
    [/Firefox\//, 'Firefox'],
    [/Chrome\/|CriOS\//, 'Chrome'],
    [/Version\/[\d.]+.*Safari\//, 'Safari'],
    [/AppleWebKit/i, 'Apple Mail'],
  ];
  for (const [re, name] of rules) if (re.test(ua)) return name;
  return ua ? 'Other' : 'Unknown';
}

export interface TrackedLinks {
  html: string;
  /** The URLs that now redirect through the click route, in order. */
  links: string[];
}

const A_TAG_RE = /<a\b[^>]*>/gi;
const HREF_RE = /(\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/i;

/**
 * Rewrites every http(s) link of `html` to the click route (signed per URL) and adds the open
 * pixel before `</body>`. Links marked `data-no-track` (the unsubscribe link) stay as they are.
 */
export function addTracking(
  html: string,
  opts: { origin: string; trackingId: string; signer: TokenSigner },
): TrackedLinks {
  const links: string[] = [];
  const out = html.replace(A_TAG_RE, (tag) => {
    if (/\bdata-no-track\b/i.test(tag)) return tag;
    return tag.replace(HREF_RE, (_whole, head: string, quote: string, href: string) => {
      const url = decodeEntities(href);
      links.push(url);
      return `${head}${quote}${clickUrl(opts.origin, opts.trackingId, url, opts.signer)}${quote}`;
    });
  });
  const pixel = `<img src="${opts.origin}/api/track/open/${opts.signer.sign('open', opts.trackingId)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0" />`;
  const withPixel = /<\/body>/i.test(out) ? out.replace(/<\/body>/i, `${pixel}</body>`) : out + pixel;
  return { html: withPixel, links };
}

export function clickUrl(origin: string, trackingId: string, url: string, signer: TokenSigner): string {
  // The URL lands in an HTML attribute, quoted with " or ': `&amp;`, and ' encoded too
  // (encodeURIComponent leaves it). A third of URLSearchParams' cost; read back the same.
  const u = encodeURIComponent(url).replace(/'/g, '%27');
  return `${origin}/api/track/click/${trackingId}?u=${u}&amp;s=${signer.signClick(trackingId, url)}`;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"');
}

/** The 1×1 transparent GIF the open pixel answers. */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
