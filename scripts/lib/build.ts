import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
  for (const service of readdirSync(join(repoRoot, 'services'))) {
    const schema = join(repoRoot, 'services', service, 'prisma/schema.prisma');
    if (!existsSync(schema)) continue;
    const generated = join(repoRoot, 'services', service, 'src/generated/prisma/client.ts');
    if (newestMtime(generated) < newestMtime(schema)) {
      log(`generating the Prisma client of ${service}`);
      run('pnpm', ['--filter', `@parley/${service}`, 'run', 'generate'], {
        PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true',
      });
    }
  }
}

function buildWeb(log: (msg: string) => void): void {
  const dist = join(repoRoot, 'web/dist/index.html');
  const sources = Math.max(
    newestMtime(join(repoRoot, 'web/src')),
    newestMtime(join(repoRoot, 'web/index.html')),
    newestMtime(join(repoRoot, 'services/contracts/src')),
  );
  if (process.env.PARLEY_SKIP_WEB_BUILD !== 'true' && newestMtime(dist) < sources) {
    log('building the web bundle');
    // Always a production build: a NODE_ENV inherited from a test runner (vitest sets 'test')
    // would otherwise ship React's development build.
    run('pnpm', ['--filter', '@parley/web', 'run', 'build'], { NODE_ENV: 'production' });
  }
}
