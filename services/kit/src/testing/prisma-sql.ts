import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * SQL that creates a service's `schema.prisma` from an empty database, produced by
 * Prisma 6's WASM schema engine (Prisma 7's CLI needs a downloaded engine, which an offline
 * build cannot fetch). Prisma 6 still wants a reachable database
 * for its adapter, so a connection URL is required, though nothing is written to it.
 */

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

export async function schemaToSql(service: string, databaseUrl: string): Promise<string> {
  const serviceDir = join(repoRoot, 'services', service);
  const require = createRequire(join(serviceDir, 'package.json'));
  const prisma6Cli = require.resolve('prisma6/build/index.js');
  const adapterPath = require.resolve('@prisma/adapter-pg');
  const prisma6Config = require.resolve('prisma6/config');

  const schema = await readFile(join(serviceDir, 'prisma/schema.prisma'), 'utf8');
  const legacy = schema
    .replace(/generator client \{[\s\S]*?\}/, 'generator client {\n  provider = "prisma-client-js"\n}')
    .replace(/(datasource db \{\s*provider\s*=\s*"postgresql")/, '$1\n  url = env("DATABASE_URL")');

  const dir = await mkdtemp(join(tmpdir(), `parley-prisma-${service}-`));
  try {
    await writeFile(join(dir, 'schema.prisma'), legacy);
    await writeFile(
      join(dir, 'prisma.config.mjs'),
      `import { defineConfig } from ${JSON.stringify(prisma6Config)};
import { PrismaPg } from ${JSON.stringify(adapterPath)};
export default defineConfig({
  engine: 'js',
  experimental: { adapter: true },
  schema: './schema.prisma',
  adapter: async () => new PrismaPg({ connectionString: ${JSON.stringify(databaseUrl)} }),
});
`,
    );
    const r = spawnSync(
      process.execPath,
      [
        prisma6Cli,
        'migrate',
        'diff',
        '--config',
        'prisma.config.mjs',
        '--from-empty',
        '--to-schema-datamodel',
        'schema.prisma',
        '--script',
      ],
      {
        cwd: dir,
        encoding: 'utf8',
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          PRISMA_HIDE_UPDATE_MESSAGE: '1',
          CHECKPOINT_DISABLE: '1',
          PRISMA_QUERY_ENGINE_LIBRARY: '/bin/true',
          PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true',
        },
      },
    );
    if (r.status !== 0)
      throw new Error(`prisma migrate diff failed for ${service}:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// `tsx services/kit/src/testing/prisma-sql.ts <service> <databaseUrl>` prints the SQL, to start a migration.
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [service, url] = process.argv.slice(2);
  if (!service || !url) {
    console.error('usage: tsx services/kit/src/testing/prisma-sql.ts <service> <databaseUrl>');
    process.exit(2);
  }
  process.stdout.write(await schemaToSql(service, url));
}
