import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from './paths.ts';

/**
 * The JavaScript a first visit to a route downloads before it can render, read from the built
 * bundle: the entry chunk, the route's lazy chunk (web/src/routes.tsx) and every chunk they
 * import statically. Chunks loaded later on demand (dialogs, idle prefetches) are not counted.
 */

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

const webDir = join(repoRoot, 'web');

function manifest(): Record<string, ManifestChunk> {
  return JSON.parse(readFileSync(join(webDir, 'dist/.vite/manifest.json'), 'utf8'));
}

/** The module a route path loads, from the route table ('' = the index route). */
export function routeModule(path: string): string {
  const router = readFileSync(join(webDir, 'src/routes.tsx'), 'utf8');
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

export interface InitialJs {
  files: string[];
  rawBytes: number;
  gzipBytes: number;
}

/** Initial JavaScript of a route path such as '/' or '/use-cases'. */
export function initialJs(routePath: string): InitialJs {
  const chunks = manifest();
  const entryKey = Object.keys(chunks).find((k) => chunks[k]?.isEntry);
  const routeKey = routeModule(routePath.replace(/^\//, ''));
  if (!entryKey || !chunks[routeKey]) throw new Error(`the build has no chunk for ${routeKey}`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of chunks[key]?.imports ?? []) visit(dep);
  };
  visit(entryKey);
  visit(routeKey);
  const files = [...seen].map((k) => chunks[k]?.file).filter((f): f is string => !!f?.endsWith('.js'));
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const body = readFileSync(join(webDir, 'dist', file));
    rawBytes += body.length;
    gzipBytes += gzipSync(body, { level: 9 }).length;
  }
  return { files, rawBytes, gzipBytes };
}
