import { createServer, type Server, Socket } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Listener, listen } from '../src/db/listen.ts';
import { createTestDatabase } from '../src/testing/database.ts';

// Real PostgreSQL: the listener's connection is killed, refused and cut off for real.
let url: string;
let database: string;
let admin: pg.Client;
let sender: pg.Client;
const listeners: Listener[] = [];

const until = async (cond: () => boolean | Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};
/** Starts a listener that records what it receives and how often it (re)started listening. */
function start(connection: string | pg.ClientConfig, extra: Partial<Parameters<typeof listen>[0]> = {}) {
  const got: Array<[string, string | undefined]> = [];
  const seen = { listening: 0, lost: 0 };
  const l = listen({
    connection,
    channels: ['parley_test_a', 'parley test "b"'],
    onNotification: (channel, payload) => void got.push([channel, payload]),
    onListening: () => void seen.listening++,
    onLost: () => void seen.lost++,
    retry: { initialMs: 20, maxMs: 200 },
    ...extra,
  });
  listeners.push(l);
  return { l, got, seen };
}
const listenerPids = async () =>
  (
    await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'LISTEN%'`,
      [database],
    )
  ).rows.map((r) => r.pid);
/** Sends a notification until the listener has it (a NOTIFY before LISTEN is not kept). */
const deliver = async (got: Array<[string, string | undefined]>, payload: string) => {
  await sender.query(`SELECT pg_notify('parley_test_a', $1)`, [payload]);
  await until(() => got.some(([, p]) => p === payload));
};

beforeAll(async () => {
  url = await createTestDatabase('kit_listen');
  database = new URL(url).pathname.slice(1);
  admin = new pg.Client({ connectionString: process.env.PARLEY_TEST_PG_URL });
  await admin.connect();
  sender = new pg.Client({ connectionString: url });
  await sender.connect();
});
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.stop()));
  await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
});
afterAll(async () => {
  await sender?.end();
  await admin?.end();
});

describe('listen (kit/db/listen.ts)', () => {
  it('receives notifications on every channel until stopped', async () => {
    const { l, got, seen } = start(url);
    expect(await l.ready(10_000)).toBe(true);
    expect(seen.listening).toBe(1);
    await sender.query(`NOTIFY "parley test ""b""", 'two'`);
    await deliver(got, 'one');
    expect(got).toContainEqual(['parley test "b"', 'two']);
    await l.stop();
    expect(l.listening).toBe(false);
    await until(async () => (await listenerPids()).length === 0);
  });

  it('keeps reconnecting, with backoff, for as long as the database refuses it, then listens again', async () => {
    const { l, got, seen } = start(url);
    await l.ready(10_000);
    await deliver(got, 'before');
    // The database goes away for new connections and the listener's connection is killed.
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> $2',
      [database, (await sender.query('SELECT pg_backend_pid() AS pid')).rows[0].pid],
    );
    await until(() => !l.listening);
    expect(seen.lost).toBe(1);
    // Many failed attempts in a row: it never gives up.
    await until(() => l.failures >= 5);
    expect(l.listening).toBe(false);
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    expect(await l.ready(20_000)).toBe(true);
    expect(l.failures).toBe(0);
    expect(seen.listening).toBe(2);
    await deliver(got, 'after');
  });

  it('reconnects after the server closes its connection, again and again', async () => {
    const { l, got, seen } = start(url);
    await l.ready(10_000);
    for (let round = 1; round <= 3; round++) {
      await until(async () => (await listenerPids()).length === 1);
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query ILIKE $2',
        [database, 'LISTEN%'],
      );
      await until(() => seen.listening === round + 1);
      await deliver(got, `round ${round}`);
    }
    expect(seen.lost).toBe(3);
  });

  describe('a connection that dies silently (half-open)', () => {
    let proxy: Server;
    const pairs: Array<[Socket, Socket]> = [];
    afterAll(async () => {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise((r) => proxy?.close(r));
    });

    it('is noticed by its ping and replaced', async () => {
      // A TCP relay in front of PostgreSQL that can stop forwarding without closing anything.
      const target = new URL(url);
      proxy = createServer((client) => {
        const server = new Socket();
        server.connect(Number(target.port), target.hostname);
        client.pipe(server).pipe(client);
        client.on('error', () => server.destroy());
        server.on('error', () => client.destroy());
        pairs.push([client, server]);
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      const port = (proxy.address() as { port: number }).port;
      const viaProxy = new URL(url);
      viaProxy.hostname = '127.0.0.1'; // where the relay listens, whatever host PostgreSQL is on
      viaProxy.port = String(port);
      const { l, got, seen } = start(viaProxy.toString(), { ping: { everyMs: 200, timeoutMs: 500 } });
      await l.ready(10_000);
      await deliver(got, 'before');
      // Blackhole the established connection: bytes go nowhere, no error, no close.
      for (const [client, server] of pairs) {
        client.unpipe(server);
        server.unpipe(client);
        client.pause();
        server.pause();
      }
      await until(() => seen.lost === 1);
      expect(await l.ready(20_000)).toBe(true);
      expect(seen.listening).toBe(2);
      await deliver(got, 'after');
    });
  });
});
