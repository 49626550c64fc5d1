-- TPROC-H schema state for DuckDB (the file is the database: no database
-- or role lifecycle). Runnable with the duckdb shell.

-- name: server_version
SELECT version() AS version;

-- name: schema_tables
-- The TPROC-H tables present in the file's main schema.
SELECT table_name
  FROM duckdb_tables()
 WHERE schema_name = 'main'
   AND table_name IN ('region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem');

-- name: file_tables
-- Every table of the main schema (what a build would clash with).
SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY table_name;

-- name: schema_other_objects
-- Tables and views of the main schema that are not TPROC-H's.
SELECT (SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main'
          AND table_name NOT IN ('region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'))
     + (SELECT count(*) FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal) AS n;

-- name: schema_suppliers
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
