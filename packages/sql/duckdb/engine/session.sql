-- DuckDB's engine-level query session (driver engine/query-session.ts): the
-- statements every analytic session uses. DuckDB has no statement timeout
-- and no server: the driver interrupts the connection (cancel, timeout).

-- name: set_threads
-- The degree of parallelism: DuckDB's worker threads. A database-wide
-- setting (every connection of the file's database shares it), so streams
-- of one job run with one value. The threads placeholder is a positive integer.
SET threads = {{threads}};

-- name: explain
-- The physical plan as DuckDB prints it (a box tree), without running the
-- query. The sql placeholder is the timed statement.
EXPLAIN {{sql}};

-- name: profile
-- The plan with each operator's time and rows: runs the query.
EXPLAIN ANALYZE {{sql}};

-- name: profiling_output
-- Where DuckDB writes the profile of each profiled statement: a file of the
-- session's own (.json, set after profiling_on: DuckDB checks the extension
-- against the format), which the driver reads after the timed statement.
-- The file placeholder is a path with single quotes doubled.
PRAGMA profiling_output = '{{file}}';

-- name: profiling_on
-- Profile the next statements as JSON (profiling_output's file): operator
-- timings, rows and CPU time as DuckDB measures them while the query runs.
PRAGMA enable_profiling = 'json';

-- name: profiling_off
-- Stop profiling (refresh functions and untimed statements are not profiled).
PRAGMA disable_profiling;
