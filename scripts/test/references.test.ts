/**
 * A comment or doc that names a file of the repository names one that exists: every path
 * written from the repository's root (services/…, gateway/…, web/…, scripts/…, docs/…,
 * charts/…, k8s/…, docker/…) in a tracked text file resolves to a tracked file or folder.
 * Build outputs and generated code are not tracked, so they are named in BUILT.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../lib/paths.ts';

const ROOTS = ['services', 'gateway', 'web', 'scripts', 'docs', 'charts', 'k8s', 'docker', '.ci'];
const TEXT = /\.(ts|tsx|mjs|js|md|sh|ya?ml|json|prisma|sql|css|html)$|(^|\/)Dockerfile$|^\.ci\/run$/;
/** What builds and installs make, never committed (.gitignore). */
const BUILT = [
  /\/node_modules(\/|$)/,
  /^web\/dist(\/|$)/,
  /^web\/\.build\.lock$/,
  /^services\/[\w-]+\/src\/generated(\/|$)/,
];
/** A migration is never edited once applied (its checksum is recorded): it names files as they were. */
const MIGRATION = /\/prisma\/migrations\/[^/]+\/migration\.sql$/;
const REF = new RegExp(
  `(?<![\\w./@$-])((?:${ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[\\w./-]*\\w)`,
  'g',
);

function tracked(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter(Boolean);
}

describe('references to files of the repository', () => {
  it('name files and folders that exist', () => {
    const files = tracked();
    const known = new Set(files);
    for (const f of files)
      for (let i = f.indexOf('/'); i > 0; i = f.indexOf('/', i + 1)) known.add(f.slice(0, i));
    const missing: string[] = [];
    for (const file of files) {
      if (!TEXT.test(file) || file === 'pnpm-lock.yaml' || MIGRATION.test(file)) continue;
      const lines = readFileSync(join(repoRoot, file), 'utf8').split('\n');
      lines.forEach((line, n) => {
        for (const match of line.matchAll(REF)) {
          const path = (match[1] as string).replace(/\.+$/, '');
          // A placeholder (<name>, *, {a,b}) follows the match: a pattern, not a file.
          const next = line[(match.index ?? 0) + path.length] ?? '';
          if (next !== '' && '<*{'.includes(next)) continue;
          if (known.has(path) || BUILT.some((b) => b.test(path))) continue;
          missing.push(`${file}:${n + 1}: ${path}`);
        }
      });
    }
    expect(missing).toEqual([]);
  });
});
