-- TPROC-H server version and schema state for SQLite. The "database" is the
-- file (target.file): createSchema creates it, dropSchema deletes it when it
-- holds nothing but the TPROC-H schema.

-- name: server_version
SELECT sqlite_version() AS version;

-- name: schema_tables
-- The TPROC-H tables present in the file.
SELECT name FROM sqlite_schema
WHERE type = 'table'
  AND name IN ('region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem');

-- name: schema_suppliers
-- HammerDB's scale factor check: SF = count(supplier) / 10000.
SELECT count(*) AS n FROM supplier;

-- name: schema_other_objects
-- Objects in the file that are not TPROC-H tables or their indexes (SQLite's
-- own sqlite_* tables aside): with none, dropSchema deletes the file.
SELECT count(*) AS n FROM sqlite_schema
WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\'
  AND tbl_name NOT IN ('region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem');

-- name: row_counts
SELECT 'region' AS t, count(*) AS n FROM region
UNION ALL SELECT 'nation', count(*) FROM nation
UNION ALL SELECT 'supplier', count(*) FROM supplier
UNION ALL SELECT 'customer', count(*) FROM customer
UNION ALL SELECT 'part', count(*) FROM part
UNION ALL SELECT 'partsupp', count(*) FROM partsupp
UNION ALL SELECT 'orders', count(*) FROM orders
UNION ALL SELECT 'lineitem', count(*) FROM lineitem;

-- name: file_tables
-- Every table in the file (SQLite's own sqlite_* aside): when the build is
-- refused, the message says whose schema they are.
SELECT name FROM sqlite_schema
WHERE type = 'table'
  AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
ORDER BY name;
