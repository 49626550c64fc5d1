-- checkschema facts (hammerdb.md §5.5, named), read by the monitor after
-- USE of target.database; core's evaluateCheck() judges them. `?` values
-- are bound by the client (the schema name, or the sampled warehouse ids).

-- name: tables
SELECT LOWER(table_name) AS name FROM information_schema.tables WHERE table_schema = ?

-- name: indexed_tables
SELECT DISTINCT LOWER(table_name) AS name FROM information_schema.statistics WHERE table_schema = ?

-- name: routines
SELECT LOWER(routine_name) AS name FROM information_schema.routines
 WHERE routine_schema = ? AND routine_type = 'PROCEDURE'

-- name: max_warehouse
SELECT COALESCE(MAX(w_id), 0) AS w FROM warehouse

-- name: row_counts
SELECT 'warehouse' AS t, COUNT(*) AS n FROM warehouse
UNION ALL SELECT 'district', COUNT(*) FROM district
UNION ALL SELECT 'customer', COUNT(*) FROM customer
UNION ALL SELECT 'history', COUNT(*) FROM history
UNION ALL SELECT 'item', COUNT(*) FROM item
UNION ALL SELECT 'stock', COUNT(*) FROM stock
UNION ALL SELECT 'new_order', COUNT(*) FROM new_order
UNION ALL SELECT 'orders', COUNT(*) FROM orders
UNION ALL SELECT 'order_line', COUNT(*) FROM order_line

-- name: warehouse_facts
-- C1: w_ytd against the sum of its districts' d_ytd.
SELECT w.w_id AS w, w.w_ytd AS w_ytd,
       (SELECT COALESCE(SUM(d.d_ytd), 0) FROM district d WHERE d.d_w_id = w.w_id) AS sum_d_ytd
  FROM warehouse w WHERE w.w_id IN (?)

-- name: district_facts
SELECT d_w_id AS w, d_id AS d, d_next_o_id AS next_o_id FROM district WHERE d_w_id IN (?)

-- name: orders_facts
-- C2 (max o_id) and C4 (sum of o_ol_cnt) per district.
SELECT o_w_id AS w, o_d_id AS d, MAX(o_id) AS max_o_id, SUM(o_ol_cnt) AS sum_ol_cnt
  FROM orders WHERE o_w_id IN (?) GROUP BY o_w_id, o_d_id

-- name: new_order_facts
-- C3: count against max - min + 1 per district.
SELECT no_w_id AS w, no_d_id AS d, COUNT(*) AS n, MIN(no_o_id) AS lo, MAX(no_o_id) AS hi
  FROM new_order WHERE no_w_id IN (?) GROUP BY no_w_id, no_d_id

-- name: order_line_facts
-- C4: order lines per district.
SELECT ol_w_id AS w, ol_d_id AS d, COUNT(*) AS n
  FROM order_line WHERE ol_w_id IN (?) GROUP BY ol_w_id, ol_d_id
