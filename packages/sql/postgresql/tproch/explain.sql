-- How the PostgreSQL driver shows a query's plan without running it: EXPLAIN
-- in text format, one row per plan line. {{sql}} is the timed statement.

-- name: explain
EXPLAIN (FORMAT TEXT) {{sql}};
