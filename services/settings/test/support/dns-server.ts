import { promises as dns } from 'node:dns';
import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import type { Resolver } from '../../src/crawl/safe-fetch.ts';

const { Packet } = dns2;

/**
 * A real DNS server (dns2, UDP on 127.0.0.1) for the crawl tests: names that resolve to
 * private addresses, and answers that change between queries (rebinding). A name maps to a
 * function of how many times it was asked, so each test decides what each query gets.
 */
export interface TestDns {
  /** Set what `name` answers: a list of addresses, or one per query count (1 = first). */
  set(name: string, answer: string[] | ((query: number) => string[])): void;
  /** A queries received per name. */
  queries(name: string): number;
  /** A resolver that asks only this server (A and AAAA records). */
  resolver: Resolver;
  close(): Promise<void>;
}

export async function startTestDns(): Promise<TestDns> {
  const zone = new Map<string, (query: number) => string[]>();
  const counts = new Map<string, number>();
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    for (const q of request.questions) {
      const name = q.name.toLowerCase();
      const answer = zone.get(name);
      if (!answer) continue;
      let addresses: string[];
      if (q.type === Packet.TYPE.A) {
        const n = (counts.get(name) ?? 0) + 1;
        counts.set(name, n);
        addresses = answer(n).filter((a) => !a.includes(':'));
      } else if (q.type === Packet.TYPE.AAAA) {
        addresses = answer(counts.get(name) ?? 1).filter((a) => a.includes(':'));
      } else continue;
      for (const address of addresses)
        response.answers.push({
          name: q.name,
          type: q.type === Packet.TYPE.A ? Packet.TYPE.A : Packet.TYPE.AAAA,
          class: Packet.CLASS.IN,
          ttl: 0,
          address,
          // dns2 serialises plain records (its README's own usage); the type asks for more.
        } as unknown as (typeof response.answers)[number]);
    }
    void send(response);
  });
  await server.listen(0, '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  const client = new dns.Resolver({ timeout: 1000, tries: 1 });
  client.setServers([`127.0.0.1:${port}`]);
  const none = (err: { code?: string }) => {
    if (err.code === 'ENODATA' || err.code === 'ENOTFOUND') return [] as string[];
    throw err;
  };
  return {
    set(name, answer) {
      zone.set(name.toLowerCase(), typeof answer === 'function' ? answer : () => answer);
    },
    queries: (name) => counts.get(name.toLowerCase()) ?? 0,
    resolver: async (host) => {
      const v4 = await client.resolve4(host).catch(none);
      const v6 = await client.resolve6(host).catch(none);
      if (v4.length + v6.length === 0)
        throw Object.assign(new Error(`${host} not found`), { code: 'ENOTFOUND' });
      return [...v4, ...v6];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
