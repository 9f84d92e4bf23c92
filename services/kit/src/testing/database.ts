import pg from 'pg';
import { withDatabase } from '../local/postgres.ts';

let counter = 0;

/**
 * Creates a fresh, empty database for one test suite on the test server
 * (`PARLEY_TEST_PG_URL`, set by the integration global setup) and returns its URL.
 */
export async function createTestDatabase(
  prefix: string,
  adminUrl = process.env.PARLEY_TEST_PG_URL,
): Promise<string> {
  if (!adminUrl)
    throw new Error(
      'PARLEY_TEST_PG_URL is not set: run integration tests through vitest --project integration',
    );
  const name = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}
