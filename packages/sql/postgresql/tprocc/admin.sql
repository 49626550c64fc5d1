-- Database/role lifecycle and schema state. The lifecycle statements run as
-- the superuser, connected to target.defaultDatabase; warehouse_table_exists
-- and max_warehouse run in the TPC database (as the TPC user, or as the
-- superuser when the TPC database is the default database).
-- Placeholders use psql variable syntax: :'x' is a quoted literal, :"x" a
-- quoted identifier. The driver fills them with escapeLiteral/escapeIdentifier;
-- by hand, e.g.
--   psql -U postgres -v role=tpcc -v password=tpcc -v database=tpcc -v tablespace=pg_default

-- name: server_version
SELECT current_setting('server_version') AS version;

-- name: database_exists
SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'database') AS found;

-- name: role_exists
SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') AS found;

-- name: create_role
CREATE ROLE :"role" LOGIN PASSWORD :'password';

-- name: create_database
CREATE DATABASE :"database" OWNER :"role" TABLESPACE :"tablespace";

-- name: terminate_sessions
SELECT count(pg_terminate_backend(pid)) AS terminated
  FROM pg_stat_activity
 WHERE datname = :'database' AND pid <> pg_backend_pid();

-- name: drop_database
DROP DATABASE IF EXISTS :"database";

-- name: drop_role
DROP ROLE IF EXISTS :"role";

-- name: warehouse_table_exists
SELECT to_regclass('warehouse') IS NOT NULL AS found;

-- name: max_warehouse
SELECT coalesce(max(w_id), 0) AS w FROM warehouse;
