export { SQL_TEXT_MAX, truncateSql, vuFromName } from '@sledge/core';
