/**
 * The production build of the container images (docker/Dockerfile): every process (the gateway
 * and the six services) bundled by esbuild into plain JavaScript, npm packages included, with
 * the files found at run time copied beside it in the repository's layout:
 *
 *   <out>/dist/<process>.mjs, <out>/dist/chunks/   one bundle per process, shared chunks
 *   <out>/services/<name>/prisma/migrations/       what `migrate` and MIGRATE_ON_START apply
 *   <out>/services/kit/migrations/                 the local bus's schema
 *   <out>/services/voice/src/.../local-worker.mjs  the speech worker (a thread loads it by path)
 *   <out>/node_modules/                            only the packages a bundle cannot hold
 *
 * A workspace source's `import.meta.url` becomes the URL its file has under the image's root
 * (`rootUrl`, file:///app/), so `new URL('../prisma/migrations', import.meta.url)` finds the
 * copied migrations whatever chunk the code lands in. Packages with native addons or with
 * files they load by path stay outside the bundle (EXTERNAL) and are copied, with what they
 * depend on, into node_modules. No TypeScript runs in the image: tsx is not in it.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { repoRoot } from './paths.ts';

/** Process name → entry source. */
export const PROCESSES: Record<string, string> = {
  gateway: 'gateway/src/main.ts',
  identity: 'services/identity/src/main.ts',
  booking: 'services/booking/src/main.ts',
  blog: 'services/blog/src/main.ts',
  voice: 'services/voice/src/main.ts',
  email: 'services/email/src/main.ts',
  settings: 'services/settings/src/main.ts',
};

/**
 * npm packages kept out of the bundles: a native addon (loaded through a platform package),
 * or files read by path at run time (fonts, WASM, a worker's own imports). Each is copied
 * into node_modules with its dependencies.
 */
export const EXTERNAL = [
  '@node-rs/argon2',
  '@resvg/resvg-js',
  'dejavu-fonts-ttf',
  'espeak-ng',
  'wasm-media-encoders',
];

/** Files loaded by path at run time, copied as they are (repository-relative). */
function runtimeFiles(): string[] {
  const files: string[] = ['services/voice/src/providers/speech/local-worker.mjs'];
  for (const svc of readdirSync(join(repoRoot, 'services'))) {
    if (existsSync(join(repoRoot, 'services', svc, 'prisma/migrations')))
      files.push(`services/${svc}/prisma/migrations`);
  }
  files.push('services/kit/migrations');
  return files;
}

const NODE_MODULES = /[\\/]node_modules[\\/]/;
const externalName = (spec: string) => EXTERNAL.find((e) => spec === e || spec.startsWith(`${e}/`));

function imageUrlPlugin(rootUrl: string): Plugin {
  return {
    name: 'parley-image-urls',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { external: true };
        return externalName(args.path) ? { path: args.path, external: true } : undefined;
      });
      b.onLoad({ filter: /\.(m?ts|m?js)$/ }, async (args) => {
        if (NODE_MODULES.test(args.path)) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const url = new URL(relative(repoRoot, args.path), rootUrl).href;
        return {
          contents: source.replaceAll('import.meta.url', JSON.stringify(url)),
          loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}

/** The folder of package `name` as Node would find it from `fromDir` (package.json exports aside). */
function findPackageDir(name: string, fromDir: string): string | null {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return null;
  }
}

/** Copies an npm package (as found from `fromDir`) and, recursively, what it depends on. */
function copyPackage(
  name: string,
  fromDir: string,
  outModules: string,
  done: Set<string>,
  optional = false,
): void {
  if (done.has(name)) return;
  const dir = findPackageDir(name, fromDir);
  if (!dir) {
    if (optional) return; // an optional dependency for another platform
    throw new Error(`${name} (needed from ${relative(repoRoot, fromDir)}) is not installed`);
  }
  done.add(name);
  cpSync(dir, join(outModules, name), { recursive: true, dereference: true });
  const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  for (const dep of Object.keys(meta.dependencies ?? {})) copyPackage(dep, dir, outModules, done);
  for (const dep of Object.keys(meta.optionalDependencies ?? {}))
    copyPackage(dep, dir, outModules, done, true);
}

/** The workspace package that declares `name`, to resolve it as its importer would. */
function declaringDir(name: string): string {
  for (const dir of ['gateway', ...readdirSync(join(repoRoot, 'services')).map((s) => `services/${s}`)]) {
    const file = join(repoRoot, dir, 'package.json');
    if (!existsSync(file)) continue;
    const meta = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string> };
    if (meta.dependencies?.[name]) return join(repoRoot, dir);
  }
  throw new Error(`no workspace package depends on ${name}`);
}

export interface ImageBundleResult {
  ms: number;
  bytes: number;
}

/** Builds the image's /app tree into `outDir` (emptied first). */
export async function buildImageBundle(outDir: string, rootUrl = 'file:///app/'): Promise<ImageBundleResult> {
  const t0 = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    absWorkingDir: repoRoot,
    entryPoints: Object.fromEntries(Object.entries(PROCESSES)),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    outdir: join(outDir, 'dist'),
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);",
    },
    keepNames: true,
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
    sourcemap: false,
    logLevel: 'warning',
    plugins: [imageUrlPlugin(rootUrl)],
  });
  for (const file of runtimeFiles()) cpSync(join(repoRoot, file), join(outDir, file), { recursive: true });
  const done = new Set<string>();
  for (const name of EXTERNAL) copyPackage(name, declaringDir(name), join(outDir, 'node_modules'), done);
  return { ms: Date.now() - t0, bytes: sizeOf(outDir) };
}

function sizeOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}
