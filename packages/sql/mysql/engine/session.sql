-- The MySQL family's engine-level query session (driver
-- engine/query-session.ts): the statements every workload's analytic
-- session uses (TPROC-H streams, CH-benCHmark's analytic streams). MariaDB
-- reads this file through the resolver's fallback. `?` values are bound by
-- the client.

-- name: connection_id
SELECT CONNECTION_ID() AS id;

-- name: kill_query
-- Cancel the statement a session's connection runs (sent from another connection).
KILL QUERY ?;

-- name: session_timeout_mysql
-- MySQL: a SELECT's time limit in ms (0 = none); the server stops it with error 3024.
SET SESSION max_execution_time = ?;

-- name: session_timeout_mariadb
-- MariaDB: any statement's time limit in seconds (0 = none); error 1969 when it fires.
SET SESSION max_statement_time = ?;

-- name: explain
-- How the MySQL-family driver shows a query's plan without running it:
-- EXPLAIN's rows (id, select_type, table, type, key, rows, Extra ...), which
-- the driver lays out as a text table. The sql placeholder is the timed statement.
EXPLAIN {{sql}};
