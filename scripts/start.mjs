/**
 * `pnpm start`'s launcher, plain JavaScript so it starts at Node's own speed: runs
 * scripts/start.ts from its server bundle (scripts/lib/server-bundle.ts), building the bundle
 * first (with tsx, once) when it is missing or any of its inputs changed since. Arguments pass
 * through (`--distributed`). `--prepare` builds when needed and exits (the test runner uses it
 * before the tiers that start the platform). `node --import tsx scripts/start.ts` still runs the
 * platform from source, without the bundle.
 */
import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const launchedAt = Date.now();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = join(root, '.build/server.json');

/** The bundle's entry file when every input is as it was at build time; otherwise null. */
function currentEntry() {
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    for (const [path, [mtime, size]] of Object.entries(manifest.inputs)) {
      const st = statSync(join(root, path));
      if (st.mtimeMs !== mtime || st.size !== size) return null;
    }
    return manifest.entries.start ? join(root, manifest.entries.start) : null;
  } catch {
    return null; // never built, or an input was removed
  }
}

let entry = currentEntry();
let buildMs = 0;
if (!entry) {
  const t0 = Date.now();
  const built = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/build-server.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  buildMs = Date.now() - t0;
  entry = currentEntry();
  if (!entry) {
    console.error('parley: the server bundle was built but its inputs changed meanwhile; run again');
    process.exit(1);
  }
}
if (process.argv.includes('--prepare')) process.exit(0);

// For start.ts's timings: when the launch began, and how long building took.
process.env.PARLEY_LAUNCHED_AT = String(launchedAt);
process.env.PARLEY_LAUNCH_BUILD_MS = String(buildMs);
// Source maps are written beside the bundle but not loaded by default: Node reads every
// module's map at load time (about a second here). NODE_OPTIONS=--enable-source-maps turns them
// on, and stack traces then name the TypeScript sources.
await import(pathToFileURL(entry).href);
