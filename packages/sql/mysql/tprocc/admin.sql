-- Monitor/admin statements (named): server version, database lifecycle and
-- schema state. {{database}} is the backquoted target.database; `?` values
-- are bound by the client.

-- name: version
-- Server version; the driver keeps the part before the first '-'.
SELECT VERSION() AS version

-- name: create_database
CREATE DATABASE {{database}} CHARACTER SET latin1 COLLATE latin1_bin

-- name: use_database
USE {{database}}

-- name: database_exists
SELECT COUNT(*) AS n FROM information_schema.schemata WHERE schema_name = ?

-- name: tables
SELECT LOWER(table_name) AS name FROM information_schema.tables WHERE table_schema = ?

-- name: max_warehouse
SELECT COALESCE(MAX(w_id), 0) AS w FROM warehouse
