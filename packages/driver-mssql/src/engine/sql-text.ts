import { SledgeError } from '@sledge/protocol';
import { placeholderSyntax } from '@sledge/sql';

/** sqlcmd scripting variable: $(name). */
const PLACEHOLDER = /\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g;
/** sqlcmd batch separator. */
const TERMINATOR = /^\s*GO\s*$/i;

const isNoise = (line: string) => line.trim() === '' || line.trim().startsWith('--');

/** Drop leading/trailing comment lines and the shell's batch terminator (GO). */
export function cleanStatement(sql: string): string {
  const lines = sql.split(/\r?\n/);
  while (lines.length && isNoise(lines[0]!)) lines.shift();
  while (lines.length && (isNoise(lines[lines.length - 1]!) || TERMINATOR.test(lines[lines.length - 1]!))) lines.pop();
  return lines.join('\n').trim();
}

/** placeholders(sql): the $(name) names in order of first use; fillPlaceholders(sql, vars, where): a missing variable throws. */
export const { placeholders, fill: fillPlaceholders } = placeholderSyntax(PLACEHOLDER, (n) => `$(${n})`);

/** A value that is spliced into SQL as an identifier must look like one. */
export function identifier(value: string, field: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_$]{0,127}$/.test(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be a plain identifier (letters, digits, _ and $, starting with a letter or _)`, { field });
  }
  return value;
}
