/**
 * The server bundle `pnpm start` runs: scripts/start.ts and every workspace module it imports
 * (services, kit, contracts, gateway), compiled once by esbuild into .build/server-<id>/.
 * Loading TypeScript through tsx's loader hooks costs more than the platform's own start (every
 * import, node_modules included, crosses the hooks); a bundle loads at Node's native speed.
 *
 * - npm packages stay outside the bundle, imported by the absolute path they resolve to from the
 *   importing file (pnpm keeps them per package), so Node loads them as it would from source.
 * - `import.meta.url` keeps its source file's URL: migrations, fonts and workers are found
 *   beside the source as before.
 * - Dynamic `import()`s become chunks of their own: an adapter loaded only when configured
 *   (OpenAI, Twilio, SES, the brand crawler) costs nothing at start.
 * - The manifest (.build/server.json) lists every input with its mtime and size; the launcher
 *   (scripts/start.mjs) rebuilds when one differs. Lockfile and installed-modules state are
 *   inputs too, since the bundle names resolved package paths. A build goes to a new folder and
 *   the manifest is replaced by a rename, so two starts never see half a bundle.
 */
import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { repoRoot } from './paths.ts';

export const BUILD_DIR = join(repoRoot, '.build');
export const MANIFEST = join(BUILD_DIR, 'server.json');
/** Entry points, relative to the repository root. */
const ENTRIES = ['scripts/start.ts'];
/** Old bundles are removed after this long (a running platform may still load their chunks). */
const KEEP_OLD_MS = 24 * 60 * 60_000;

export interface ServerManifest {
  /** Entry file per entry point name, relative to the repository root. */
  entries: Record<string, string>;
  /** Input path (repository-relative) → [mtimeMs, size] when the bundle was built. */
  inputs: Record<string, [number, number]>;
  builtAt: string;
}

/** Inputs outside the module graph that still change what the bundle must be. */
function extraInputs(): string[] {
  const schemas = readdirSync(join(repoRoot, 'services'))
    .map((s) => `services/${s}/prisma/schema.prisma`)
    .filter((p) => exists(p));
  return ['pnpm-lock.yaml', 'node_modules/.modules.yaml', ...schemas].filter((p) => exists(p));
}

function exists(repoPath: string): boolean {
  try {
    statSync(join(repoRoot, repoPath));
    return true;
  } catch {
    return false;
  }
}

const NODE_MODULES = /[\\/]node_modules[\\/]/;

/** npm packages external by resolved absolute path; workspace sources keep import.meta.url. */
const workspaceOnly: Plugin = {
  name: 'parley-workspace-only',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'resolving' || args.path.startsWith('@parley/')) return undefined;
      if (args.path.startsWith('node:')) return { external: true };
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'resolving',
      });
      if (resolved.errors.length) return { errors: resolved.errors };
      if (!resolved.path || resolved.external) return { path: args.path, external: true };
      return { path: pathToFileURL(resolved.path).href, external: true };
    });
    b.onLoad({ filter: /\.(m?ts|m?js)$/ }, async (args) => {
      if (NODE_MODULES.test(args.path)) return undefined;
      const source = await readFile(args.path, 'utf8');
      const contents = source.includes('import.meta.url')
        ? source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        : source;
      return { contents, loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** Builds the bundle into a new folder and points the manifest at it. Returns the manifest. */
export async function buildServerBundle(log: (msg: string) => void): Promise<ServerManifest> {
  const t0 = Date.now();
  const outdir = join(BUILD_DIR, `server-${Date.now().toString(36)}-${process.pid}`);
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: Object.fromEntries(ENTRIES.map((e) => [e.replace(/^.*\/|\.ts$/g, ''), e])),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    // Resolve as Node does: no "module" condition or field.
    conditions: [],
    mainFields: ['main'],
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    // Error and class names in logs as in the source.
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
    plugins: [workspaceOnly],
  });
  const inputs: ServerManifest['inputs'] = {};
  for (const path of [...Object.keys(result.metafile.inputs), ...extraInputs()]) {
    const st = statSync(join(repoRoot, path));
    inputs[path] = [st.mtimeMs, st.size];
  }
  const entries: ServerManifest['entries'] = {};
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint) entries[meta.entryPoint.replace(/^.*\/|\.ts$/g, '')] = out;
  }
  const manifest: ServerManifest = { entries, inputs, builtAt: new Date().toISOString() };
  const tmp = `${MANIFEST}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(manifest)}\n`);
  renameSync(tmp, MANIFEST);
  removeOldBundles(relative(BUILD_DIR, outdir));
  log(`server bundle built in ${Date.now() - t0} ms (${Object.keys(result.metafile.inputs).length} modules)`);
  return manifest;
}

function removeOldBundles(current: string) {
  for (const name of readdirSync(BUILD_DIR)) {
    if (!name.startsWith('server-') || name === current) continue;
    const path = join(BUILD_DIR, name);
    if (Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS) rmSync(path, { recursive: true, force: true });
  }
}
