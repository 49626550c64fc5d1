import { SledgeError } from '@sledge/protocol';

/** Input checks shared by the repositories; each failure names the field to fix. */

export function requireFiniteNumber(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be a finite number`, { field });
  return v;
}

export function requireInteger(v: unknown, field: string, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be an integer >= ${min}`, { field });
  return v;
}

export function requireString(v: unknown, field: string, opts: { nonEmpty?: boolean } = {}): string {
  if (typeof v !== 'string' || (opts.nonEmpty === true && v.length === 0)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be a${opts.nonEmpty === true ? ' non-empty' : ''} string`, { field });
  }
  return v;
}

export function requireArray<T>(v: readonly T[] | unknown, field: string): readonly T[] {
  if (!Array.isArray(v)) throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be an array`, { field });
  return v as readonly T[];
}

/** `%text%` for `LIKE ? ESCAPE '\'`, with the wildcards in `text` matched literally. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function notFound(what: string, id: string | number): SledgeError {
  return new SledgeError('SLEDGE_E_NOT_FOUND', `${what} ${String(id)} does not exist`, { field: 'id' });
}
