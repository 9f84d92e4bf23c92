import type pg from 'pg';

/**
 * A unique-constraint violation, as raised by pg (SQLSTATE 23505) or by Prisma (P2002, or
 * the driver adapter's error carrying the SQLSTATE as its cause).
 */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null | undefined;
  return e?.code === 'P2002' || e?.code === '23505' || e?.cause?.code === '23505';
}

/** Runs `fn` in a transaction on one pooled client: COMMIT when it resolves, ROLLBACK when it throws. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
