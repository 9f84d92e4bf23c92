import { describe, expect, it } from 'vitest';
import {
  addTracking,
  browserTypeOf,
  deviceTypeOf,
  privacyProxyOf,
} from '../src/features/tracking/domain/tracking.ts';
import { newTrackingId, TokenSigner } from '../src/shared/tokens.ts';

const signer = new TokenSigner('a'.repeat(64));
const other = new TokenSigner('b'.repeat(64));

describe('signed tokens', () => {
  it('verifies its own tokens and refuses forged, altered, foreign and cross-purpose ones', () => {
    const id = newTrackingId();
    const open = signer.sign('open', id);
    expect(signer.verify('open', open)).toBe(id);
    // Same id, another purpose: an open token never unsubscribes.
    expect(signer.verify('unsubscribe', open)).toBeNull();
    // Another secret.
    expect(signer.verify('open', other.sign('open', id))).toBeNull();
    // A guessed id with a made-up signature, an altered id, an altered signature, junk.
    expect(signer.verify('open', `${newTrackingId()}.${open.split('.')[1]}`)).toBeNull();
    const [tid, sig] = open.split('.') as [string, string];
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    expect(signer.verify('open', `${flip(tid)}.${sig}`)).toBeNull();
    expect(signer.verify('open', `${tid}.${flip(sig)}`)).toBeNull();
    for (const junk of ['', '.', id, `${open}.x`, `${tid}.${sig}=`, '../etc/passwd'])
      expect(signer.verify('open', junk)).toBeNull();
  });

  it('binds a click to its URL: a signature for one URL does not redirect to another', () => {
    const id = newTrackingId();
    const sig = signer.signClick(id, 'https://parley.test/pricing');
    expect(signer.verifyClick(id, 'https://parley.test/pricing', sig)).toBe(true);
    expect(signer.verifyClick(id, 'https://evil.example/phish', sig)).toBe(false);
    expect(signer.verifyClick(newTrackingId(), 'https://parley.test/pricing', sig)).toBe(false);
    expect(other.verifyClick(id, 'https://parley.test/pricing', sig)).toBe(false);
  });

  it('makes unguessable ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, newTrackingId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe('addTracking', () => {
  it('rewrites http(s) links to signed clicks, leaves mailto and no-track links, adds the pixel', () => {
    const id = newTrackingId();
    const html =
      '<html><body><a href="https://parley.test/a?x=1&amp;y=2">A</a> <a class="b" href=\'http://x.test/\'>B</a> <a href="mailto:a@b.c">M</a> <a href="https://u.test/unsub" data-no-track>U</a></body></html>';
    const out = addTracking(html, { origin: 'https://parley.test', trackingId: id, signer });
    expect(out.links).toEqual(['https://parley.test/a?x=1&y=2', 'http://x.test/']);
    const hrefs = [...out.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs[0]).toMatch(new RegExp(`^https://parley\\.test/api/track/click/${id}\\?u=`));
    const q = new URLSearchParams(hrefs[0]!.split('?')[1]!.replace(/&amp;/g, '&'));
    expect(q.get('u')).toBe('https://parley.test/a?x=1&y=2');
    expect(signer.verifyClick(id, q.get('u')!, q.get('s')!)).toBe(true);
    expect(out.html).toContain("href='https://parley.test/api/track/click/");
    expect(out.html).toContain('href="mailto:a@b.c"');
    expect(out.html).toContain('href="https://u.test/unsub"');
    expect(out.html).toMatch(
      new RegExp(`<img src="https://parley\\.test/api/track/open/${id}\\.[A-Za-z0-9_-]{22}"[^>]*/></body>`),
    );
  });

  it('carries any URL through the click link intact, inside either quote', () => {
    const id = newTrackingId();
    const urls = ["https://x.test/it's?q=a+b c&r=%2F#top", 'https://x.test/café?"q"=1'];
    const html = `<a href='https://x.test/it&#39;s?q=a+b c&amp;r=%2F#top'>1</a><a href="https://x.test/café?&quot;q&quot;=1">2</a>`;
    const out = addTracking(html, { origin: 'https://parley.test', trackingId: id, signer });
    expect(out.links).toEqual(urls);
    const hrefs = [...out.html.matchAll(/href=(["'])(.*?)\1/g)].map((m) => m[2] as string);
    expect(hrefs).toHaveLength(2);
    hrefs.forEach((href, i) => {
      expect(href).not.toMatch(/["'<> ]/);
      const q = new URLSearchParams(href.split('?')[1]?.replace(/&amp;/g, '&'));
      expect(q.get('u')).toBe(urls[i]);
      expect(signer.verifyClick(id, q.get('u') as string, q.get('s') as string)).toBe(true);
    });
  });
});

describe('who opened', () => {
  it('flags privacy proxies by user agent and by address range', () => {
    expect(privacyProxyOf('Mozilla/5.0', '203.0.113.9')).toBe('apple-mpp');
    expect(
      privacyProxyOf(
        'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
        '66.249.93.1',
      ),
    ).toBe('gmail-proxy');
    expect(privacyProxyOf('Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15', '17.58.1.2')).toBe('apple-mpp');
    expect(privacyProxyOf('Mozilla/5.0 (X11) Firefox/120.0', '::ffff:66.249.80.10')).toBe('gmail-proxy');
    expect(
      privacyProxyOf(
        'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
        '98.136.1.1',
      ),
    ).toBe('yahoo-proxy');
    // A person.
    expect(
      privacyProxyOf(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
        '198.51.100.7',
      ),
    ).toBeNull();
    expect(privacyProxyOf(undefined, 'not an ip')).toBeNull();
  });

  it('tells device and client', () => {
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
    const ipad = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15';
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
    const outlook = 'Mozilla/4.0 (compatible; ms-office; MSOffice 16)';
    expect([deviceTypeOf(iphone), deviceTypeOf(ipad), deviceTypeOf(chrome), deviceTypeOf('')]).toEqual([
      'mobile',
      'tablet',
      'desktop',
      'unknown',
    ]);
    expect([browserTypeOf(iphone), browserTypeOf(chrome), browserTypeOf(outlook), browserTypeOf('')]).toEqual(
      ['Apple Mail', 'Chrome', 'Outlook', 'Unknown'],
    );
  });
});
