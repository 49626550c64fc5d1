import { SledgeError } from '@sledge/protocol';

/**
 * JSON text for a JSON-typed column. A value JSON cannot hold (undefined, a
 * BigInt, a cycle) is a SLEDGE_E_VALIDATION naming `field`.
 */
export function toJson(value: unknown, field: string): string {
  let s: string | undefined;
  try {
    s = JSON.stringify(value);
  } catch (e) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} cannot be stored as JSON: ${e instanceof Error ? e.message : String(e)}`, { field, cause: e });
  }
  if (s === undefined) throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be a JSON value (got ${typeof value})`, { field });
  return s;
}

/** Parse a JSON column back to its stored type. */
export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** Parse a nullable JSON column; NULL becomes undefined. */
export function fromJsonOpt<T>(text: string | null): T | undefined {
  return text === null ? undefined : (JSON.parse(text) as T);
}
