import { normaliseSqlText, sqlIdOf, type SqlDialect } from '@sledge/core';

export { SQL_TEXT_MAX, truncateSql } from '@sledge/core';

/** PostgreSQL text: `--` comments, '...' and E'...' literals, $n parameters. */
const POSTGRESQL: SqlDialect = { lineComment: /--[^\n]*/g, literal: /[Ee]?'(?:[^']|'')*'/g, param: /\$\d+/g };

/**
 * Statement text in a comparable form, for an id when the server gives none
 * (PostgreSQL before 14, or compute_query_id off). Statements that differ
 * only in their constants get one id, as pg_stat_statements' queryid does.
 */
export const normaliseSql = (text: string): string => normaliseSqlText(text, POSTGRESQL);

/** 16 hex digits of the md5 of the normalised text. */
export const sqlTextId = (text: string): string => sqlIdOf(normaliseSql(text));
