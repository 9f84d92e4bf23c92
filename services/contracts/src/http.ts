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
