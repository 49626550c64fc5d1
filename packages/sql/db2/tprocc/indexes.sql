-- Keys and indexes for Db2, added after the load. Run as the TPROC-C user:
--   db2 -td@ -vf indexes.sql
-- (Statistics follow through SYSPROC.ADMIN_CMD RUNSTATS, admin.sql runstats.)

-- name: warehouse_i1
ALTER TABLE warehouse ADD CONSTRAINT warehouse_i1 PRIMARY KEY (w_id)
@

-- name: district_i1
ALTER TABLE district ADD CONSTRAINT district_i1 PRIMARY KEY (d_w_id, d_id)
@

-- name: customer_i1
ALTER TABLE customer ADD CONSTRAINT customer_i1 PRIMARY KEY (c_w_id, c_d_id, c_id)
@

-- name: customer_i2
CREATE UNIQUE INDEX customer_i2 ON customer (c_w_id, c_d_id, c_last, c_first, c_id)
@

-- name: item_i1
ALTER TABLE item ADD CONSTRAINT item_i1 PRIMARY KEY (i_id)
@

-- name: stock_i1
ALTER TABLE stock ADD CONSTRAINT stock_i1 PRIMARY KEY (s_w_id, s_i_id)
@

-- name: orders_i1
ALTER TABLE orders ADD CONSTRAINT orders_i1 PRIMARY KEY (o_w_id, o_d_id, o_id)
@

-- name: orders_i2
CREATE UNIQUE INDEX orders_i2 ON orders (o_w_id, o_d_id, o_c_id, o_id)
@

-- name: new_order_i1
ALTER TABLE new_order ADD CONSTRAINT new_order_i1 PRIMARY KEY (no_w_id, no_d_id, no_o_id)
@

-- name: order_line_i1
ALTER TABLE order_line ADD CONSTRAINT order_line_i1 PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)
@
