/**
 * Writes the prerendered public pages (src/entry-server.tsx, built by `vite build --ssr`)
 * into dist/prerendered/ (PRERENDER_DIR), each inside the built index.html, plus a manifest the gateway
 * reads to serve them. Run by `pnpm --filter @parley/web run build` after both builds.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// Overridable so a test can prerender into a scratch copy (scripts/test/web-build.int.test.ts).
const dist = process.env.PRERENDER_WEB_DIST ?? join(here, 'dist');
const ssrDist = process.env.PRERENDER_SSR_DIST ?? join(here, 'dist-ssr');
const ssrEntry = join(ssrDist, 'entry-server.js');
const { render, PRERENDERED_ROUTES, PRERENDER_DIR } = await import(pathToFileURL(ssrEntry).href);

const template = readFileSync(join(dist, 'index.html'), 'utf8');
const ROOT = '<div id="root"></div>';
if (!template.includes(ROOT)) throw new Error(`dist/index.html has no ${ROOT}`);
const out = join(dist, PRERENDER_DIR);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const manifest = {};
for (const { path, queryMatters } of PRERENDERED_ROUTES) {
  const started = performance.now();
  const markup = await render(path);
  // The page's own <title>/<meta>/<link> (React hoists them) replace the shell's title.
  const head = markup.match(/^(?:<(?:title|meta|link)\b[^>]*>(?:[^<]*<\/title>)?)+/)?.[0] ?? '';
  const body = markup.slice(head.length);
  let html = template.replace(ROOT, `<div id="root" data-prerendered="${path}">${body}</div>`);
  if (head) html = html.replace(/<title>[^<]*<\/title>/, '').replace('</head>', `${head}\n  </head>`);
  const file = `${path === '/' ? 'home' : path.slice(1).replaceAll('/', '_')}.html`;
  writeFileSync(join(out, file), html);
  manifest[path] = { file, queryMatters };
  console.log(
    `prerendered ${path} → ${PRERENDER_DIR}/${file} (${(html.length / 1024).toFixed(1)} KB, ${Math.round(performance.now() - started)} ms)`,
  );
}
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
rmSync(ssrDist, { recursive: true, force: true });
