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
