-- Secondary keys, added after the load (finishSchema). InnoDB builds each
-- with one sorted pass, which is faster than maintaining them row by row
-- while loading customers and orders in primary-key order.
-- The primary keys are part of tables.sql.

-- Payment and order status by last name: middle row ordered by c_first.
ALTER TABLE customer ADD INDEX customer_i2 (c_w_id, c_d_id, c_last, c_first);

-- Order status: the customer's latest order.
ALTER TABLE orders ADD INDEX orders_i2 (o_w_id, o_d_id, o_c_id, o_id);
