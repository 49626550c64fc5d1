-- How the SQL Server driver reads a query plan: SHOWPLAN_TEXT must be set
-- in a batch of its own; while it is on, the next batch (the query) is not
-- run but returns its estimated plan as rows of StmtText.

-- name: showplan_on
SET SHOWPLAN_TEXT ON;

-- name: showplan_off
SET SHOWPLAN_TEXT OFF;
