-- What checkschema reads (hammerdb.md §5.5), as the TPROC-C user. core's
-- evaluateCheck() judges the facts. '?' is a warehouse id; ${table} is one
-- of the nine TPROC-C table names.

-- name: tables
SELECT LOWER(tabname) AS name FROM syscat.tables WHERE tabschema = CURRENT SCHEMA AND type = 'T'
@

-- name: indexed_tables
SELECT DISTINCT LOWER(tabname) AS name FROM syscat.indexes WHERE tabschema = CURRENT SCHEMA
@

-- name: routines
SELECT LOWER(routinename) AS name
  FROM syscat.routines
 WHERE routineschema = CURRENT SCHEMA AND routinetype = 'P' AND valid = 'Y'
@

-- name: row_count
SELECT BIGINT(COUNT_BIG(*)) AS n FROM ${table}
@

-- name: warehouse_ytd
SELECT w.w_ytd AS w_ytd,
       (SELECT SUM(d.d_ytd) FROM district d WHERE d.d_w_id = w.w_id) AS sum_d_ytd
  FROM warehouse w
 WHERE w.w_id = ?
@

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
 WHERE d.d_w_id = ?
 ORDER BY d.d_id
@
