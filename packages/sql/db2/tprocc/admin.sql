-- Statements of the Db2 admin (monitor) session, run as the TPROC-C user
-- in target.database. '?' are parameter markers bound by the driver;
-- ${name} are variables the driver fills with validated identifiers.

-- name: server_version
-- service_level reads like "DB2 v11.5.9.0"; the driver drops the prefix.
SELECT service_level AS version FROM sysibmadm.env_inst_info
@

-- name: current_schema
SELECT CURRENT SCHEMA AS schema_name FROM sysibm.sysdummy1
@

-- name: warehouse_table_exists
SELECT COUNT(*) AS n FROM syscat.tables WHERE tabschema = CURRENT SCHEMA AND tabname = 'WAREHOUSE'
@

-- name: max_warehouse
SELECT COALESCE(MAX(w_id), 0) AS w FROM warehouse
@
