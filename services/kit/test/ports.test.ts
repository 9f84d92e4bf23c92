import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { freePort } from '../src/local/ports.ts';

describe('freePort', () => {
  it('chooses distinct bindable ports below the ephemeral range, where no outgoing connection can take them', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(low);
      // Bindable on every interface, as the gateway binds.
      await new Promise<void>((resolve, reject) => {
        const srv = createServer();
        srv.once('error', reject);
        srv.listen(port, '0.0.0.0', () => srv.close(() => resolve()));
      });
    }
  });

  it('passes over a port something is listening on, even on one address only', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const taken = await freePort();
    const srv = createServer();
    await new Promise<void>((resolve) => srv.listen(taken, '127.0.0.1', resolve));
    // The first random draw lands on the taken port.
    const random = vi.spyOn(Math, 'random').mockReturnValueOnce((taken - 20_000 + 0.5) / (low - 20_000));
    try {
      const port = await freePort();
      expect(random).toHaveBeenCalledTimes(2);
      expect(port).not.toBe(taken);
    } finally {
      random.mockRestore();
      srv.close();
    }
  });

  it('never hands out a port promised to a listener that has not bound yet', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const promised = await freePort();
    // Every draw lands on the promised port, which is free: only `avoid` keeps it out.
    const random = vi.spyOn(Math, 'random').mockReturnValue((promised - 20_000 + 0.5) / (low - 20_000));
    try {
      expect(await freePort()).toBe(promised);
      const port = await freePort(new Set([promised]));
      expect(port).not.toBe(promised);
      expect(port).toBeGreaterThan(0);
    } finally {
      random.mockRestore();
    }
  });
});
