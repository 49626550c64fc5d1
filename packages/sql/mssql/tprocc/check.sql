-- What checkschema reads (hammerdb.md §5.5), in the TPROC-C database.
-- core's evaluateCheck() judges the facts. @w is a warehouse id; $(table)
-- is one of the nine TPROC-C table names.

-- name: tables
SELECT LOWER(name) AS name FROM sys.tables WHERE schema_id = SCHEMA_ID(N'dbo');

-- name: indexed_tables
SELECT DISTINCT LOWER(t.name) AS name
  FROM sys.tables t
  JOIN sys.indexes i ON i.object_id = t.object_id
 WHERE t.schema_id = SCHEMA_ID(N'dbo') AND i.type > 0;

-- name: routines
SELECT LOWER(name) AS name FROM sys.procedures WHERE schema_id = SCHEMA_ID(N'dbo');

-- name: row_count
SELECT COUNT_BIG(*) AS n FROM dbo.$(table);

-- name: warehouse_ytd
SELECT w.w_ytd AS w_ytd,
       (SELECT SUM(d.d_ytd) FROM dbo.district d WHERE d.d_w_id = w.w_id) AS sum_d_ytd
  FROM dbo.warehouse w
 WHERE w.w_id = @w;

-- name: district_facts
SELECT d.d_id AS d,
       d.d_next_o_id AS next_o_id,
       (SELECT MAX(o.o_id) FROM dbo.orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) AS max_o_id,
       (SELECT COUNT(*) FROM dbo.new_order n WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id) AS no_count,
       (SELECT MIN(n.no_o_id) FROM dbo.new_order n WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id) AS no_min,
       (SELECT MAX(n.no_o_id) FROM dbo.new_order n WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id) AS no_max,
       (SELECT SUM(o.o_ol_cnt) FROM dbo.orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) AS sum_ol_cnt,
       (SELECT COUNT(*) FROM dbo.order_line l WHERE l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id) AS ol_count
  FROM dbo.district d
 WHERE d.d_w_id = @w
 ORDER BY d.d_id;
