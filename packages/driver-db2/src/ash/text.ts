import { createHash } from 'node:crypto';

/** Longest statement text kept with a sample. */
export const SQL_TEXT_MAX = 300;

/** Statement text in a comparable form: comments dropped, literals and ? markers as `?`, spacing collapsed, lower case. */
export function normaliseSql(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/--[^\n]*/g, ' ')
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/(?<![\w$.])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w$])/g, '?')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** 16 hex digits of the md5 of the normalised text: the SQL id when the server gives no executable id. */
export function sqlTextId(text: string): string {
  return createHash('md5').update(normaliseSql(text)).digest('hex').slice(0, 16);
}

/** The text kept with a sample: whitespace collapsed, at most SQL_TEXT_MAX characters (… marks a cut). */
export function truncateSql(text: string, max = SQL_TEXT_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The VU position of a Sledge session name `sledge-vu-<n>`, else undefined. */
export function vuFromName(name: string | null | undefined): number | undefined {
  const m = name ? /^sledge-vu-(\d+)$/.exec(name.trim()) : null;
  return m ? Number(m[1]) : undefined;
}
