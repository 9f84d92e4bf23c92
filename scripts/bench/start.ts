/**
 * Start benchmark: time from `pnpm start` to a ready gateway, cold (new data directory:
 * initdb, databases, migrations) and warm (same directory again). Targets ≤ 20 s and ≤ 5 s.
 * The web bundle and Prisma clients are built before timing (the first `pnpm start` on a
 * fresh clone builds them once).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWhatIsNeeded } from '../lib/build.ts';
import { startPlatform } from '../lib/platform.ts';

buildWhatIsNeeded((m) => console.log(m));
const dataDir = await mkdtemp(join(tmpdir(), 'parley-bench-start-'));
try {
  const cold = await startPlatform({ dataDir });
  await cold.stop();
  const warm = await startPlatform({ dataDir });
  await warm.stop();
  console.table([
    { run: 'cold (new data dir)', 'ready (s)': (cold.readyMs / 1000).toFixed(2), target: '≤ 20 s' },
    { run: 'warm (same data dir)', 'ready (s)': (warm.readyMs / 1000).toFixed(2), target: '≤ 5 s' },
  ]);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
