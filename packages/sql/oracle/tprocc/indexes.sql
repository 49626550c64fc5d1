-- Keys and indexes for Oracle, added after the load, then optimizer
-- statistics. Run as the TPROC-C user:
--   sqlplus tpcc/tpcc@//host:1521/FREEPDB1 @indexes.sql
-- ORDER_LINE's key lives in &order_line_tablespace, the others in
-- &default_tablespace.

-- name: warehouse_i1
ALTER TABLE warehouse ADD CONSTRAINT warehouse_i1 PRIMARY KEY (w_id)
  USING INDEX TABLESPACE &default_tablespace;

-- name: district_i1
ALTER TABLE district ADD CONSTRAINT district_i1 PRIMARY KEY (d_w_id, d_id)
  USING INDEX TABLESPACE &default_tablespace;

-- name: customer_i1
ALTER TABLE customer ADD CONSTRAINT customer_i1 PRIMARY KEY (c_w_id, c_d_id, c_id)
  USING INDEX TABLESPACE &default_tablespace;

-- name: customer_i2
CREATE UNIQUE INDEX customer_i2 ON customer (c_w_id, c_d_id, c_last, c_first, c_id)
  TABLESPACE &default_tablespace;

-- name: item_i1
ALTER TABLE item ADD CONSTRAINT item_i1 PRIMARY KEY (i_id)
  USING INDEX TABLESPACE &default_tablespace;

-- name: stock_i1
ALTER TABLE stock ADD CONSTRAINT stock_i1 PRIMARY KEY (s_i_id, s_w_id)
  USING INDEX TABLESPACE &default_tablespace;

-- name: orders_i1
ALTER TABLE orders ADD CONSTRAINT orders_i1 PRIMARY KEY (o_w_id, o_d_id, o_id)
  USING INDEX TABLESPACE &default_tablespace;

-- name: orders_i2
CREATE UNIQUE INDEX orders_i2 ON orders (o_w_id, o_d_id, o_c_id, o_id)
  TABLESPACE &default_tablespace;

-- name: new_order_i1
ALTER TABLE new_order ADD CONSTRAINT new_order_i1 PRIMARY KEY (no_w_id, no_d_id, no_o_id)
  USING INDEX TABLESPACE &default_tablespace;

-- name: order_line_i1
ALTER TABLE order_line ADD CONSTRAINT order_line_i1 PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)
  USING INDEX TABLESPACE &order_line_tablespace;

-- name: statistics
BEGIN
  DBMS_STATS.GATHER_SCHEMA_STATS(ownname => USER, cascade => TRUE);
END;
/
