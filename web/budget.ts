import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The JavaScript a first visit to a route downloads before it can render, read from the built
 * bundle: the entry chunk, the route's lazy chunk (web/src/routes.tsx) and every chunk they
 * import statically. Chunks loaded later on demand (dialogs, idle prefetches) are not counted.
 * Sizes are gzip level 9 of each file on its own. The one place this figure and its budget are
 * defined, inside the web package so its image build has it: the web build fails over it (web/js-budget.ts), pnpm bench web and the browser tier
 * (scripts/e2e.ts) print it.
 */

/** The budget of the public home's initial JavaScript, gzipped (issue #6). */
export const JS_BUDGET_BYTES = 150 * 1024;
/** The route the budget is for. */
export const JS_BUDGET_ROUTE = '/';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

/** Where a build is read from: the web package (its src/routes.tsx) and the bundle it built. */
export interface WebBuild {
  webDir: string;
  /** The built bundle (vite's outDir); default `dist` inside webDir. */
  distDir?: string;
}

// This file sits in the web package, so the build it reads by default is the package's own.
const defaultBuild: WebBuild = { webDir: dirname(fileURLToPath(import.meta.url)) };
const distOf = (build: WebBuild) => build.distDir ?? join(build.webDir, 'dist');

function manifest(build: WebBuild): Record<string, ManifestChunk> {
  return JSON.parse(readFileSync(join(distOf(build), '.vite/manifest.json'), 'utf8'));
}

/** The module a route path loads, from the route table ('' = the index route). */
export function routeModule(path: string, build: WebBuild = defaultBuild): string {
  const router = readFileSync(join(build.webDir, 'src/routes.tsx'), 'utf8');
  const pattern =
    path === ''
      ? /index: true,\s*lazy: async \(\) => \(\{[^}]*?import\('\.\/([^']+)'\)/
      : new RegExp(
          `path: '${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}',\\s*lazy: async \\(\\) => \\(\\{[^}]*?import\\('\\./([^']+)'\\)`,
        );
  const found = router.match(pattern)?.[1];
  if (!found) throw new Error(`no lazy route for '${path}' in web/src/routes.tsx`);
  return `src/${found}`;
}

export interface InitialFile {
  file: string;
  rawBytes: number;
  gzipBytes: number;
}

export interface InitialJs {
  /** Each file of the first visit, biggest (gzipped) first. */
  files: InitialFile[];
  rawBytes: number;
  gzipBytes: number;
}

/** Initial JavaScript of a route path such as '/' or '/use-cases'. */
export function initialJs(routePath: string, build: WebBuild = defaultBuild): InitialJs {
  const chunks = manifest(build);
  const entryKey = Object.keys(chunks).find((k) => chunks[k]?.isEntry);
  const routeKey = routeModule(routePath.replace(/^\//, ''), build);
  if (!entryKey || !chunks[routeKey]) throw new Error(`the build has no chunk for ${routeKey}`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of chunks[key]?.imports ?? []) visit(dep);
  };
  visit(entryKey);
  visit(routeKey);
  const names = [...seen].map((k) => chunks[k]?.file).filter((f): f is string => !!f?.endsWith('.js'));
  const files = names
    .map((file) => {
      const body = readFileSync(join(distOf(build), file));
      return { file, rawBytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return {
    files,
    rawBytes: files.reduce((sum, f) => sum + f.rawBytes, 0),
    gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
  };
}

/** Kilobytes (1,024 bytes) with one decimal, as the budget is stated. */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export interface BudgetCheck {
  js: InitialJs;
  budgetBytes: number;
  ok: boolean;
  /** One line when within the budget; over it, the figure, the budget and the biggest files. */
  message: string;
}

/** The public home's initial JavaScript against its budget. */
export function checkJsBudget(build: WebBuild = defaultBuild, budgetBytes = JS_BUDGET_BYTES): BudgetCheck {
  const js = initialJs(JS_BUDGET_ROUTE, build);
  const figure = `initial JavaScript of ${JS_BUDGET_ROUTE}: ${kb(js.gzipBytes)} gzipped in ${js.files.length} files`;
  const ok = js.gzipBytes <= budgetBytes;
  if (ok) return { js, budgetBytes, ok, message: `${figure} (budget ${kb(budgetBytes)})` };
  const biggest = js.files
    .slice(0, 8)
    .map((f) => `  ${f.file}  ${kb(f.gzipBytes)} gzipped (${kb(f.rawBytes)} raw)`)
    .join('\n');
  const message = [
    `${figure}, over its budget of ${kb(budgetBytes)} by ${kb(js.gzipBytes - budgetBytes)}.`,
    'Biggest files:',
    biggest,
    `Find what grew with the sourcemaps of these files (${distOf(build)}/assets/*.js.map); the budget is JS_BUDGET_BYTES in web/budget.ts.`,
  ].join('\n');
  return { js, budgetBytes, ok, message };
}
