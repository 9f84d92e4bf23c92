import { type Static, Type } from 'typebox';

/** Every non-2xx JSON answer of every service and the gateway has this shape. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Short machine-friendly category, e.g. "Bad Request"' }),
    message: Type.String({ description: 'Human-readable explanation' }),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * The `offset` of every paged list: a whole number a database can take (PostgreSQL refuses an
 * OFFSET beyond bigint, and a float such as 2.9e19 is no page anyone asks for), so a wild one
 * is a 400 at validation, never a 500.
 */
export const PAGE_OFFSET_MAX = 10_000_000;
export const PageOffset = () =>
  Type.Optional(Type.Integer({ minimum: 0, maximum: PAGE_OFFSET_MAX, default: 0 }));

/**
 * Every id a client names (a path parameter, a query, a body) is one of these. A row id is a
 * whole number bounded by the column it is looked up in: PostgreSQL refuses a value beyond
 * `integer` or `bigint` with an error (a 500), and a JSON number beyond 2^53 is no longer the
 * id anyone meant. So a wild id (`99999999999999999999`, `9223372036854775808`) is a 400 at
 * validation, as a wild `PageOffset` is; `scripts/test/fuzz.int.test.ts` sends such ids to
 * every path parameter of every route.
 */
export const ROW_ID_MAX = { integer: 2_147_483_647, bigint: Number.MAX_SAFE_INTEGER } as const;
/** A row id of a `serial` (`integer`) column, or of a `bigserial` (`bigint`) one. */
export const RowId = (column: keyof typeof ROW_ID_MAX = 'integer') =>
  Type.Integer({ minimum: 1, maximum: ROW_ID_MAX[column] });
/** A row id of a `uuid` column. */
export const UuidId = () => Type.String({ format: 'uuid' });
