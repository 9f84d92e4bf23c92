import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@parley/kit/local';
import { repoRoot } from './paths.ts';

export interface Platform {
  url: string;
  dataDir: string;
  /** The platform's own process: the gateway's (each service is a child of it with --distributed). */
  pid: number;
  /** Milliseconds from spawn to the gateway answering /health/ready. */
  readyMs: number;
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash or the OOM killer would (the data directory is kept). */
  kill(): Promise<void>;
}

/**
 * Runs `pnpm start` (scripts/start.mjs) as a child process on a free port with its own data
 * directory, and waits until the gateway is ready. Used by the e2e tier and benchmarks.
 */
export async function startPlatform(
  opts: {
    dataDir?: string;
    /** Added to this process's environment; a key set to undefined is removed from it. */
    env?: Record<string, string | undefined>;
    args?: string[];
    /** Node options for the platform's own process (the gateway's, e.g. --cpu-prof). */
    nodeArgs?: string[];
    /** Default PARLEY_PLATFORM_READY_MS, else 180 s (a busy shared machine may need more). */
    timeoutMs?: number;
  } = {},
): Promise<Platform> {
  const port = await freePort();
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'parley-data-')));
  // mkdtemp makes it 0700; run as root, PostgreSQL (user postgres) must enter it.
  await chmod(dataDir, 0o755);
  const t0 = Date.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), join(repoRoot, 'scripts/start.mjs'), ...(opts.args ?? [])],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        // The address tests and benchmarks use is the platform's public origin.
        PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
        ...opts.env,
        PORT: String(port),
        PARLEY_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + (opts.timeoutMs ?? (Number(process.env.PARLEY_PLATFORM_READY_MS) || 180_000));
  let ready = false;
  while (!ready && Date.now() < deadline && child.exitCode === null) {
    try {
      ready = (await fetch(`${url}/health/ready`)).ok;
    } catch {}
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    // SIGINT first: start.mjs stops its services and PostgreSQL; killed at once, it would leave
    // them running (and holding this process's stdout) with no parent.
    if (child.exitCode === null) child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    await exited;
    clearTimeout(timer);
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    throw new Error(`the platform did not become ready at ${url}`);
  }
  const readyMs = Date.now() - t0;
  return {
    url,
    dataDir,
    pid: child.pid as number,
    readyMs,
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
      const code = await exited;
      clearTimeout(timer);
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
