-- How the Db2 driver reads a query plan without db2exfmt: the explain
-- tables are created in the schema when missing (SYSINSTALLOBJECTS),
-- EXPLAIN PLAN stores the plan of {{sql}} under query number {{queryno}},
-- and the operators and their input streams are read back and printed as
-- an indented tree (operator, id, estimated rows, total cost). The
-- instance is deleted afterwards (its operator and stream rows go with it).

-- name: explain_tables_exist
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
