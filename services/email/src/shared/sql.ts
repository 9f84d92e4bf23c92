import {
  type Compilable,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type pg from 'pg';
import type { DB } from '../generated/kysely/database.ts';

/**
 * Typed SQL (docs/adr/0066-typed-sql-with-kysely.md). `db` builds statements whose tables,
 * columns and row types come from the Prisma schema (prisma-kysely generates `DB` with
 * `pnpm generate`), so a schema change that breaks a query fails the typecheck. It only
 * compiles: the statements run on the kit's pg pool or on a transaction's client (inTransaction),
 * with named prepared statements where a hot path asks for them.
 *
 * Values become parameters. A constant that a partial index's predicate names (`status =
 * 'pending'`, `WHERE "live"`) is written `sql.lit(...)` instead, so the plan of a prepared
 * statement can still use that index (a generic plan cannot prove a parameter's value).
 */
export const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** A pool or a transaction's client. */
export type Queryable = pg.Pool | pg.PoolClient;

/** The row type of a typed statement. */
export type Row<Q> = Q extends Compilable<infer R> ? R : never;

function statement(query: Compilable<unknown>, name?: string): pg.QueryConfig {
  const { sql: text, parameters } = query.compile();
  return name ? { name, text, values: parameters as unknown[] } : { text, values: parameters as unknown[] };
}

/** Runs a typed statement; its rows, typed from the schema. `name` makes it a prepared statement. */
export async function rows<Q extends Compilable<unknown>>(
  on: Queryable,
  query: Q,
  name?: string,
): Promise<Row<Q>[]> {
  const result = await on.query(statement(query, name));
  return result.rows as Row<Q>[];
}

/** The first row of a typed statement, or undefined. */
export async function firstRow<Q extends Compilable<unknown>>(
  on: Queryable,
  query: Q,
  name?: string,
): Promise<Row<Q> | undefined> {
  return (await rows(on, query, name))[0];
}

/** Runs a typed statement for its effect; the number of rows it touched. */
export async function execute(on: Queryable, query: Compilable<unknown>, name?: string): Promise<number> {
  const result = await on.query(statement(query, name));
  return result.rowCount ?? 0;
}
