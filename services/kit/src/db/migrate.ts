import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Applies committed Prisma-format migrations (`<dir>/<timestamp>_<name>/migration.sql`)
 * without the Prisma CLI (its engines are downloaded on first use, which offline builds cannot do). Rows go to Prisma's
 * own `_prisma_migrations` table with the same sha256 checksums, so `prisma migrate
 * status` agrees wherever the CLI can run. A session-level advisory lock (the key Prisma
 * uses) serialises concurrent runners, so several replicas may start at once.
 */

const PRISMA_ADVISORY_LOCK = 72707369;

const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

export async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const out: Migration[] = [];
  for (const name of names) {
    const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
    out.push({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return out;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function migrate(
  connectionString: string,
  dir: string,
  log: (msg: string) => void = () => {},
): Promise<MigrationResult> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString, application_name: 'parley-migrate' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
    await client.query(MIGRATIONS_TABLE);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"');
    const done = new Map(
      rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => [r.migration_name, r]),
    );
    const failed = rows.filter((r) => !r.finished_at && !r.rolled_back_at).map((r) => r.migration_name);
    if (failed.length) {
      throw new MigrationError(
        `Migration(s) started but never finished: ${failed.join(', ')}. Fix the database, then mark them rolled back.`,
      );
    }
    const result: MigrationResult = { applied: [], alreadyApplied: [] };
    for (const m of migrations) {
      const prior = done.get(m.name);
      if (prior) {
        if (prior.checksum !== m.checksum) {
          throw new MigrationError(
            `Migration ${m.name} was modified after it was applied (checksum mismatch)`,
          );
        }
        result.alreadyApplied.push(m.name);
        continue;
      }
      const id = randomUUID();
      // One transaction per migration: PostgreSQL DDL is transactional, so a failing
      // migration leaves nothing half-applied.
      await client.query('BEGIN');
      try {
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
          [id, m.checksum, m.name],
        );
        await client.query(m.sql);
        await client.query(
          'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
          [id],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new MigrationError(`Migration ${m.name} failed: ${(err as Error).message}`);
      }
      log(`applied migration ${m.name}`);
      result.applied.push(m.name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
}

/**
 * Waits until every migration of `dir` has been applied by someone else (a migration Job, or
 * a replica that migrates), retrying with backoff (0.25 s doubling to 5 s). A service started
 * with MIGRATE_ON_START=false beside the Job that migrates its database (`kubectl apply -k`
 * creates both at once; only Helm's hooks order them) would otherwise fail on its first
 * missing table and be restarted. Not listening meanwhile, it is reported not ready.
 */
export async function waitForMigrations(
  connectionString: string,
  dir: string,
  log: (msg: string, missing: string[]) => void,
  opts: { maxDelayMs?: number } = {},
): Promise<void> {
  const wanted = (await readMigrations(dir)).map((m) => m.name);
  if (!wanted.length) return;
  let delay = 250;
  let waitingSince = 0;
  for (;;) {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
    client.on('error', () => {});
    let missing = wanted;
    try {
      await client.connect();
      const { rows } = await client.query<{ migration_name: string }>(
        'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      const done = new Set(rows.map((r) => r.migration_name));
      missing = wanted.filter((name) => !done.has(name));
    } catch (err) {
      // 42P01 undefined_table: no migration has run yet.
      if ((err as { code?: string }).code !== '42P01') throw err;
    } finally {
      await client.end().catch(() => {});
    }
    if (!missing.length) {
      if (waitingSince) log(`migrations applied after ${Date.now() - waitingSince} ms`, []);
      return;
    }
    if (!waitingSince) waitingSince = Date.now();
    log('waiting for the migrations', missing);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, opts.maxDelayMs ?? 5_000);
  }
}
