-- Db2's engine-level query session (driver engine/query-session.ts): the
-- statements every workload's analytic session uses (TPROC-H streams,
-- CH-benCHmark's analytic streams). ? are parameter markers; ${name} is
-- substituted by hand (envsubst) before `db2 -td@ -vf`. The statement
-- timeout is the CLI statement attribute SQL_ATTR_QUERY_TIMEOUT, not a
-- statement.

-- name: session_degree
-- On a query session's connection: its degree of intra-partition parallelism.
SET CURRENT DEGREE '${dop}';

-- name: application_handle
-- On a query session's connection: its handle, for cancelling its statement from another connection.
SELECT MON_GET_APPLICATION_HANDLE() AS handle FROM sysibm.sysdummy1;

-- name: set_client_applname
-- Names a session (client application name, CLIENT_APPLNAME in
-- MON_GET_CONNECTION): sledge-<name> for a query session.
CALL SYSPROC.WLM_SET_CLIENT_INFO(NULL, NULL, ?, NULL, NULL)
@

-- name: executing_activity
-- The activity (statement) a session's application is running now.
SELECT uow_id AS uow_id, activity_id AS activity_id
  FROM TABLE(MON_GET_ACTIVITY(?, -2))
 WHERE activity_state IN ('EXECUTING', 'IDLE', 'QUEUED')
 ORDER BY local_start_time DESC
 FETCH FIRST 1 ROW ONLY;

-- name: cancel_activity
-- Cancel that statement (WLM_CANCEL_ACTIVITY, needs WLMADM or DBADM): it ends with SQL4725N.
CALL WLM_CANCEL_ACTIVITY(?, ?, ?);

-- name: explain_tables_exist
-- How the Db2 driver reads a query plan without db2exfmt: the explain
-- tables are created in the schema when missing (SYSINSTALLOBJECTS),
-- EXPLAIN PLAN stores the plan of the statement under a query number, and
-- the operators and their input streams are read back and printed as an
-- indented tree (operator, id, estimated rows, total cost). The instance
-- is deleted afterwards (its operator and stream rows go with it).
SELECT COUNT(*) AS n FROM syscat.tables WHERE tabschema = CURRENT SCHEMA AND tabname = 'EXPLAIN_INSTANCE';

-- name: create_explain_tables
CALL SYSPROC.SYSINSTALLOBJECTS('EXPLAIN', 'C', CAST(NULL AS VARCHAR(128)), CURRENT SCHEMA);

-- name: explain
EXPLAIN PLAN SET QUERYNO = {{queryno}} FOR
{{sql}};

-- name: latest_instance
SELECT explain_time AS explain_time
  FROM explain_statement
 WHERE queryno = ? AND explain_level = 'P'
 ORDER BY explain_time DESC
 FETCH FIRST 1 ROW ONLY;

-- name: operators
SELECT operator_id AS id, operator_type AS type, total_cost AS cost
  FROM explain_operator
 WHERE explain_time = ?
 ORDER BY operator_id;

-- name: streams
SELECT source_type AS source_type, source_id AS source_id, target_id AS target_id,
       stream_count AS row_count, object_name AS object_name
  FROM explain_stream
 WHERE explain_time = ?
 ORDER BY stream_id;

-- name: clear
DELETE FROM explain_instance WHERE explain_time = ?;
