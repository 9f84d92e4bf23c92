import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

export interface NatsServer {
  url: string;
  port: number;
  /** Stops the server process (its JetStream store stays for `start`). */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same store. */
  start(): Promise<void>;
  /** Stops it and deletes its store. */
  dispose(): Promise<void>;
}

export function natsServerBinary(): string | null {
  const candidates = [
    process.env.NATS_SERVER_BIN,
    'nats-server',
    '/usr/sbin/nats-server',
    '/usr/bin/nats-server',
  ];
  for (const c of candidates) {
    if (!c) continue;
    const r = spawnSync(c, ['--version'], { encoding: 'utf8' });
    if (r.status === 0) return c;
  }
  return null;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`);
}

/** Starts a local nats-server with JetStream on `port`, else a free loopback port. */
export async function startNatsServer(opts: { port?: number } = {}): Promise<NatsServer> {
  const bin = natsServerBinary();
  if (!bin)
    throw new Error('nats-server is not installed (apt-get install nats-server, or set NATS_SERVER_BIN)');
  const port = opts.port ?? (await freePort());
  const storeDir = await mkdtemp(join(tmpdir(), 'parley-nats-'));
  let child: ChildProcess | null = null;

  const start = async () => {
    child = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
    await waitForPort(port, 10_000);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async dispose() {
      await stop();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}
