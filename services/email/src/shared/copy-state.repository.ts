import type pg from 'pg';

/**
 * The durable of a copy kept from another service's events, named with this database's
 * generation (`email_copy_state`): replicas on one database share it; a fresh database gets
 * a new one, which reads the stream from its beginning and so rebuilds the copy.
 */
export async function copyDurable(pool: pg.Pool, name: string): Promise<string> {
  await pool.query(`INSERT INTO "email_copy_state" ("id") VALUES (1) ON CONFLICT DO NOTHING`);
  const { rows } = await pool.query<{ generation: string }>(
    `SELECT "generation" FROM "email_copy_state" WHERE "id" = 1`,
  );
  const generation = rows[0]?.generation;
  if (!generation) throw new Error('email_copy_state has no generation');
  return `${name}-${generation.replaceAll('-', '').slice(0, 12)}`;
}
