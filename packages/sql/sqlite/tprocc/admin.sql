-- Server version and schema state read by the SQLite driver's admin session.

-- name: server_version
SELECT sqlite_version() AS version;

-- name: schema_max_warehouse
SELECT coalesce(max(w_id), 0) AS w FROM warehouse;

-- name: schema_tproc_tables
-- The TPROC-C tables present: the schema exists when warehouse is there;
-- createSchema refuses to build over any of them.
SELECT name FROM sqlite_schema
WHERE type = 'table'
  AND name IN ('warehouse', 'district', 'item', 'stock', 'customer', 'history', 'orders', 'new_order', 'order_line');

-- name: schema_other_objects
-- Objects in the file that are not TPROC-C tables or their indexes
-- (SQLite's own sqlite_* tables aside). When there are none, dropSchema
-- deletes the file with its -wal and -shm instead of dropping table by table.
SELECT count(*) AS n FROM sqlite_schema
WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\'
  AND tbl_name NOT IN ('warehouse', 'district', 'item', 'stock', 'customer', 'history', 'orders', 'new_order', 'order_line');

-- name: file_tables
-- Every table in the file (SQLite's own sqlite_* aside): when the build is
-- refused, the message says whose schema they are.
SELECT name FROM sqlite_schema
WHERE type = 'table'
  AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
ORDER BY name;
