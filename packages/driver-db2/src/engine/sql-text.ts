import { SledgeError } from '@sledge/protocol';
import { placeholderSyntax } from '@sledge/sql';

/** ${name}: substitute by hand with envsubst before `db2 -td@ -vf`. */
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

const isNoise = (line: string) => line.trim() === '' || line.trim().startsWith('--');

/** Drop surrounding comment lines and the CLP terminator ('@', alone on a line or ending the last one). */
export function cleanStatement(sql: string): string {
  const lines = sql.split(/\r?\n/);
  while (lines.length && isNoise(lines[0]!)) lines.shift();
  while (lines.length && isNoise(lines[lines.length - 1]!)) lines.pop();
  if (lines.length && lines[lines.length - 1]!.trim() === '@') lines.pop();
  else if (lines.length) lines[lines.length - 1] = lines[lines.length - 1]!.replace(/@\s*$/, '');
  while (lines.length && isNoise(lines[lines.length - 1]!)) lines.pop();
  return lines.join('\n').trim();
}

/** placeholders(sql): the ${name} names in order of first use; fillPlaceholders(sql, vars, where): a missing variable throws. */
export const { placeholders, fill: fillPlaceholders } = placeholderSyntax(PLACEHOLDER, (n) => `\${${n}}`);

/** An ordinary Db2 identifier spliced into SQL (tablespace). */
export function identifier(value: string, field: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,127}$/.test(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be an ordinary Db2 name: a letter, then letters, digits or _`, { field });
  }
  return value;
}
