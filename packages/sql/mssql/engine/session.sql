-- SQL Server's engine-level query session (driver engine/query-session.ts):
-- the statements every workload's analytic session uses (TPROC-H streams,
-- CH-benCHmark's analytic streams). The session's name is its program_name
-- (the TDS appName), its statement timeout the client's request timeout
-- (tedious requestTimeout), its cancel a TDS attention: none is a statement.
-- $(name) is a sqlcmd scripting variable.

-- name: maxdop_option
-- Appended by the driver to each timed select: the session's degree of parallelism.
OPTION (MAXDOP $(dop))

-- name: showplan_on
-- How the driver reads a query plan: SHOWPLAN_TEXT must be set in a batch
-- of its own; while it is on, the next batch (the query) is not run but
-- returns its estimated plan as rows of StmtText.
SET SHOWPLAN_TEXT ON;

-- name: showplan_off
SET SHOWPLAN_TEXT OFF;
