/**
 * The budget of the public home's JavaScript (web/budget.ts) and the build step that
 * enforces it (web/js-budget.ts), against a fake build: a route table, a vite manifest and
 * chunks of random bytes (gzip cannot shrink them, so a file's gzipped size is about its size).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkJsBudget, initialJs, JS_BUDGET_BYTES } from '../../web/budget.ts';
import { jsBudget } from '../../web/js-budget.ts';

const KB = 1024;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A built web package whose home loads `entryKb` + `homeKb` + a shared chunk, and a dialog later. */
function fakeBuild(entryKb: number, homeKb: number): string {
  const webDir = mkdtempSync(join(tmpdir(), 'web-budget-'));
  dirs.push(webDir);
  mkdirSync(join(webDir, 'src'));
  writeFileSync(
    join(webDir, 'src/routes.tsx'),
    `const table = [{ children: [
  { index: true, lazy: async () => ({ Component: (await import('./pages/home.tsx')).default }) },
  { path: 'blog', lazy: async () => ({ Component: (await import('./blog/list-page.tsx')).default }) },
] }];\n`,
  );
  mkdirSync(join(webDir, 'dist/.vite'), { recursive: true });
  mkdirSync(join(webDir, 'dist/assets'));
  const chunk = (file: string, kb: number) => writeFileSync(join(webDir, 'dist', file), randomBytes(kb * KB));
  chunk('assets/index-a1.js', entryKb);
  chunk('assets/home-b2.js', homeKb);
  chunk('assets/icons-c3.js', 2);
  chunk('assets/dialog-d4.js', 100);
  chunk('assets/list-page-e5.js', 100);
  writeFileSync(join(webDir, 'dist/assets/index-a1.css'), randomBytes(50 * KB));
  writeFileSync(
    join(webDir, 'dist/.vite/manifest.json'),
    JSON.stringify({
      'index.html': {
        file: 'assets/index-a1.js',
        isEntry: true,
        imports: ['_icons-c3.js'],
        dynamicImports: ['src/components/dialog.tsx', 'src/pages/home.tsx', 'src/blog/list-page.tsx'],
        css: ['assets/index-a1.css'],
      },
      '_icons-c3.js': { file: 'assets/icons-c3.js' },
      'src/pages/home.tsx': { file: 'assets/home-b2.js', imports: ['index.html', '_icons-c3.js'] },
      'src/components/dialog.tsx': { file: 'assets/dialog-d4.js', imports: ['index.html'] },
      'src/blog/list-page.tsx': { file: 'assets/list-page-e5.js', imports: ['index.html'] },
    }),
  );
  return webDir;
}

describe('the initial JavaScript of /', () => {
  it('counts the entry, the route and their static imports, not chunks loaded later', () => {
    const js = initialJs('/', { webDir: fakeBuild(60, 20) });
    expect(js.files.map((f) => f.file)).toEqual([
      'assets/index-a1.js',
      'assets/home-b2.js',
      'assets/icons-c3.js',
    ]);
    expect(js.rawBytes).toBe(82 * KB);
    // Random bytes: gzip adds a few bytes per block and saves none.
    expect(js.gzipBytes).toBeGreaterThanOrEqual(82 * KB);
    expect(js.gzipBytes).toBeLessThan(83 * KB);
  });

  it('passes under the budget', () => {
    const check = checkJsBudget({ webDir: fakeBuild(100, 20) });
    expect(check.ok).toBe(true);
    expect(check.budgetBytes).toBe(JS_BUDGET_BYTES);
    expect(check.message).toMatch(
      /^initial JavaScript of \/: 122\.\d KB gzipped in 3 files \(budget 150\.0 KB\)$/,
    );
  });

  it('fails over the budget, naming the figure, the budget and the biggest files', () => {
    const check = checkJsBudget({ webDir: fakeBuild(140, 20) });
    expect(check.ok).toBe(false);
    expect(check.message).toMatch(
      /initial JavaScript of \/: 162\.\d KB gzipped in 3 files, over its budget of 150\.0 KB by 12\.\d KB/,
    );
    const lines = check.message.split('\n');
    expect(lines[2]).toMatch(/assets\/index-a1\.js {2}140\.\d KB gzipped \(140\.0 KB raw\)/);
    expect(lines[3]).toMatch(/assets\/home-b2\.js {2}20\.\d KB gzipped/);
    expect(check.message).not.toMatch(/dialog-d4|list-page-e5/);
  });
});

describe('the web build', () => {
  const run = (webDir: string, budgetBytes?: number, ssr = false) => {
    const plugin = jsBudget(budgetBytes);
    const applies = (plugin.apply as (c: object, env: object) => boolean)(
      {},
      { command: 'build', mode: 'production', isSsrBuild: ssr },
    );
    if (!applies) return { applies, info: vi.fn() };
    (plugin.configResolved as (c: object) => void)({ root: webDir, build: { outDir: 'dist' } });
    const info = vi.fn();
    const context = {
      info,
      error: (message: string) => {
        throw new Error(message);
      },
    };
    (plugin.writeBundle as unknown as { handler: (this: typeof context) => void }).handler.call(context);
    return { applies, info };
  };

  it('goes on under the budget and says the figure', () => {
    const { info } = run(fakeBuild(100, 20));
    expect(info).toHaveBeenCalledWith(expect.stringMatching(/122\.\d KB gzipped .*budget 150\.0 KB/));
  });

  it('fails over the budget', () => {
    expect(() => run(fakeBuild(140, 20))).toThrow(
      /162\.\d KB gzipped in 3 files, over its budget of 150\.0 KB/,
    );
    // The same bundle against a larger budget passes: the limit is the one given.
    expect(() => run(fakeBuild(140, 20), 200 * KB)).not.toThrow();
  });

  it('leaves the prerenderer’s server build alone', () => {
    expect(run(fakeBuild(140, 20), undefined, true).applies).toBe(false);
  });
});
