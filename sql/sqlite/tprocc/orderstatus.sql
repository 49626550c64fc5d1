-- TPROC-C order status (TPC-C 2.6): read-only, run by the SQLite driver
-- inside BEGIN DEFERRED ... COMMIT (a WAL snapshot; it never takes the
-- write lock).

-- Customers of one last name in c_first order; the driver takes the row at
-- position ceil(n/2).
-- name: os_customer_ids_by_name
SELECT c_id
FROM customer
WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_last = :c_last
ORDER BY c_first;

-- name: os_customer
SELECT c_balance, c_first, c_middle, c_last
FROM customer
WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;

-- name: os_last_order
SELECT o_id, o_entry_d, o_carrier_id
FROM orders
WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_c_id = :c_id
ORDER BY o_id DESC
LIMIT 1;

-- name: os_order_lines
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
FROM order_line
WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id;
