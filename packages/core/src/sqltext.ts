import { createHash, randomBytes } from 'node:crypto';

/**
 * Statement text as the active-session-history samplers keep it, shared by
 * every driver: each engine supplies only its dialect (comment, literal and
 * parameter syntax) to normaliseSqlText().
 */

/** Longest statement text kept with a sample. */
export const SQL_TEXT_MAX = 300;

/** The text kept with a sample: whitespace collapsed, at most SQL_TEXT_MAX characters (… marks a cut). */
export function truncateSql(text: string, max = SQL_TEXT_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * The session name of VU `vu`: `sledge-vu-<n>`, and with the job's session
 * tag `sledge-vu-<n>~<tag>` so the job's ASH can tell its own VUs from
 * another tool's session that took the same name.
 */
export function vuSessionName(vu: number, tag?: string): string {
  return tag ? `sledge-vu-${vu}~${tag}` : `sledge-vu-${vu}`;
}

/** A fresh session tag for a job: 8 random hex digits (never derived from anything another client can read beforehand). */
export function newSessionTag(): string {
  return randomBytes(4).toString('hex');
}

/**
 * The VU position of a session name made by vuSessionName(), else
 * undefined. With `tag` only `sledge-vu-<n>~<tag>` counts (the job's own
 * VUs); without it any `sledge-vu-<n>` with or without a tag does.
 */
export function vuFromName(name: string | null | undefined, tag?: string): number | undefined {
  const m = name ? /^sledge-vu-(\d+)(?:~([0-9A-Za-z]+))?$/.exec(name.trim()) : null;
  if (!m) return undefined;
  if (tag !== undefined && m[2] !== tag) return undefined;
  return Number(m[1]);
}

/** What differs between engines when statement text is normalised. All patterns are global. */
export interface SqlDialect {
  /** Single-line comments (`--` everywhere; MySQL also `#`). */
  readonly lineComment: RegExp;
  /** String (and quoted) literals, replaced by `?`. */
  readonly literal: RegExp;
  /** Bind parameters ($1, @p1), replaced by `?` before numbers are. */
  readonly param?: RegExp;
  /** Numeric literals; the default leaves digits inside identifiers alone. */
  readonly number?: RegExp;
}

const NUMBER = /(?<![\w$.])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w$])/g;

/**
 * Statement text in a comparable form, for an id when the server gives none:
 * block and line comments dropped, literals and parameters as `?`, numbers as
 * `?`, whitespace collapsed, lower case. Statements that differ only in their
 * constants get one id.
 */
export function normaliseSqlText(text: string, d: SqlDialect): string {
  let s = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(d.lineComment, ' ').replace(d.literal, '?');
  if (d.param) s = s.replace(d.param, '?');
  return s
    .replace(d.number ?? NUMBER, '?')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** 16 hex digits of the md5 of already normalised text: the SQL id when the server gives none. */
export function sqlIdOf(normalised: string): string {
  return createHash('md5').update(normalised).digest('hex').slice(0, 16);
}
