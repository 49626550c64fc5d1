-- TPROC-C schema state, counters and checkschema facts for DuckDB (the file
-- is the database: no database or role lifecycle), read by the driver's
-- admin session; core's evaluateCheck() judges the facts. Parameters are
-- positional ($1). Runnable with the duckdb shell (PREPARE / EXECUTE).

-- name: server_version
SELECT version() AS version;

-- name: schema_tables
-- The TPROC-C tables present in the main schema: the schema exists when
-- warehouse is there.
SELECT table_name
  FROM duckdb_tables()
 WHERE schema_name = 'main'
   AND table_name IN ('warehouse', 'district', 'item', 'stock', 'customer', 'history', 'orders', 'new_order', 'order_line');

-- name: file_tables
-- Every table of the main schema (what a build would clash with).
SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY table_name;

-- name: schema_other_objects
-- Tables and views of the main schema that are not TPROC-C's. When there
-- are none, dropSchema deletes the file with its WAL instead of dropping
-- table by table. (CH-benCHmark drops its three tables first.)
SELECT (SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main'
          AND table_name NOT IN ('warehouse', 'district', 'item', 'stock', 'customer', 'history', 'orders', 'new_order', 'order_line'))
     + (SELECT count(*) FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal) AS n;

-- name: schema_max_warehouse
SELECT coalesce(max(w_id), 0) AS w FROM warehouse;

-- name: counters_nopm
-- NOPM counter: sum of the districts' next order ids (HammerDB's query).
SELECT coalesce(sum(d_next_o_id), 0) AS nopm FROM district;

-- name: check_indexed
-- Tables with a primary key or an index: table name, then 1.
SELECT table_name, 1 AS n FROM duckdb_constraints() WHERE schema_name = 'main' AND constraint_type = 'PRIMARY KEY'
UNION
SELECT table_name, 1 FROM duckdb_indexes() WHERE schema_name = 'main';

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

-- name: check_warehouse
-- C1: w_ytd against the sum of its districts' d_ytd. $1 = w_id.
SELECT w_ytd, (SELECT coalesce(sum(d_ytd), 0) FROM district WHERE d_w_id = w_id) AS sum_d_ytd
  FROM warehouse
 WHERE w_id = $1;

-- name: check_districts
-- C2-C4 per district of warehouse $1: next order id, max(o_id), the
-- new_order range and count, sum(o_ol_cnt) and count(order_line).
SELECT d_id AS d,
       d_next_o_id AS next_o_id,
       (SELECT coalesce(max(o_id), 0) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) AS max_o_id,
       (SELECT count(*) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) AS no_count,
       (SELECT coalesce(min(no_o_id), 0) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) AS no_min,
       (SELECT coalesce(max(no_o_id), 0) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) AS no_max,
       (SELECT coalesce(sum(o_ol_cnt), 0) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) AS sum_ol_cnt,
       (SELECT count(*) FROM order_line WHERE ol_w_id = d_w_id AND ol_d_id = d_id) AS ol_count
  FROM district
 WHERE d_w_id = $1
 ORDER BY d_id;
