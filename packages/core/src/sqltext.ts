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
  /**
   * A literal the text ends inside (the server cut a long statement): from
   * its opening quote to the end. Default: a single quote. Run after the
   * complete literals are gone, so any quote left opens an unfinished one.
   */
  readonly openLiteral?: RegExp;
}

const NUMBER = /(?<![\w$.])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w$])/g;
const OPEN_LITERAL = /'[\s\S]*$/;
/** `IN (?, ?, ?)` of any length is one list. */
const IN_LIST = /\bin\s*\(\s*\?(?:\s*,\s*\?)*\s*\)/gi;
/** `VALUES (?, ?), (?, ?) ...` of any number of rows is one row. */
const VALUES_ROWS = /\bvalues\s*(\(\s*\?(?:\s*,\s*\?)*\s*\))(?:\s*,\s*\(\s*\?(?:\s*,\s*\?)*\s*\))+/gi;
/** A sign in front of a constant (`= -5`, `(-1`, `then -2`) is part of it; `a - 5` keeps its operator. */
const SIGNED = /([(,=<>*/+-]|\b(?:select|where|and|or|not|then|else|when|between|like|return|values|set|by|in)\b)\s*[-+]\s*\?/gi;

/**
 * How much of the normalised text the id covers. Servers cut long statement
 * text (PostgreSQL at track_activity_query_size, 1 KiB by default, and the
 * sampler's own left(query, 1024); MySQL's performance_schema at 1 KiB), and
 * where the cut falls moves with the literals' lengths: the same statement
 * with other constants ends in other characters. Its first 512 normalised
 * characters are the same whatever the constants (a 1 KiB cut holds at least
 * that much unless half of it is literals), so they are the id; two statements
 * alike in their first 512 normalised characters share it.
 */
export const SQL_ID_CHARS = 512;

/**
 * Statement text in a comparable form, for an id when the server gives none:
 * block and line comments dropped, literals and parameters as `?`, numbers
 * (with their sign) as `?`, an IN list or a multi-row VALUES of any length
 * as one, a literal or comment the text was cut inside as `?`, whitespace
 * collapsed, lower case. Statements that differ only in their constants get
 * one id. The one normaliser every driver's ASH uses (each gives its dialect).
 */
export function normaliseSqlText(text: string, d: SqlDialect): string {
  let s = text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\*[\s\S]*$/, ' ')
    .replace(d.lineComment, ' ')
    .replace(d.literal, '?')
    .replace(d.openLiteral ?? OPEN_LITERAL, '?');
  if (d.param) s = s.replace(d.param, '?');
  return s
    .replace(d.number ?? NUMBER, '?')
    .replace(SIGNED, '$1 ?')
    .replace(IN_LIST, 'in (?)')
    .replace(VALUES_ROWS, 'values $1')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** 16 hex digits of the md5 of already normalised text (its first SQL_ID_CHARS characters): the SQL id when the server gives none. */
export function sqlIdOf(normalised: string): string {
  return createHash('md5').update(normalised.slice(0, SQL_ID_CHARS)).digest('hex').slice(0, 16);
}
