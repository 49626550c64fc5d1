import Type from 'typebox';

/** A string enum schema whose static type is the union of its values. */
export function StringEnum<const T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts });
}
