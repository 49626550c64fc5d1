-- TPROC-C new order (TPC-C 2.4), run by the SQLite driver as a sequence of
-- prepared statements inside BEGIN IMMEDIATE ... COMMIT. Parameters are
-- named (:w_id); in the sqlite3 shell set them with `.param set :w_id 1`.
-- Per order line the driver runs no_item, no_stock and no_order_line; an
-- unknown item (the 1% rollback case) rolls the whole transaction back.

-- name: no_customer_warehouse
SELECT c_discount, c_last, c_credit, w_tax
FROM customer, warehouse
WHERE w_id = :w_id
  AND c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;

-- name: no_district
UPDATE district
SET d_next_o_id = d_next_o_id + 1
WHERE d_w_id = :w_id AND d_id = :d_id
RETURNING d_next_o_id - 1 AS o_id, d_tax;

-- name: no_order
INSERT INTO orders (o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
VALUES (:w_id, :d_id, :o_id, :c_id, datetime('now'), NULL, :ol_cnt, :all_local);

-- name: no_new_order
INSERT INTO new_order (no_w_id, no_d_id, no_o_id)
VALUES (:w_id, :d_id, :o_id);

-- name: no_item
SELECT i_price, i_name, i_data
FROM item
WHERE i_id = :i_id;

-- Take the ordered quantity from stock: refill by 91 when fewer than 10
-- would be left (TPC-C 2.4.2.2), and return the district's dist_info.
-- name: no_stock
UPDATE stock
SET s_quantity = CASE WHEN s_quantity - :quantity >= 10
                      THEN s_quantity - :quantity
                      ELSE s_quantity - :quantity + 91 END,
    s_ytd = s_ytd + :quantity,
    s_order_cnt = s_order_cnt + 1,
    s_remote_cnt = s_remote_cnt + :remote
WHERE s_w_id = :supply_w_id AND s_i_id = :i_id
RETURNING s_data,
  CASE :d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
             WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
             WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
             ELSE s_dist_10 END AS dist_info;

-- ol_amount = quantity * price * (1 + w_tax + d_tax) * (1 - c_discount), to the cent.
-- name: no_order_line
INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_supply_w_id,
                        ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
VALUES (:w_id, :d_id, :o_id, :number, :i_id, :supply_w_id,
        NULL, :quantity, ROUND(:quantity * :price * (1 + :w_tax + :d_tax) * (1 - :discount), 2), :dist_info);
