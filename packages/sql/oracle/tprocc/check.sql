-- What checkschema reads (hammerdb.md §5.5), as the TPROC-C user. core's
-- evaluateCheck() judges the facts. :w is a warehouse id; &table is one of
-- the nine TPROC-C table names.

-- name: tables
SELECT LOWER(table_name) AS name FROM user_tables;

-- name: indexed_tables
SELECT DISTINCT LOWER(table_name) AS name FROM user_indexes;

-- name: routines
SELECT LOWER(object_name) AS name FROM user_objects WHERE object_type = 'PROCEDURE' AND status = 'VALID';

-- name: row_count
SELECT COUNT(*) AS n FROM &table;

-- name: warehouse_ytd
SELECT w.w_ytd AS w_ytd,
       (SELECT SUM(d.d_ytd) FROM district d WHERE d.d_w_id = w.w_id) AS sum_d_ytd
  FROM warehouse w
 WHERE w.w_id = :w;

-- name: district_facts
SELECT d.d_id AS d,
       d.d_next_o_id AS next_o_id,
       (SELECT MAX(o.o_id) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) AS max_o_id,
       (SELECT COUNT(*) FROM new_order n WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id) AS no_count,
       (SELECT MIN(n.no_o_id) FROM new_order n WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id) AS no_min,
       (SELECT MAX(n.no_o_id) FROM new_order n WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id) AS no_max,
       (SELECT SUM(o.o_ol_cnt) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) AS sum_ol_cnt,
       (SELECT COUNT(*) FROM order_line l WHERE l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id) AS ol_count
  FROM district d
 WHERE d.d_w_id = :w
 ORDER BY d.d_id;
