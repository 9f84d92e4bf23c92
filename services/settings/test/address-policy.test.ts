import { describe, expect, it } from 'vitest';
import { addressVerdict, endpointKey, parseAllowList } from '../src/domain/address-policy.ts';

describe('addressVerdict: only public unicast addresses pass', () => {
  it('allows public IPv4 and global IPv6', () => {
    for (const a of ['8.8.8.8', '93.184.215.14', '1.1.1.1', '2606:4700::1111', '2a00:1450:4007:80e::200e'])
      expect(addressVerdict(a), a).toEqual({ allowed: true, range: 'unicast' });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['::ffff:169.254.169.254', 'ipv4Mapped'],
    ['::ffff:8.8.8.8', 'ipv4Mapped'],
    ['[::ffff:7f00:1]', 'ipv4Mapped'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['2001::1', 'teredo'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s (%s)', (address, range) => {
    expect(addressVerdict(address)).toEqual({ allowed: false, range });
  });

  it('refuses IPv6 outside 2000::/3 and anything that is not an address', () => {
    expect(addressVerdict('4000::1').allowed).toBe(false);
    expect(addressVerdict('::7f00:1').allowed).toBe(false);
    expect(addressVerdict('localhost')).toEqual({ allowed: false, range: 'not an IP address' });
    expect(addressVerdict('')).toEqual({ allowed: false, range: 'not an IP address' });
  });

  it('reads octal and hex IPv4 forms as the address they mean', () => {
    expect(addressVerdict('0177.0.0.1').allowed).toBe(false);
    expect(addressVerdict('0x7f.0.0.1').allowed).toBe(false);
  });
});

describe('the test-only allow-list', () => {
  it('is off by default and matches exact ip:port pairs in canonical form', () => {
    expect(parseAllowList(undefined).size).toBe(0);
    const list = parseAllowList('127.0.0.1:8080, [::1]:9000');
    expect(list.has(endpointKey('127.0.0.1', 8080))).toBe(true);
    expect(list.has(endpointKey('127.0.0.1', 8081))).toBe(false);
    expect(list.has(endpointKey('0:0:0:0:0:0:0:1', 9000))).toBe(true);
    expect(() => parseAllowList('localhost')).toThrow(/not ip:port/);
  });
});
