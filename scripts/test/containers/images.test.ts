/**
 * The images as they ship (docker/Dockerfile, built by scripts/images.sh): Node 24, plain
 * JavaScript (no TypeScript loader in them), a non-root user, at most 250 MB; and each process,
 * started read-only beside a real PostgreSQL and NATS, answers /health/ready within 3 s, after
 * `docker run IMAGE migrate` applied its migrations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dependencyImages, docker, image, PROCESSES, type ProcessName, waitFor } from './docker.ts';

const MAX_BYTES = 250 * 1000 * 1000;
const READY_MS = 3000;
const net = `parley-images-${process.pid}`;
const pgName = `${net}-pg`;
const natsName = `${net}-nats`;
const started: string[] = [];
const readyMs: Record<string, number> = {};

interface Inspect {
  Size: number;
  Config: { User: string; Entrypoint: string[] | null; Cmd: string[] | null; Env: string[] };
}

beforeAll(async () => {
  const deps = dependencyImages();
  expect(docker(['network', 'create', net]).code).toBe(0);
  started.push(pgName, natsName);
  const pg = docker([
    'run',
    '-d',
    '--name',
    pgName,
    '--network',
    net,
    '--tmpfs',
    '/var/lib/postgresql',
    '-e',
    'POSTGRES_USER=postgres',
    '-e',
    'POSTGRES_PASSWORD=postgres',
    deps.postgres,
  ]);
  expect(pg.code, pg.err).toBe(0);
  const nats = docker(['run', '-d', '--name', natsName, '--network', net, deps.nats, '-js']);
  expect(nats.code, nats.err).toBe(0);
  await waitFor(
    'PostgreSQL ready',
    async () =>
      docker(['exec', pgName, 'pg_isready', '-h', '127.0.0.1', '-U', 'postgres']).code === 0
        ? true
        : undefined,
    60_000,
  );
  for (const p of PROCESSES) {
    if (p === 'gateway') continue;
    const created = docker(['exec', pgName, 'psql', '-U', 'postgres', '-c', `CREATE DATABASE parley_${p}`]);
    expect(created.code, created.err).toBe(0);
  }
}, 120_000);

afterAll(() => {
  for (const c of started) docker(['rm', '-f', '-v', c]);
  docker(['network', 'rm', net]);
  console.log(
    `images: /health/ready after start: ${Object.entries(readyMs)
      .map(([p, ms]) => `${p} ${ms} ms`)
      .join(', ')}`,
  );
});

const envFor = (p: ProcessName): string[] => {
  const common = [
    'INTERNAL_AUTH_SECRET=images-test-internal-secret-0123456789abcdef',
    'PUBLIC_ORIGIN=http://localhost:3000',
    `NATS_URL=nats://${natsName}:4222`,
  ];
  if (p === 'gateway') return common;
  const key = 'SETTINGS_ENCRYPTION_KEY=Y29tcG9zZS1sb2NhbC1zZXR0aW5ncy1rZXktMzJCLi4=';
  return [
    ...common,
    `DATABASE_URL=postgresql://postgres:postgres@${pgName}:5432/parley_${p}`,
    ...(p === 'email' || p === 'settings' ? [key] : []),
    ...(p === 'email' ? ['EMAIL_SIGNING_SECRET=images-test-email-signing-secret-0123456789'] : []),
  ];
};
const envArgs = (p: ProcessName) => envFor(p).flatMap((e) => ['-e', e]);

describe.each(PROCESSES)('%s image', (p) => {
  const img = image(p);

  it('runs Node 24, as uid 10001, plain JavaScript from /app/dist, and is at most 250 MB', () => {
    const inspected = docker(['image', 'inspect', img]);
    expect(inspected.code, `${img} is missing: run bash scripts/images.sh`).toBe(0);
    const [info] = JSON.parse(inspected.out) as Inspect[];
    if (!info) throw new Error(`no inspect output for ${img}`);
    expect(info.Config.User).toBe('10001:10001');
    expect(info.Config.Entrypoint).toEqual(['node', `/app/dist/${p}.mjs`]);
    const launch = [...(info.Config.Entrypoint ?? []), ...(info.Config.Cmd ?? []), ...info.Config.Env].join(
      ' ',
    );
    expect(launch).not.toMatch(/tsx|--import|--loader|\.ts\b/);
    expect(info.Size).toBeLessThanOrEqual(MAX_BYTES);

    const version = docker(['run', '--rm', '--entrypoint', 'node', img, '--version']);
    expect(version.out).toMatch(/^v24\./);
    const who = docker(['run', '--rm', '--entrypoint', 'node', img, '-p', 'process.getuid()']);
    expect(who.out).toBe('10001');
    // Nothing in the image could run TypeScript: no tsx, and no .ts source outside node_modules.
    const probe = docker([
      'run',
      '--rm',
      '--entrypoint',
      'node',
      img,
      '-e',
      `const fs = require('node:fs'), path = require('node:path');
       const ts = [];
       const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
         const f = path.join(d, e.name);
         if (e.isDirectory()) { if (e.name !== 'node_modules') walk(f); }
         else if (/\\.(c|m)?ts$/.test(e.name) && !e.name.endsWith('.d.ts')) ts.push(f);
       } };
       walk('/app');
       let tsx = true; try { require.resolve('tsx', { paths: ['/app'] }); } catch { tsx = false; }
       console.log(JSON.stringify({ ts, tsx }));`,
    ]);
    expect(probe.code, probe.err).toBe(0);
    expect(JSON.parse(probe.out)).toEqual({ ts: [], tsx: false });
  });

  it(`answers /health/ready within ${READY_MS} ms of starting, read-only, after \`migrate\``, async () => {
    if (p !== 'gateway') {
      const migrated = docker(['run', '--rm', '--network', net, ...envArgs(p), img, 'migrate'], 120_000);
      expect(migrated.code, migrated.err || migrated.out).toBe(0);
      const applied = docker([
        'exec',
        pgName,
        'psql',
        '-U',
        'postgres',
        '-d',
        `parley_${p}`,
        '-tAc',
        'SELECT count(*) FROM _prisma_migrations WHERE finished_at IS NOT NULL',
      ]);
      expect(Number(applied.out)).toBeGreaterThan(0);
    }
    const name = `${net}-${p}`;
    started.push(name);
    const run = docker([
      'run',
      '-d',
      '--name',
      name,
      '--network',
      net,
      '--read-only',
      '--tmpfs',
      '/tmp',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '-p',
      '127.0.0.1::8080',
      ...envArgs(p),
      img,
    ]);
    expect(run.code, run.err).toBe(0);
    const t0 = Date.now();
    const port = docker(['port', name, '8080/tcp']).out.split(':').pop();
    await waitFor(
      `${p} /health/ready`,
      async () => ((await fetch(`http://127.0.0.1:${port}/health/ready`)).ok ? true : undefined),
      30_000,
    ).catch((err) => {
      throw new Error(`${err}\n${docker(['logs', '--tail', '30', name]).err}`);
    });
    readyMs[p] = Date.now() - t0;
    expect(readyMs[p]).toBeLessThanOrEqual(READY_MS);
  });
});
