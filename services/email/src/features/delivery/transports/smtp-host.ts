import { lookup as dnsLookup } from 'node:dns/promises';
import net from 'node:net';
import type tls from 'node:tls';
import { connectableHost, mailAddressVerdict, parseMailHost } from '@parley/kit/mail-host';
import { SmtpNetworkError } from './smtp-protocol.ts';

/**
 * The SMTP client's settings, and where they let it connect: the addresses a host resolves
 * to, each checked against the mail host policy, and whether a host is this machine.
 */

export interface SmtpClientOptions {
  host: string;
  port: number;
  secure?: boolean;
  /** Do not upgrade with STARTTLS even when offered (tests against a local server). */
  ignoreTLS?: boolean;
  username?: string;
  password?: string;
  maxConnections?: number;
  /** A connection is closed (QUIT) and replaced after this many messages. */
  maxMessagesPerConnection?: number;
  connectionTimeoutMs?: number;
  socketTimeoutMs?: number;
  /** An idle pooled connection older than this is closed rather than reused. */
  idleMs?: number;
  /** The name said in EHLO (default: this host's name when it is a domain, else [127.0.0.1]). */
  clientName?: string;
  tls?: tls.ConnectionOptions;
  /** Resolves the host (default: the system resolver, as `net.connect` would). */
  lookup?: (host: string) => Promise<Array<{ address: string }>>;
}

/** The addresses the host resolves to, each allowed by the mail host policy (else an error). */
export async function resolveHost(o: SmtpClientOptions): Promise<string[]> {
  const host = connectableHost(o.host);
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      const found = await (o.lookup ?? ((h: string) => dnsLookup(h, { all: true, verbatim: true })))(host);
      addresses = found.map((a) => a.address);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw new SmtpNetworkError('connect', `the SMTP host name ${o.host} was not found`, e.code, e.message);
    }
    if (!addresses.length)
      throw new SmtpNetworkError('connect', `the SMTP host name ${o.host} was not found`);
  }
  // One refused address refuses the host: a name that also resolves to the metadata service is
  // not a mail relay, and the system would not say which address a connection picks.
  for (const address of addresses) {
    const verdict = mailAddressVerdict(address);
    if (!verdict.allowed)
      throw new SmtpNetworkError(
        'connect',
        `the SMTP host ${o.host} is refused: it is ${/^[aeiou]/.test(verdict.kind) ? 'an' : 'a'} ${verdict.kind} address (loopback, private and public relays are allowed)`,
        'EHOSTPOLICY',
      );
  }
  return addresses;
}

/** A loopback address (IPv4-mapped ones too). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const verdict = mailAddressVerdict(address);
  return verdict.allowed && verdict.kind === 'loopback';
}

/** The configured host names this machine: `localhost` or a loopback address in any spelling. */
export function namesThisMachine(host: string): boolean {
  const parsed = parseMailHost(host);
  if (!parsed) return false;
  return parsed.kind === 'name' ? parsed.name === 'localhost' : isLoopback(parsed.address);
}
