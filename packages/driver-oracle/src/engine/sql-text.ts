import { SledgeError } from '@sledge/protocol';
import { placeholderSyntax } from '@sledge/sql';

/** SQL*Plus substitution variable: &name, optionally ended by a period (&user..table). */
const PLACEHOLDER = /&([A-Za-z_][A-Za-z0-9_]*)\.?/g;
/** SQL*Plus runs the buffer (a PL/SQL block) at a line holding only '/'. */
const SLASH = /^\s*\/\s*$/;

const isNoise = (line: string) => line.trim() === '' || line.trim().startsWith('--');

/**
 * Make a SQL*Plus statement sendable through the driver: drop surrounding
 * comment lines; a PL/SQL unit ends with a '/' line, which goes while its
 * final `END;` stays; a SQL statement loses its trailing ';'.
 */
export function cleanStatement(sql: string): string {
  const lines = sql.split(/\r?\n/);
  while (lines.length && isNoise(lines[0]!)) lines.shift();
  while (lines.length && isNoise(lines[lines.length - 1]!)) lines.pop();
  if (lines.length && SLASH.test(lines[lines.length - 1]!)) {
    lines.pop();
    while (lines.length && isNoise(lines[lines.length - 1]!)) lines.pop();
    return lines.join('\n').trim();
  }
  return lines.join('\n').trim().replace(/;\s*$/, '').trim();
}

/** placeholders(sql): the &name names in order of first use; fillPlaceholders(sql, vars, where): a missing variable throws. */
export const { placeholders, fill: fillPlaceholders } = placeholderSyntax(PLACEHOLDER, (n) => `&${n}`);

/** An unquoted Oracle identifier (user or tablespace) spliced into DDL. */
export function identifier(value: string, field: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_$#]{0,127}$/.test(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be an unquoted Oracle name: a letter, then letters, digits, _, $ or #`, { field });
  }
  return value;
}

/** A password spliced into CREATE USER ... IDENTIFIED BY "<password>" (every workload that creates its user). */
export function quotablePassword(value: string, field: string): string {
  if (!value || /["\r\n\0]/.test(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be non-empty and may not contain double quotes or line breaks (it is used in CREATE USER)`, { field });
  }
  return value;
}
