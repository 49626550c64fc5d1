-- TPROC-H statistics for SQLite: ANALYZE fills sqlite_stat1 for the planner,
-- then the WAL is folded back into the file.
-- Runnable with: sqlite3 tpch.sqlite < statistics.sql

ANALYZE;
PRAGMA wal_checkpoint(TRUNCATE);
