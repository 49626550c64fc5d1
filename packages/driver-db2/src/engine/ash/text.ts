import { normaliseSqlText, sqlIdOf, type SqlDialect } from '@sledge/core';

export { SQL_TEXT_MAX, truncateSql, vuFromName } from '@sledge/core';

/** Db2 text: `--` comments, '...' literals. */
const DB2: SqlDialect = { lineComment: /--[^\n]*/g, literal: /'(?:[^']|'')*'/g };

/** Statement text in a comparable form: comments dropped, literals and ? markers as `?`, spacing collapsed, lower case. */
export const normaliseSql = (text: string): string => normaliseSqlText(text, DB2);

/** 16 hex digits of the md5 of the normalised text: the SQL id when the server gives no executable id. */
export const sqlTextId = (text: string): string => sqlIdOf(normaliseSql(text));
