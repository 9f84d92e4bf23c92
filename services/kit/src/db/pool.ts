import pg from 'pg';

/** A pg pool with sane defaults; one per service process, shared with Prisma's adapter. */
export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    application_name: 'parley',
  });
  // A client losing its connection (a database restart, or Ctrl-C reaching the embedded
  // PostgreSQL before the services stop) must not crash the process: idle clients report to
  // the pool; a checked-out client between two queries reports to itself, so every client
  // gets a listener too. The next query on it fails, and the pool drops it when released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** True when the database answers a trivial query within the timeout. */
export async function pingDatabase(pool: pg.Pool, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      pool.query('SELECT 1'),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Creates `database` on the server of `adminUrl` when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`Unsafe database name: ${database}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) {
      try {
        await client.query(`CREATE DATABASE "${database}"`);
      } catch (err) {
        // Another process created it between our check and our CREATE.
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await client.end();
  }
}

/** Errors that mean "not yet" while a database server or its database is being brought up. */
const STARTING = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '3D000', // invalid_catalog_name: the database is being created (a Helm hook, an init script)
]);

/**
 * Waits until `connectionString` accepts a connection and a query, retrying with backoff
 * (0.25 s doubling to 5 s) while the server or the database is still coming up, so a service
 * started before its PostgreSQL (Kubernetes starts them together) waits instead of exiting.
 * Anything else (a wrong password, a refused TLS) is thrown at once: no wait would fix it.
 */
export async function waitForDatabase(
  connectionString: string,
  log: (msg: string, reason: string) => void,
  opts: { maxDelayMs?: number } = {},
): Promise<void> {
  let delay = 250;
  let waitingSince = 0;
  for (;;) {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      if (waitingSince) log(`the database answers after ${Date.now() - waitingSince} ms`, 'ready');
      return;
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      const timedOut = /timeout/i.test((err as Error).message);
      if (!STARTING.has(code) && !timedOut) throw err;
      if (!waitingSince) waitingSince = Date.now();
      log('waiting for the database', code || 'timeout');
    } finally {
      await client.end().catch(() => {});
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, opts.maxDelayMs ?? 5_000);
  }
}
