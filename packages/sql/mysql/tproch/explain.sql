-- How the MySQL-family driver shows a query's plan without running it:
-- EXPLAIN's rows (id, select_type, table, type, key, rows, Extra ...), which
-- the driver lays out as a text table. {{sql}} is the timed statement.

-- name: explain
EXPLAIN {{sql}};
