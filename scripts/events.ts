/**
 * `pnpm events <list|replay|discard> [...]`: the dead letters of every service of the running
 * embedded platform (`pnpm start`), or of one with `--service <name>`.
 *
 *   pnpm events list                      what failed, where and why
 *   pnpm events replay <id> [<id> ...]    run them again (a running service picks them up)
 *   pnpm events replay --all
 *   pnpm events discard <id> [<id> ...]
 *
 * Distributed deployments run the same command per service: `tsx src/main.ts events ...` with
 * the service's DATABASE_URL (in Kubernetes: `kubectl exec deploy/<service> -- node ... events list`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createPool, runEventsCommand } from '@parley/kit';
import { withDatabase } from '@parley/kit/local';
import { repoRoot } from './lib/paths.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--service');
const only = at >= 0 ? args[at + 1] : undefined;
if (at >= 0) args.splice(at, 2);

const dataDir = resolve(process.env.PARLEY_DATA_DIR ?? join(repoRoot, '.data'));
const recorded = join(dataDir, 'postgres.json');
const adminUrl =
  process.env.PARLEY_POSTGRES_URL ??
  (existsSync(recorded)
    ? (JSON.parse(readFileSync(recorded, 'utf8')) as { adminUrl: string }).adminUrl
    : undefined);
if (!adminUrl) {
  console.error(
    `No platform found under ${dataDir}: start it with \`pnpm start\` (or set PARLEY_POSTGRES_URL).`,
  );
  process.exit(2);
}
const { SERVICES } = await import('./lib/services.ts');
let code = 0;
for (const service of SERVICES) {
  if (only && service.name !== only) continue;
  const pool = createPool(withDatabase(adminUrl, `parley_${service.name}`), 2);
  try {
    code = Math.max(code, await runEventsCommand(service.name, pool, args));
  } catch (err) {
    console.error(`${service.name}: ${(err as Error).message} (is the platform running?)`);
    code = 1;
  } finally {
    await pool.end();
  }
}
process.exit(code);
