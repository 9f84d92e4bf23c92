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
