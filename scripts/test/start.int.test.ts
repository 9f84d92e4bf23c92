/**
 * `pnpm start` as a person runs it: through pnpm, in its own process group, stopped by Ctrl-C,
 * which a terminal delivers to every process of the group at once (pnpm, the script, and the
 * embedded PostgreSQL it spawned). The script runs as plain `node scripts/start.mjs` (which
 * imports its server bundle), not through tsx's CLI, whose parent SIGKILLs its child (exit 130)
 * when the child has not confirmed a signal within 30 ms, as happens when Ctrl-C arrives while
 * start-up work still holds the event loop.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../services/kit/src/local/ports.ts';
import { repoRoot } from '../lib/paths.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function withoutSuiteEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NATS_URL: _nats, DATABASE_URL: _db, TEST_DATABASE_URL: _testDb, ...rest } = env;
  return rest;
}

async function waitReady(url: string, child: ChildProcess, ms: number, output: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && child.exitCode === null) {
    if (
      await fetch(`${url}/health/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pnpm start did not become ready at ${url}:\n${output().slice(-4000)}`);
}

describe('pnpm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-start-'));
  // mkdtemp makes it 0700; run as root, PostgreSQL (user postgres) must enter it.
  chmodSync(dataDir, 0o755);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops in order and exits 0 when Ctrl-C reaches its whole process group', async () => {
    const port = await freePort();
    let output = '';
    const child = spawn('pnpm', ['start'], {
      cwd: repoRoot,
      // A process group of its own, like a shell job: kill(-pid) is the terminal's Ctrl-C.
      detached: true,
      // As a person's shell has it: no test suite's NATS or database (the suite's shared
      // NATS would hand this fresh platform the other tests' events).
      env: {
        ...withoutSuiteEnv(process.env),
        LOG_LEVEL: 'info',
        PORT: String(port),
        PARLEY_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (b: Buffer) => {
      output += b.toString();
    });
    child.stderr?.on('data', (b: Buffer) => {
      output += b.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitReady(`http://127.0.0.1:${port}`, child, 150_000, () => output);
      // Ctrl-C at once, while the platform's start-up work may still hold the event loop.
      const pidFile = join(dataDir, 'postgres/pgdata/postmaster.pid');
      expect(existsSync(pidFile)).toBe(true);
      const postgresPid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      expect(alive(postgresPid)).toBe(true);

      process.kill(-(child.pid as number), 'SIGINT');
      const code = await Promise.race([
        exited,
        new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000)),
      ]);
      expect(code, output.slice(-4000)).toBe(0);
      // Every step ran: the last one stops PostgreSQL, which must not be left behind.
      expect(output).toContain('stopping Parley');
      for (const service of ['identity', 'booking', 'blog', 'voice', 'settings', 'email']) {
        expect(output).toContain(`${service} service stopped`);
      }
      // No service waited out its grace period (for connections left open by the gateway, say).
      // PostgreSQL's own shutdown checkpoint may take seconds on a loaded machine: its 'still
      // stopping' progress line is allowed; the 20 s bound above catches a hang.
      expect(output).not.toMatch(/overran its grace period/);
      expect(output.match(/still stopping (?!postgresql)\S+/g) ?? []).toEqual([]);
      expect(output).not.toMatch(/"level":50/);
      const deadline = Date.now() + 5000;
      while (alive(postgresPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(alive(postgresPid), 'PostgreSQL outlived pnpm start').toBe(false);
    } finally {
      if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGKILL');
    }
  }, 200_000);
});

describe('scripts that run before the Prisma clients exist', () => {
  // A fresh clone has no generated clients until these scripts generate them, so they must
  // not import a service (which imports its client) before doing so.
  it.each(['scripts/start.ts', 'scripts/admin-create.ts'])('%s imports no service statically', (file) => {
    const source = readFileSync(join(repoRoot, file), 'utf8');
    const staticImports = [...source.matchAll(/^import\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
    expect(staticImports.length).toBeGreaterThan(0);
    for (const spec of staticImports) {
      expect(spec, file).not.toMatch(/^@parley\/(identity|booking|blog|voice)(\/|$)|lib\/services\.ts$/);
    }
  });
});

describe('the server bundle pnpm start runs from', () => {
  const manifestPath = join(repoRoot, '.build/server.json');
  const prepare = () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/start.mjs'), '--prepare'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      entries: Record<string, string>;
      inputs: Record<string, [number, number]>;
      builtAt: string;
    };
  };

  it('is rebuilt when one of its sources changes, and only then', () => {
    const first = prepare();
    expect(first.inputs).toHaveProperty(['services/kit/src/app.ts']);
    expect(first.inputs).toHaveProperty(['pnpm-lock.yaml']);
    expect(existsSync(join(repoRoot, first.entries.start as string))).toBe(true);
    expect(prepare().builtAt, 'nothing changed: the same bundle').toBe(first.builtAt);

    // A touched source (same content, new mtime) is a changed input.
    const source = join(repoRoot, 'services/kit/src/errors.ts');
    const { atime } = statSync(source);
    utimesSync(source, atime, new Date(Date.now() + 1000));
    const rebuilt = prepare();
    expect(rebuilt.builtAt).not.toBe(first.builtAt);
    expect(rebuilt.inputs['services/kit/src/errors.ts']?.[0]).toBe(statSync(source).mtimeMs);
  }, 120_000);

  it('keeps npm packages outside and import.meta.url pointing at the sources', () => {
    const manifest = prepare();
    const entry = readFileSync(join(repoRoot, manifest.entries.start as string), 'utf8');
    // Migrations, fonts and workers are found beside the source files, not the bundle.
    expect(entry).not.toContain('import.meta.url');
    expect(entry).toContain(JSON.stringify(`file://${join(repoRoot, 'gateway/src/app.ts')}`));
    // Packages are imported where pnpm installed them, not copied in.
    expect(entry).toMatch(/from "file:\/\/[^"]*\/node_modules\/[^"]*fastify/);
    expect(Object.keys(manifest.inputs).some((p) => p.includes('node_modules/.pnpm'))).toBe(false);
  }, 120_000);
});
