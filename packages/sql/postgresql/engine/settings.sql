-- PostgreSQL's engine settings and per-statement counters, as a run job
-- records them (server runner/samplers/engine-settings.ts, docs/compare.md).
-- Read on a query session of the target's user on its database, so settings
-- made with ALTER DATABASE ... SET or ALTER ROLE ... SET show with their
-- source ('database', 'user', 'database user').

-- name: reset_session
-- The query session sets max_parallel_workers_per_gather, statement_timeout
-- and DateStyle for itself: back to the values any new session of the
-- target's user on its database starts with (what the run's VUs see).
RESET ALL;

-- name: settings
-- Every setting visible to the target's user: name, value, unit, source.
SELECT name, setting, unit, source FROM pg_settings ORDER BY name;

-- name: statements_missing
-- Why there are no per-statement counters (one row: the reason, or NULL when
-- the extension is there). Installing it needs the library in
-- shared_preload_libraries (a server restart) and CREATE EXTENSION in the
-- database: Sledge never does either. An extension created without the
-- library loaded shows when the counters are first read (the server says
-- "pg_stat_statements must be loaded via shared_preload_libraries");
-- shared_preload_libraries itself is hidden from users without
-- pg_read_all_settings, so it is not read here.
SELECT CASE
         WHEN NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements')
           THEN 'pg_stat_statements not installed (it needs shared_preload_libraries = ''pg_stat_statements'', a server restart, and CREATE EXTENSION pg_stat_statements in the database)'
       END AS reason;

-- name: statement_counters
-- Cumulative counters of the statements run on the target's database (all
-- users): id, normalised text, calls, total execution time in ms.
SELECT s.queryid::text AS id, s.query AS text, s.calls AS calls, s.total_exec_time AS total_ms
FROM pg_stat_statements s
JOIN pg_database d ON d.oid = s.dbid
WHERE d.datname = current_database() AND s.queryid IS NOT NULL;
