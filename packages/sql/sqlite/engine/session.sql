-- SQLite's engine-level query session (driver engine/query-session.ts): the
-- statements every workload's analytic session uses (TPROC-H streams,
-- CH-benCHmark's analytic streams). SQLite has no session settings, session
-- ids or server-side cancel: queries run in a child process that the driver
-- stops to cancel one or to enforce the statement timeout.

-- name: explain
-- How the SQLite driver shows a query's plan: EXPLAIN QUERY PLAN returns one
-- row per plan node (id, parent, detail); the driver indents the details by
-- their parent into a text tree. The sql placeholder is the timed statement.
EXPLAIN QUERY PLAN {{sql}};
