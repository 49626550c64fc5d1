-- Schema state, counters and checkschema facts read by the SQLite driver's
-- admin session.

-- name: server_version
SELECT sqlite_version() AS version;

-- name: schema_max_warehouse
SELECT coalesce(max(w_id), 0) AS w FROM warehouse;

-- The TPROC-C tables present: the schema exists when warehouse is there;
-- createSchema refuses to build over any of them.
-- name: schema_tproc_tables
SELECT name FROM sqlite_schema
WHERE type = 'table'
  AND name IN ('warehouse', 'district', 'item', 'stock', 'customer', 'history', 'orders', 'new_order', 'order_line');

-- Objects in the file that are not TPROC-C tables or their indexes
-- (SQLite's own sqlite_* tables aside). When there are none, dropSchema
-- deletes the file with its -wal and -shm instead of dropping table by table.
-- name: schema_other_objects
SELECT count(*) AS n FROM sqlite_schema
WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\'
  AND tbl_name NOT IN ('warehouse', 'district', 'item', 'stock', 'customer', 'history', 'orders', 'new_order', 'order_line');

-- NOPM counter: sum of the districts' next order ids (HammerDB's query).
-- name: counters_nopm
SELECT coalesce(sum(d_next_o_id), 0) AS nopm FROM district;

-- A table is indexed when it has a declared primary key or any index
-- (WITHOUT ROWID tables list their clustered key here as origin 'pk').
-- name: check_indexed
SELECT count(*) AS n FROM pragma_index_list(:table);

-- name: check_row_counts
SELECT 'item' AS t, count(*) AS n FROM item
UNION ALL SELECT 'warehouse', count(*) FROM warehouse
UNION ALL SELECT 'stock', count(*) FROM stock
UNION ALL SELECT 'district', count(*) FROM district
UNION ALL SELECT 'customer', count(*) FROM customer
UNION ALL SELECT 'history', count(*) FROM history
UNION ALL SELECT 'orders', count(*) FROM orders
UNION ALL SELECT 'new_order', count(*) FROM new_order
UNION ALL SELECT 'order_line', count(*) FROM order_line;

-- C1: w_ytd against the sum of its districts' d_ytd.
-- name: check_warehouse
SELECT w_ytd, (SELECT coalesce(sum(d_ytd), 0) FROM district WHERE d_w_id = w_id) AS sum_d_ytd
FROM warehouse
WHERE w_id = :w_id;

-- C2-C4 per district: next order id, max(o_id), the new_order range and
-- count, sum(o_ol_cnt) and count(order_line).
-- name: check_districts
SELECT d_id AS d,
       d_next_o_id AS next_o_id,
       (SELECT coalesce(max(o_id), 0) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) AS max_o_id,
       (SELECT count(*) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) AS no_count,
       (SELECT coalesce(min(no_o_id), 0) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) AS no_min,
       (SELECT coalesce(max(no_o_id), 0) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) AS no_max,
       (SELECT coalesce(sum(o_ol_cnt), 0) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) AS sum_ol_cnt,
       (SELECT count(*) FROM order_line WHERE ol_w_id = d_w_id AND ol_d_id = d_id) AS ol_count
FROM district
WHERE d_w_id = :w_id
ORDER BY d_id;

-- Post-run maintenance: fold the WAL back into the database and truncate it.
-- name: after_run_checkpoint
PRAGMA wal_checkpoint(TRUNCATE);
