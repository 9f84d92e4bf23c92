import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where the kernel takes the source ports of outgoing connections (and the ports of
 * `listen(0)`). A port chosen now and bound later must lie outside it: a service opening
 * its database pool in between can take it as a source port, and the later bind fails
 * with EADDRINUSE (seen in CI: the gateway of `pnpm start` on 0.0.0.0:43309).
 */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (lo && hi && lo <= hi) return [lo, hi];
  } catch {}
  return [32768, 60999]; // Linux's default
}

const FLOOR = 20_000;

function tryListen(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(null));
    // All interfaces: the gateway listens on 0.0.0.0, so a listener on any address must be seen.
    srv.listen({ port, host: '0.0.0.0', exclusive: true }, () => {
      const addr = srv.address();
      const bound = typeof addr === 'object' && addr ? addr.port : null;
      srv.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP port that was free a moment ago on every interface, chosen at random below the
 * kernel's ephemeral range so no outgoing connection can take it before it is bound.
 * `avoid`: ports already promised to listeners that have not bound yet (a free port is free
 * until its owner binds it, so a second caller could be handed the same one).
 */
export async function freePort(avoid?: ReadonlySet<number>): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const span = ephemeralLow - FLOOR;
  for (let attempt = 0; span > 1000 && attempt < 50; attempt++) {
    const candidate = FLOOR + Math.floor(Math.random() * span);
    if (avoid?.has(candidate)) continue;
    const port = await tryListen(candidate);
    if (port) return port;
  }
  // No room below the range (an unusual kernel setting): let the kernel choose.
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await tryListen(0);
    if (port && !avoid?.has(port)) return port;
  }
  throw new Error('no free TCP port');
}
