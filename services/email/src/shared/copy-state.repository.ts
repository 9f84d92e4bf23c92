import type pg from 'pg';
import { db, execute, firstRow } from './sql.ts';

/**
 * The durable of a copy kept from another service's events, named with this database's
 * generation (`email_copy_state`): replicas on one database share it; a fresh database gets
 * a new one, which reads the stream from its beginning and so rebuilds the copy.
 */
export async function copyDurable(pool: pg.Pool, name: string): Promise<string> {
  await execute(
    pool,
    db
      .insertInto('email_copy_state')
      .values({ id: 1 })
      .onConflict((oc) => oc.doNothing()),
  );
  const row = await firstRow(
    pool,
    db.selectFrom('email_copy_state').select('generation').where('id', '=', 1),
  );
  if (!row) throw new Error('email_copy_state has no generation');
  return `${name}-${row.generation.replaceAll('-', '').slice(0, 12)}`;
}
