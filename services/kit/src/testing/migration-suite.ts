import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_MIGRATION, RATE_LIMIT_PRISMA_MODEL } from '../budgets/sql.ts';
import { BACKBONE_MIGRATION_EXTRAS, BACKBONE_SCHEMA_SQL, EVENT_BACKBONE_MIGRATION } from '../bus/sql.ts';
import { migrate, readMigrations } from '../db/migrate.ts';
import { createTestDatabase } from './database.ts';
import { schemaToSql } from './prisma-sql.ts';
import { describeSchema, diffSchemas } from './schema-compare.ts';

/**
 * The migration checks every service runs (ARCHITECTURE §7): the committed migrations and
 * `schema.prisma` describe the same schema (objects Prisma cannot express are listed in
 * `allowedExtras`; the backbone's partial indexes are allowed for every service), the
 * backbone's tables agree with the kit's (services/kit/src/bus/sql.ts), so does the budget table
 * (services/kit/src/budgets/sql.ts), migrations apply twice safely, and from two processes at once.
 */
export function migrationSuite(service: string, migrationsDir: string, allowedExtras: string[]) {
  describe(`${service} migrations`, () => {
    it('describe the same schema as schema.prisma', async () => {
      const fromPrisma = await createTestDatabase(`${service}_prisma`);
      const fromMigrations = await createTestDatabase(`${service}_migr`);
      const sql = await schemaToSql(service, fromPrisma);
      const client = new pg.Client({ connectionString: fromPrisma });
      await client.connect();
      await client.query(sql);
      await client.end();
      await migrate(fromMigrations, migrationsDir);
      const diff = diffSchemas(await describeSchema(fromPrisma), await describeSchema(fromMigrations));
      expect(diff.missingOrDifferent).toEqual([]);
      expect(diff.extra).toEqual([...allowedExtras, ...BACKBONE_MIGRATION_EXTRAS].sort());
    });

    it('carry the event backbone exactly as the kit defines it', async () => {
      const migrations = await readMigrations(migrationsDir);
      const backbone = migrations.find((m) => m.name.endsWith('_event_backbone'));
      expect(backbone?.sql, 'a <timestamp>_event_backbone migration').toBe(EVENT_BACKBONE_MIGRATION);
      // And the tables the migrations build are the kit's, column for column.
      const fromKit = await createTestDatabase(`${service}_kitbus`);
      const fromMigrations = await createTestDatabase(`${service}_svcbus`);
      const client = new pg.Client({ connectionString: fromKit });
      await client.connect();
      await client.query(BACKBONE_SCHEMA_SQL);
      await client.end();
      await migrate(fromMigrations, migrationsDir);
      const kit = await describeSchema(fromKit);
      const svc = await describeSchema(fromMigrations);
      const diff = diffSchemas(kit, new Map([...svc].filter(([k]) => kit.has(k))));
      expect(diff.missingOrDifferent).toEqual([]);
    });

    it('carry the per-client budget table exactly as the kit defines it', async () => {
      const migrations = await readMigrations(migrationsDir);
      const budgets = migrations.find((m) => m.name.endsWith('_rate_limits'));
      expect(budgets?.sql, 'a <timestamp>_rate_limits migration').toBe(RATE_LIMIT_MIGRATION);
      const schema = await readFile(join(migrationsDir, '..', 'schema.prisma'), 'utf8');
      expect(schema, 'schema.prisma carries the kit model').toContain(RATE_LIMIT_PRISMA_MODEL.trim());
    });

    it('apply once, then are a no-op, with Prisma-format records', async () => {
      const url = await createTestDatabase(`${service}_twice`);
      const expected = await readMigrations(migrationsDir);
      const first = await migrate(url, migrationsDir);
      expect(first.applied).toEqual(expected.map((m) => m.name));
      const second = await migrate(url, migrationsDir);
      expect(second.applied).toEqual([]);
      expect(second.alreadyApplied).toEqual(expected.map((m) => m.name));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query(
        'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
      );
      await client.end();
      expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count])).toEqual(
        expected.map((m) => [m.name, m.checksum, 1]),
      );
      expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
    });

    it('apply safely from two runners at once', async () => {
      const url = await createTestDatabase(`${service}_race`);
      const [a, b] = await Promise.all([migrate(url, migrationsDir), migrate(url, migrationsDir)]);
      const total = await readMigrations(migrationsDir);
      expect([...a.applied, ...b.applied].sort()).toEqual(total.map((m) => m.name).sort());
      expect(a.applied.length === 0 || b.applied.length === 0).toBe(true);
    });
  });
}
