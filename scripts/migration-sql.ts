/**
 * Prints the SQL that creates a service's schema.prisma from an empty database, for a new
 * migration (`pnpm exec tsx scripts/migration-sql.ts <service>`). Uses a throw-away embedded
 * PostgreSQL; review the output and add what Prisma cannot express (see docs/architecture.md).
 */
import { ensureDatabase } from '@parley/kit';
import { schemaToSql, startEmbeddedPostgres, withDatabase } from '@parley/kit/testing';

const service = process.argv[2];
if (!service) {
  console.error('usage: tsx scripts/migration-sql.ts <service>');
  process.exit(2);
}
const pg = await startEmbeddedPostgres();
try {
  await ensureDatabase(pg.adminUrl, 'scratch');
  process.stdout.write(await schemaToSql(service, withDatabase(pg.adminUrl, 'scratch')));
} finally {
  await pg.stop();
}
