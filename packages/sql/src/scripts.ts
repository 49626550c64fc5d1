import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSqlPath } from './files.js';

/**
 * pgbench's built-in scripts (script/builtin/<name>.sql, beside src/ in this
 * package), written from pgbench's documentation. They are in pgbench's
 * script language, the same text on every engine: each driver runs the
 * statements its own way (placeholders, transaction control).
 */
export const BUILTIN_SCRIPT_NAMES = ['tpcb-like', 'simple-update', 'select-only'] as const;
export type BuiltinScriptName = (typeof BUILTIN_SCRIPT_NAMES)[number];

const DIR = fileURLToPath(new URL('../script/builtin/', import.meta.url));

/** The text of a built-in script; an unknown name throws. */
export function builtinScript(name: string): string {
  if (!(BUILTIN_SCRIPT_NAMES as readonly string[]).includes(name)) {
    throw new Error(`no built-in script "${name}": built-in scripts are ${BUILTIN_SCRIPT_NAMES.join(', ')}`);
  }
  return readSqlPath(join(DIR, `${name}.sql`));
}
