/**
 * The seven Parley images as scripts/images.sh builds them, from the committed tree (HEAD, as a
 * fresh clone has it), on the local bases:
 *   (a) clean: the build stage with no layer cache, then the seven targets — target ≤ 360 s;
 *   (b) a rebuild after a one-file change in a service — target ≤ 90 s;
 *   (c) each image ≤ 250 MB.
 * Bases are made first when missing (`scripts/images.sh --bases-only`) and not timed: they are
 * built once per machine. Tags are parley-bench/<process>:clean|rebuild, removed at the end.
 * Exits non-zero when a target is missed.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../lib/paths.ts';

const PROCESSES = ['gateway', 'identity', 'booking', 'blog', 'voice', 'email', 'settings'];
const TARGETS = { cleanSeconds: 360, rebuildSeconds: 90, megabytes: 250 };
const nodeVersion = readFileSync(join(repoRoot, '.node-version'), 'utf8').trim();
const buildArgs = [
  '--build-arg',
  `BUILD_IMAGE=parley-local/node-build:${nodeVersion}`,
  '--build-arg',
  `NODE_IMAGE=parley-local/node:${nodeVersion}`,
];

function run(cmd: string, args: string[], cwd = repoRoot): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) {
    console.error(`${cmd} ${args.join(' ')} failed:\n${(r.stdout ?? '').slice(-3000)}${r.stderr ?? ''}`);
    process.exit(1);
  }
  return r.stdout;
}

/** Builds the seven targets; the first with `noCache` when asked. Returns seconds per process. */
function buildAll(context: string, tag: string, noCache: boolean): Record<string, number> {
  const seconds: Record<string, number> = {};
  for (const [i, p] of PROCESSES.entries()) {
    const t0 = Date.now();
    const cache = noCache && i === 0 ? ['--no-cache'] : [];
    run(
      'docker',
      [
        'build',
        ...cache,
        ...buildArgs,
        '-f',
        'docker/Dockerfile',
        '--target',
        p,
        '-t',
        `parley-bench/${p}:${tag}`,
        '.',
      ],
      context,
    );
    seconds[p] = (Date.now() - t0) / 1000;
  }
  return seconds;
}

const total = (s: Record<string, number>) => Object.values(s).reduce((a, b) => a + b, 0);

run('bash', ['scripts/images.sh', '--bases-only']);
const context = mkdtempSync(join(tmpdir(), 'parley-images-bench-'));
let missed = false;
try {
  // The committed tree only: what a fresh clone builds (no node_modules, no local outputs).
  run('bash', ['-c', `git archive HEAD | tar -x -C '${context}'`]);

  const clean = buildAll(context, 'clean', true);
  // One line added to one service source file: what a developer's next build meets.
  appendFileSync(join(context, 'services/booking/src/config.ts'), '\n// bench: a one-file change\n');
  const rebuild = buildAll(context, 'rebuild', false);

  const sizes = Object.fromEntries(
    PROCESSES.map((p) => [
      p,
      Math.round(
        Number(run('docker', ['image', 'inspect', '-f', '{{.Size}}', `parley-bench/${p}:rebuild`]).trim()) /
          1e6,
      ),
    ]),
  );
  const row = (label: string, s: Record<string, number>) =>
    `${label.padEnd(8)} ${PROCESSES.map((p) => `${p} ${s[p]?.toFixed(0)}`).join(', ')}  total ${total(s).toFixed(0)} s`;
  console.log(`\nimages: clean and one-file rebuild of ${PROCESSES.length} processes (s)`);
  console.log(row('clean', clean));
  console.log(row('rebuild', rebuild));
  console.log(`sizes (MB): ${PROCESSES.map((p) => `${p} ${sizes[p]}`).join(', ')}`);
  const checks = [
    [`clean build ≤ ${TARGETS.cleanSeconds} s`, total(clean) <= TARGETS.cleanSeconds],
    [`rebuild ≤ ${TARGETS.rebuildSeconds} s`, total(rebuild) <= TARGETS.rebuildSeconds],
    [`every image ≤ ${TARGETS.megabytes} MB`, Object.values(sizes).every((mb) => mb <= TARGETS.megabytes)],
  ] as const;
  for (const [what, ok] of checks) {
    console.log(`${ok ? 'met   ' : 'MISSED'} ${what}`);
    if (!ok) missed = true;
  }
} finally {
  spawnSync(
    'docker',
    ['rmi', ...PROCESSES.flatMap((p) => [`parley-bench/${p}:clean`, `parley-bench/${p}:rebuild`])],
    {
      stdio: 'ignore',
    },
  );
  rmSync(context, { recursive: true, force: true });
}
process.exit(missed ? 1 : 0);
