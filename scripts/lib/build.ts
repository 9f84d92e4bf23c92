import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.ts';

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'generated') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${r.status}`);
}

/** Generates Prisma clients and builds the web bundle when their sources changed. */
export function buildWhatIsNeeded(log: (msg: string) => void): void {
  generatePrismaClients(log);
  buildWeb(log);
}

/** Generates each service's Prisma client when it is missing or older than its schema. */
export function generatePrismaClients(log: (msg: string) => void): void {
  const stale = () =>
    readdirSync(join(repoRoot, 'services')).filter((service) => {
      const schema = join(repoRoot, 'services', service, 'prisma/schema.prisma');
      if (!existsSync(schema)) return false;
      const generated = join(repoRoot, 'services', service, 'src/generated/prisma/client.ts');
      return newestMtime(generated) < newestMtime(schema);
    });
  if (!stale().length) return;
  withBuildLock(() => {
    for (const service of stale()) {
      log(`generating the Prisma client of ${service}`);
      run('pnpm', ['--filter', `@parley/${service}`, 'run', 'generate'], {
        PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true',
      });
    }
  });
}

/** Written into web/dist last: the bundle is complete and was built from these sources. */
const STAMP = join(repoRoot, 'web/dist/.build-stamp.json');
const LOCK = join(repoRoot, 'web/.build.lock');

function webSourcesMtime(): number {
  return Math.max(
    newestMtime(join(repoRoot, 'web/src')),
    newestMtime(join(repoRoot, 'web/index.html')),
    newestMtime(join(repoRoot, 'web/prerender.mjs')),
    newestMtime(join(repoRoot, 'services/contracts/src')),
  );
}

function webIsCurrent(sources: number): boolean {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8')) as { sources?: number };
    return (stamp.sources ?? 0) >= sources;
  } catch {
    return false; // no stamp: never built, or a build that did not finish
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `fn` holding an exclusive lock file (pid inside): two `pnpm start` on one tree build
 * the web one after the other, never into the same web/dist at once. A lock left by a dead
 * process is taken over.
 */
export function withBuildLock<T>(fn: () => T, lockPath = LOCK, timeoutMs = 15 * 60_000): T {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(lockPath, 'utf8').trim() || 0);
      if (holder && !alive(holder)) {
        unlinkSync(lockPath);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${lockPath} is held by process ${holder}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return fn();
  } finally {
    unlinkSync(lockPath);
  }
}

export function buildWeb(log: (msg: string) => void): void {
  if (process.env.PARLEY_SKIP_WEB_BUILD === 'true') return;
  const sources = webSourcesMtime();
  if (webIsCurrent(sources)) return;
  withBuildLock(() => {
    // Another process may have built it while we waited for the lock.
    if (webIsCurrent(sources)) return;
    log('building the web bundle');
    // Always a production build: a NODE_ENV inherited from a test runner (vitest sets 'test')
    // would otherwise ship React's development build.
    run('pnpm', ['--filter', '@parley/web', 'run', 'build'], { NODE_ENV: 'production' });
    writeFileSync(STAMP, `${JSON.stringify({ sources, builtAt: new Date().toISOString() })}\n`);
  });
}
