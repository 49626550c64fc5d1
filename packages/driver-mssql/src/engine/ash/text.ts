import { normaliseSqlText, sqlIdOf, type SqlDialect } from '@sledge/core';

export { SQL_TEXT_MAX, truncateSql, vuFromName } from '@sledge/core';

/** T-SQL text: `--` comments, '...' and N'...' literals, @parameters (numbers after @ are names, not literals). */
const TSQL: SqlDialect = {
  lineComment: /--[^\n]*/g,
  literal: /N?'(?:[^']|'')*'/g,
  param: /@\w+/g,
  number: /(?<![\w$.@])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w$])/g,
};

/** Statement text in a comparable form, for an id when the server gives none. */
export const normaliseSql = (text: string): string => normaliseSqlText(text, TSQL);

/** 16 hex digits of the md5 of the normalised text. */
export const sqlTextId = (text: string): string => sqlIdOf(normaliseSql(text));
