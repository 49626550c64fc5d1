-- TPROC-C keys for DuckDB, added after the load (hammerdb.md §5.1, as
-- PostgreSQL's indexes.sql): primary keys (ALTER TABLE ... ADD PRIMARY KEY,
-- DuckDB 1.2+) and the two secondary indexes. DuckDB has no UNIQUE index
-- besides a constraint's, so customer_i2 and orders_i2 are plain ART
-- indexes (their columns end with the primary key, so they are unique
-- anyway). HISTORY has no key. Runnable with: duckdb tprocc.duckdb < keys.sql

ALTER TABLE warehouse  ADD CONSTRAINT warehouse_i1  PRIMARY KEY (w_id);
ALTER TABLE district   ADD CONSTRAINT district_i1   PRIMARY KEY (d_w_id, d_id);
ALTER TABLE customer   ADD CONSTRAINT customer_i1   PRIMARY KEY (c_w_id, c_d_id, c_id);
ALTER TABLE item       ADD CONSTRAINT item_i1       PRIMARY KEY (i_id);
ALTER TABLE stock      ADD CONSTRAINT stock_i1      PRIMARY KEY (s_i_id, s_w_id);
ALTER TABLE new_order  ADD CONSTRAINT new_order_i1  PRIMARY KEY (no_w_id, no_d_id, no_o_id);
ALTER TABLE orders     ADD CONSTRAINT orders_i1     PRIMARY KEY (o_w_id, o_d_id, o_id);
ALTER TABLE order_line ADD CONSTRAINT order_line_i1 PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number);

CREATE INDEX customer_i2 ON customer (c_w_id, c_d_id, c_last, c_first, c_id);
CREATE INDEX orders_i2   ON orders (o_w_id, o_d_id, o_c_id, o_id);
