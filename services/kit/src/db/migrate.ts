import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Applies committed Prisma-format migrations (`<dir>/<timestamp>_<name>/migration.sql`)
 * without the Prisma CLI (which cannot run here, see BUILD-NOTES). Rows go to Prisma's
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
