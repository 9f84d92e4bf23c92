/**
 * Builds what `pnpm start` needs and is missing or stale (Prisma clients, the production web
 * bundle, the server bundle), under the build lock: what test.sh runs before the tiers that
 * start the platform.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildWhatIsNeeded } from './lib/build.ts';
import { repoRoot } from './lib/paths.ts';

buildWhatIsNeeded((m) => console.log(m));
// The launcher builds the server bundle only when it is missing or stale.
const prepared = spawnSync(process.execPath, [join(repoRoot, 'scripts/start.mjs'), '--prepare'], {
  stdio: 'inherit',
});
if (prepared.status !== 0) process.exit(prepared.status ?? 1);
