-- How the SQLite driver shows a query's plan: EXPLAIN QUERY PLAN returns one
-- row per plan node (id, parent, detail); the driver indents the details by
-- their parent into a text tree. {{sql}} is the timed statement.

-- name: explain
EXPLAIN QUERY PLAN {{sql}};
