-- Secondary indexes, created after the load (finishSchema), then ANALYZE.
-- The primary keys (CUSTOMER_I1, STOCK_I1, ORDERS/NEW_ORDER/ORDER_LINE keys,
-- WAREHOUSE_I1, DISTRICT_I1, ITEM_I1) are declared in tables.sql.
-- Runnable with: sqlite3 tprocc.sqlite < indexes.sql

-- Payment and order status by last name: rows of one name in c_first order
-- (c_id included so the lookup is answered from the index alone).
CREATE INDEX customer_i2 ON customer (c_w_id, c_d_id, c_last, c_first, c_id);

-- Order status: the latest order of a customer.
CREATE INDEX orders_i2 ON orders (o_w_id, o_d_id, o_c_id, o_id);
