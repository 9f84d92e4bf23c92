/**
 * Fails when a workspace package declares a dependency nothing uses (run by `pnpm lint`).
 * A dependency counts as used when a file of its package (sources, tests, configs, scripts;
 * not node_modules or build output) names it as a module ('name' or 'name/...'), or when one of
 * its package.json scripts runs its command. @types/x is used when x is (or x is a Node
 * built-in). TOOLS lists the few used another way, each with where.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Used without an import or a script line naming them. */
const TOOLS = {
  // The repository root's tools: the test and lint scripts (scripts/test.sh) run them.
  // The root's are the workspace's: any file of the repository may use them.
  '.': ['@biomejs/biome', 'typescript', 'vitest', 'tsx', '@types/node'],
  // Generated Prisma clients (src/generated, not committed) import @prisma/client; prisma is
  // the CLI of `pnpm generate`; prisma6 (Prisma 6's WASM schema engine) is resolved from each
  // service by services/kit/src/testing/prisma-sql.ts for the migrations-versus-schema tests.
  'services/*': ['@prisma/client', 'prisma', 'prisma6'],
  // Tailwind is imported by web/src/styles.css (`@import "tailwindcss"`), the types by tsconfig.
  web: ['@types/react', '@types/react-dom'],
};
const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'dist-ssr',
  'generated',
  '.build',
  'test-results',
  'playwright-report',
]);
const TEXT = /\.(m?[jt]sx?|cjs|json|css|html|ya?ml|sh)$/;

function workspaceDirs() {
  const dirs = ['.', 'gateway', 'web', 'scripts'];
  for (const s of readdirSync(join(root, 'services'))) dirs.push(`services/${s}`);
  return dirs.filter((d) => existsSync(join(root, d, 'package.json')));
}

function filesOf(dir, isRoot) {
  const out = [];
  const walk = (d, depth) => {
    for (const name of readdirSync(d)) {
      if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (isRoot && depth === 0 && ['charts', 'k8s', 'docs'].includes(name)) continue;
        walk(p, depth + 1);
      } else if (TEXT.test(name) && name !== 'package.json' && st.size < 2_000_000) out.push(p);
    }
  };
  walk(join(root, dir), 0);
  return out;
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const problems = [];
for (const dir of workspaceDirs()) {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const deps = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
  if (!deps.length) continue;
  const text = filesOf(dir, dir === '.')
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const scripts = Object.values(pkg.scripts ?? {}).join('\n');
  const tools = [...(TOOLS[dir] ?? []), ...(dir.startsWith('services/') ? TOOLS['services/*'] : [])];
  const named = (name) => new RegExp(`['"\`]${escapeRe(name)}(/[^'"\`]*)?['"\`]`).test(text);
  const runs = (name) => {
    const bin = name.replace(/^@[^/]+\//, '');
    return new RegExp(`(^|[\\s;&|(])${escapeRe(bin)}(\\s|$)`, 'm').test(scripts);
  };
  for (const dep of deps) {
    if (tools.includes(dep) || named(dep) || runs(dep)) continue;
    if (dep.startsWith('@types/')) {
      const target = dep.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2');
      if (builtinModules.includes(target) || target === 'node' || named(target) || deps.includes(target))
        continue;
    }
    if (dep === 'tailwindcss' && /@import\s+['"]tailwindcss['"]/.test(text)) continue;
    problems.push(
      `${dir === '.' ? 'package.json' : `${dir}/package.json`}: ${dep} is declared but nothing uses it`,
    );
  }
}
if (problems.length) {
  console.error(problems.join('\n'));
  console.error(
    'Remove it (pnpm --filter <package> remove <dependency>), or say in scripts/check-deps.mjs how it is used.',
  );
  process.exit(1);
}
console.log('dependencies: every declared dependency is used');
