-- TPROC-H database/role lifecycle and schema state for PostgreSQL. As for
-- TPROC-C, the lifecycle statements run as the superuser connected to
-- target.defaultDatabase (the database tpch is created owned by the role
-- tpch); the schema statements run in the TPC-H database.
-- Placeholders use psql variable syntax: :'x' a quoted literal, :"x" a
-- quoted identifier, e.g. psql -U postgres -v role=tpch -v password=tpch -v database=tpch

-- name: server_version
SELECT current_setting('server_version') AS version;

-- name: database_exists
SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'database') AS found;

-- name: role_exists
SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') AS found;

-- name: create_role
CREATE ROLE :"role" LOGIN PASSWORD :'password';

-- name: create_database
CREATE DATABASE :"database" OWNER :"role";

-- name: terminate_sessions
SELECT count(pg_terminate_backend(pid)) AS terminated
  FROM pg_stat_activity
 WHERE datname = :'database' AND pid <> pg_backend_pid();

-- name: drop_database
DROP DATABASE IF EXISTS :"database";

-- name: drop_role
DROP ROLE IF EXISTS :"role";

-- name: supplier_table_exists
SELECT to_regclass('supplier') IS NOT NULL AS found;

-- name: any_table_exists
SELECT count(*) > 0 AS found
  FROM pg_tables
 WHERE schemaname = current_schema()
   AND tablename IN ('region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem');

-- name: suppliers
-- HammerDB's scale factor check: SF = count(supplier) / 10000.
SELECT count(*) AS n FROM supplier;

-- name: row_counts
SELECT 'region' AS t, count(*) AS n FROM region
UNION ALL SELECT 'nation', count(*) FROM nation
UNION ALL SELECT 'supplier', count(*) FROM supplier
UNION ALL SELECT 'customer', count(*) FROM customer
UNION ALL SELECT 'part', count(*) FROM part
UNION ALL SELECT 'partsupp', count(*) FROM partsupp
UNION ALL SELECT 'orders', count(*) FROM orders
UNION ALL SELECT 'lineitem', count(*) FROM lineitem;
