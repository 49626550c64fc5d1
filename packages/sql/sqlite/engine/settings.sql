-- SQLite's settings as a run job records them (server
-- runner/samplers/engine-settings.ts, docs/compare.md): the pragmas that
-- change what a run measures, read on a query session, which opens the file
-- with the pragmas the virtual users set (journal mode, synchronous from the
-- target, busy timeout, cache, mmap, temp store). SQLite keeps no
-- per-statement counters, so this file has no statement_counters.

-- name: settings
-- name, value, unit, source: the pragmas SQLite offers as table-valued
-- functions (pragma_<name>).
SELECT 'journal_mode', journal_mode, NULL, 'pragma' FROM pragma_journal_mode
UNION ALL SELECT 'synchronous', CASE synchronous WHEN 0 THEN 'OFF' WHEN 1 THEN 'NORMAL' WHEN 2 THEN 'FULL' WHEN 3 THEN 'EXTRA' ELSE synchronous END, NULL, 'pragma' FROM pragma_synchronous
UNION ALL SELECT 'cache_size', cache_size, 'pages (negative: KiB)', 'pragma' FROM pragma_cache_size
UNION ALL SELECT 'page_size', page_size, 'bytes', 'pragma' FROM pragma_page_size
UNION ALL SELECT 'locking_mode', locking_mode, NULL, 'pragma' FROM pragma_locking_mode
UNION ALL SELECT 'temp_store', CASE temp_store WHEN 0 THEN 'DEFAULT' WHEN 1 THEN 'FILE' WHEN 2 THEN 'MEMORY' ELSE temp_store END, NULL, 'pragma' FROM pragma_temp_store
UNION ALL SELECT 'busy_timeout', timeout, 'ms', 'pragma' FROM pragma_busy_timeout
UNION ALL SELECT 'foreign_keys', foreign_keys, NULL, 'pragma' FROM pragma_foreign_keys
UNION ALL SELECT 'auto_vacuum', auto_vacuum, NULL, 'pragma' FROM pragma_auto_vacuum
UNION ALL SELECT 'sqlite_version', sqlite_version(), NULL, 'library';

-- name: setting_mmap_size
-- A pragma with no table-valued form: one statement per setting named
-- setting_<name>, its first column the value (unit: bytes).
PRAGMA mmap_size;
