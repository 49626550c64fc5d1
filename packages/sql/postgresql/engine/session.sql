-- PostgreSQL's engine-level query session (driver engine/query-session.ts):
-- the statements every workload's analytic session uses (TPROC-H streams,
-- CH-benCHmark's analytic streams). Parameters are bound ($1, $2).

-- name: session_settings
-- A query session: the degree of parallelism (parallel workers per Gather
-- node) and the statement timeout in ms (0 = none). Set with
-- set_config(..., false): for the session, bound as parameters $1 and $2.
-- DateStyle ISO: DATE values come back as YYYY-MM-DD text (the driver keeps
-- them as that text, whatever the server's default style).
SELECT set_config('max_parallel_workers_per_gather', $1, false) AS dop,
       set_config('statement_timeout', $2, false) AS timeout,
       set_config('DateStyle', 'ISO', false) AS datestyle;

-- name: backend_pid
SELECT pg_backend_pid() AS pid;

-- name: cancel_backend
-- Cancel the statement a session's backend runs (from another connection).
SELECT pg_cancel_backend($1) AS cancelled;

-- name: explain
-- A query's plan without running it: EXPLAIN in text format, one row per
-- plan line. The sql placeholder is the timed statement.
EXPLAIN (FORMAT TEXT) {{sql}};
