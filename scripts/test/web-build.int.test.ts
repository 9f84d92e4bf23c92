/**
 * The web build returns as soon as its pages are written. The prerender step once stayed alive
 * for five minutes after writing every page (a 5-minute garbage-collection timer of the server
 * render's query client), and every fresh `pnpm start` and `pnpm test` waited for it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withBuildLock } from '../lib/build.ts';
import { repoRoot } from '../lib/paths.ts';

const web = join(repoRoot, 'web');
// Inside web/: the server bundle imports react-dom and friends from web/node_modules.
const scratch = mkdtempSync(join(web, '.prerender-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the web build', () => {
  it('prerenders every public page and exits right after', async () => {
    // The server bundle, built into a scratch folder (web/dist stays as it is).
    const ssr = spawnSync(
      'pnpm',
      [
        'exec',
        'vite',
        'build',
        '--ssr',
        'src/entry-server.tsx',
        '--outDir',
        join(scratch, 'ssr'),
        '--emptyOutDir',
      ],
      { cwd: web, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
    );
    expect(ssr.status, ssr.stderr).toBe(0);
    mkdirSync(join(scratch, 'dist'));
    cpSync(join(web, 'index.html'), join(scratch, 'dist/index.html'));

    const t0 = Date.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [join(web, 'prerender.mjs')], {
        cwd: web,
        env: {
          ...process.env,
          PRERENDER_WEB_DIST: join(scratch, 'dist'),
          PRERENDER_SSR_DIST: join(scratch, 'ssr'),
        },
        stdio: 'ignore',
      });
      child.once('exit', resolve);
    });
    const seconds = (Date.now() - t0) / 1000;
    expect(code).toBe(0);
    const manifest = JSON.parse(
      readFileSync(join(scratch, 'dist/prerendered/manifest.json'), 'utf8'),
    ) as Record<string, { file: string }>;
    expect(Object.keys(manifest)).toContain('/');
    for (const { file } of Object.values(manifest))
      expect(existsSync(join(scratch, 'dist/prerendered', file))).toBe(true);
    // Rendering takes well under a second per page; anything near the old 5 minutes is the bug.
    expect(seconds).toBeLessThan(60);
  }, 180_000);

  it('lets one build run at a time: a second waits for the lock and runs after', () => {
    const lock = join(scratch, 'lock');
    const order: string[] = [];
    withBuildLock(() => {
      order.push('outer');
      // A second process trying meanwhile waits; a dead holder's lock is taken over.
      const other = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `import('${join(repoRoot, 'scripts/lib/build.ts')}').then((b) => b.withBuildLock(() => console.log('inner'), ${JSON.stringify(lock)}, 500)).catch((e) => { console.log(String(e.message)); process.exit(3); })`,
        ],
        { encoding: 'utf8' },
      );
      order.push(
        other.status === 3 && /is held by process/.test(other.stdout)
          ? 'waited'
          : `not locked: ${other.stdout}`,
      );
    }, lock);
    expect(order).toEqual(['outer', 'waited']);
    expect(existsSync(lock)).toBe(false);
  });
});
