/**
 * @sledge/sql: every engine's SQL files (<engine>/<workload>/, beside src/ in
 * this package) and the one resolver that knows where they are and which
 * engine reads which engine's files (MariaDB over MySQL; single files declared
 * as another engine's in aliases.ts). Drivers and the
 * server read SQL only through these functions.
 */
export { SQL_ALIASES, type SqlAlias } from './aliases.js';
export { sqlEngines, sqlFile, sqlFileLayers, sqlFiles, sqlText, type SqlFileEntry, type SqlWorkload } from './files.js';
export { checkedStatements, placeholderSyntax, sqlSet, SqlCatalog, type SqlDialect, type SqlLayer, type SqlSet, type SqlVars } from './set.js';
export { sqlTemplate } from './template.js';
export { BUILTIN_SCRIPT_NAMES, builtinScript, type BuiltinScriptName } from './scripts.js';
export { tprochAnswerText } from './answers.js';
