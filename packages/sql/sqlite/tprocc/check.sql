-- checkschema facts (hammerdb.md §5.5) read by the SQLite driver's admin
-- session; core's evaluateCheck() judges them. The schema state statements
-- (tables present, max warehouse) are admin.sql's. Parameters are named
-- (:table, :w_id); in the sqlite3 shell use `.param set :w_id 1`.

-- name: check_indexed
-- A table is indexed when it has a declared primary key or any index
-- (WITHOUT ROWID tables list their clustered key here as origin 'pk').
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

-- name: check_warehouse
-- C1: w_ytd against the sum of its districts' d_ytd.
SELECT w_ytd, (SELECT coalesce(sum(d_ytd), 0) FROM district WHERE d_w_id = w_id) AS sum_d_ytd
FROM warehouse
WHERE w_id = :w_id;

-- name: check_districts
-- C2-C4 per district: next order id, max(o_id), the new_order range and
-- count, sum(o_ol_cnt) and count(order_line).
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
