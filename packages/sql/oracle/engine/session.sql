-- Oracle's engine-level query session (driver engine/query-session.ts): the
-- statements every workload's analytic session uses (TPROC-H streams,
-- CH-benCHmark's analytic streams), run as the target's user; column_types
-- also serves the engine's loader (engine/loader.ts). The session's
-- name is its MODULE and CLIENT_IDENTIFIER, its statement timeout
-- node-oracledb's callTimeout, its cancel connection.break(): none is a
-- statement. :name are bind variables; &name are SQL*Plus substitution
-- variables the driver fills.

-- name: session_parallel
-- The session's degree of parallelism.
ALTER SESSION FORCE PARALLEL QUERY PARALLEL &dop;

-- name: column_types
-- Column types of one of the user's tables, for the bind definitions of
-- insertRows and of the array-DML loader.
SELECT LOWER(column_name) AS name, data_type AS type_name, data_length AS max_length, nullable AS nullable
  FROM user_tab_columns
 WHERE table_name = UPPER(:table_name)
 ORDER BY column_id;

-- name: explain
-- How the driver reads a query plan: EXPLAIN PLAN writes the plan of the
-- statement to PLAN_TABLE under a statement id, DBMS_XPLAN.DISPLAY formats
-- it as text lines, and the rows are removed again.
EXPLAIN PLAN SET STATEMENT_ID = '{{id}}' FOR
{{sql}};

-- name: display
SELECT plan_table_output AS line FROM TABLE(DBMS_XPLAN.DISPLAY('PLAN_TABLE', :id, 'TYPICAL'));

-- name: clear
DELETE FROM plan_table WHERE statement_id = :id;
