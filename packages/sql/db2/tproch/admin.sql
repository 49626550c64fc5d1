-- Statements of the Db2 TPROC-H admin (monitor) session and the query
-- streams, run as the connecting user in target.database (which must
-- exist: Db2 creates databases with the CLP, not SQL). The TPROC-H tables
-- live in the schema named after the user; createSchema creates it when
-- it is missing. '?' are parameter markers; ${name} are variables the
-- driver fills with validated identifiers.

-- name: server_version
-- service_level reads like "DB2 v11.5.9.0"; the driver drops the prefix.
SELECT service_level AS version FROM sysibmadm.env_inst_info;

-- name: schema_exists
SELECT COUNT(*) AS n FROM syscat.schemata WHERE schemaname = UPPER(?);

-- name: create_schema
CREATE SCHEMA ${schema};

-- name: set_schema
SET SCHEMA ${schema};

-- name: supplier_exists
SELECT COUNT(*) AS n FROM syscat.tables WHERE tabschema = UPPER(?) AND tabname = 'SUPPLIER';

-- name: supplier_count
-- HammerDB's scale factor check: count(supplier) / 10000.
SELECT COUNT(*) AS n FROM supplier;

-- name: row_count
SELECT COUNT_BIG(*) AS n FROM ${table};

-- name: column_types
-- Column types of one table, for the loader's literals.
SELECT LOWER(colname) AS name, typename AS type_name, length AS max_length, scale AS scale, nulls AS nullable
  FROM syscat.columns
 WHERE tabschema = UPPER(?) AND tabname = UPPER(?)
 ORDER BY colno;
