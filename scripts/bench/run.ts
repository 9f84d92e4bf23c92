/** `pnpm bench <name>`: runs scripts/bench/<name>.ts. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../lib/paths.ts';

const name = process.argv[2];
const dir = join(repoRoot, 'scripts/bench');
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.replace(/\.ts$/, ''));
if (!name || !existsSync(join(dir, `${name}.ts`))) {
  console.error(`usage: pnpm bench <${available.join('|')}>`);
  process.exit(2);
}
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(dir, `${name}.ts`), ...process.argv.slice(3)],
  {
    stdio: 'inherit',
    cwd: repoRoot,
  },
);
process.exit(r.status ?? 1);
