import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * A real SMTP peer for the browser suite: scripts/test/mail-sink.mjs (the one the Kubernetes
 * tier runs in the cluster) as a local process on loopback ports. The platform delivers to it
 * over SMTP when a spec chooses the SMTP transport; `recipients()` counts what arrived.
 */
export interface MailSink {
  readonly smtpPort: number;
  /** Messages received per recipient address. */
  recipients(): Promise<Record<string, number>>;
  close(): void;
}

const SCRIPT = fileURLToPath(new URL('../../../scripts/test/mail-sink.mjs', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startMailSink(): Promise<MailSink> {
  const smtpPort = await freePort();
  let httpPort = await freePort();
  while (httpPort === smtpPort) httpPort = await freePort();
  const http = `http://127.0.0.1:${httpPort}`;
  const child: ChildProcess = spawn(process.execPath, [SCRIPT], {
    env: { ...process.env, SMTP_PORT: String(smtpPort), HTTP_PORT: String(httpPort) },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`${http}/health`)).ok) break;
    } catch {}
    if (child.exitCode !== null) throw new Error(`the mail sink exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill();
      throw new Error('the mail sink did not answer within 20 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    smtpPort,
    recipients: async () =>
      ((await (await fetch(`${http}/recipients`)).json()) as { counts: Record<string, number> }).counts,
    close: () => child.kill(),
  };
}
