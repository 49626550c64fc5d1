-- checkschema facts (hammerdb.md §5.5), read as the TPC user in the TPC
-- database. :w is a warehouse id (an integer the driver inserts).

-- name: tables
SELECT c.relname AS name
  FROM pg_class c
 WHERE c.relnamespace = (SELECT n.oid FROM pg_namespace n WHERE n.nspname = current_schema())
   AND c.relkind IN ('r', 'p')
   AND c.relname IN ('warehouse', 'district', 'customer', 'history', 'item', 'stock', 'new_order', 'orders', 'order_line');

-- name: indexed_tables
SELECT DISTINCT tablename AS name FROM pg_indexes WHERE schemaname = current_schema();

-- name: routines
SELECT p.proname AS name, p.prokind AS kind
  FROM pg_proc p
 WHERE p.pronamespace = (SELECT n.oid FROM pg_namespace n WHERE n.nspname = current_schema())
   AND p.proname IN ('neword', 'payment', 'delivery', 'slev', 'ostat');

-- name: row_counts
SELECT (SELECT count(*) FROM warehouse)  AS warehouse,
       (SELECT count(*) FROM district)   AS district,
       (SELECT count(*) FROM customer)   AS customer,
       (SELECT count(*) FROM history)    AS history,
       (SELECT count(*) FROM item)       AS item,
       (SELECT count(*) FROM stock)      AS stock,
       (SELECT count(*) FROM new_order)  AS new_order,
       (SELECT count(*) FROM orders)     AS orders,
       (SELECT count(*) FROM order_line) AS order_line;

-- name: max_warehouse
SELECT max(w_id) AS w FROM warehouse;

-- name: warehouse_facts
-- C1: w_ytd against the sum of its districts' d_ytd.
SELECT w.w_ytd::text AS w_ytd,
       (SELECT coalesce(sum(d.d_ytd), 0) FROM district d WHERE d.d_w_id = w.w_id)::text AS sum_d_ytd
  FROM warehouse w
 WHERE w.w_id = :w;

-- name: district_facts
-- C2-C4 per district.
SELECT d.d_id, d.d_next_o_id, o.max_o_id, o.sum_ol_cnt, n.no_count, n.no_min, n.no_max, l.ol_count
  FROM district d
 CROSS JOIN LATERAL (SELECT coalesce(max(o_id), 0) AS max_o_id, coalesce(sum(o_ol_cnt), 0)::bigint AS sum_ol_cnt
                       FROM orders WHERE o_w_id = d.d_w_id AND o_d_id = d.d_id) o
 CROSS JOIN LATERAL (SELECT count(*) AS no_count, coalesce(min(no_o_id), 0) AS no_min, coalesce(max(no_o_id), 0) AS no_max
                       FROM new_order WHERE no_w_id = d.d_w_id AND no_d_id = d.d_id) n
 CROSS JOIN LATERAL (SELECT count(*) AS ol_count
                       FROM order_line WHERE ol_w_id = d.d_w_id AND ol_d_id = d.d_id) l
 WHERE d.d_w_id = :w
 ORDER BY d.d_id;
