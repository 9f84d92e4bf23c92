/**
 * Helpers of the container tier (images and compose): the docker CLI, the image names the tier
 * tests, and the compose command on this machine (v2 plugin or the Debian-packaged v1).
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { imagesEnv } from '@parley/kit/testing';
import { repoRoot } from '../../lib/paths.ts';

export const PROCESSES = ['gateway', 'identity', 'booking', 'blog', 'voice', 'email', 'settings'] as const;
export type ProcessName = (typeof PROCESSES)[number];
export const TAG = process.env.PARLEY_IMAGE_TAG ?? 'dev';
export const image = (p: ProcessName) => `${process.env.PARLEY_IMAGE_PREFIX ?? 'parley'}/${p}:${TAG}`;

export function sh(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}) {
  const r: SpawnSyncReturns<string> = spawnSync(cmd, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, ...opts.env },
    timeout: opts.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, out: (r.stdout ?? '').trim(), err: (r.stderr ?? '').trim() };
}

export function docker(args: string[], timeoutMs?: number) {
  return sh('docker', args, timeoutMs === undefined ? {} : { timeoutMs });
}

/** `docker compose` (v2) where the plugin exists, else `docker-compose` (v1, Debian's package). */
export function composeCommand(): [string, string[]] {
  return docker(['compose', 'version']).code === 0 ? ['docker', ['compose']] : ['docker-compose', []];
}

/** The PostgreSQL and NATS images this machine has: the local builds, else the official ones. */
export function dependencyImages(): { postgres: string; nats: string } {
  const env = imagesEnv();
  const has = (i?: string) => Boolean(i) && docker(['image', 'inspect', i as string]).code === 0;
  return {
    postgres: has(env.LOCAL_POSTGRES_IMAGE)
      ? (env.LOCAL_POSTGRES_IMAGE as string)
      : (env.POSTGRES_IMAGE as string),
    nats: has(env.LOCAL_NATS_IMAGE) ? (env.LOCAL_NATS_IMAGE as string) : (env.NATS_IMAGE as string),
  };
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
}
