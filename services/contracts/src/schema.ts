import { type TEnum, Type } from 'typebox';

/** A string enum schema (`{ enum: [...] }`) that keeps its literal types. */
export function literalUnion<const T extends string[]>(values: readonly [...T]): TEnum<T> {
  return Type.Enum(values);
}
