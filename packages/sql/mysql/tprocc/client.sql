-- The five transactions as client-side statements (target.noStoredProcs).
-- The driver runs them between begin and commit, with named parameters
-- (:name), as text or, when target.prepared, as server-side prepared
-- statements. Same semantics as procedures.sql; decimal inputs are CAST so
-- arithmetic stays exact whatever type the client binds.

-- name: begin
START TRANSACTION

-- name: begin_read_only
START TRANSACTION READ ONLY

-- name: commit
COMMIT

-- name: rollback
ROLLBACK

-- name: customers_by_name
-- Namesakes ordered by c_first; the client takes row ceil(n/2).
SELECT c_id FROM customer
 WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_last = :c_last
 ORDER BY c_first

-- ---------------------------------------------------------------- new order
-- name: no_customer
SELECT c_discount, c_last, c_credit FROM customer
 WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id

-- name: no_warehouse
SELECT w_tax FROM warehouse WHERE w_id = :w_id

-- name: no_district_next
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = :w_id AND d_id = :d_id

-- name: no_district
SELECT d_next_o_id - 1 AS o_id, d_tax FROM district WHERE d_w_id = :w_id AND d_id = :d_id

-- name: no_order
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
VALUES (:o_id, :d_id, :w_id, :c_id, NOW(), NULL, :ol_cnt, :all_local)

-- name: no_new_order
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (:o_id, :d_id, :w_id)

-- name: no_item
SELECT i_price FROM item WHERE i_id = :i_id

-- name: no_stock
-- Take qty, restock by 91 when fewer than 10 would remain.
UPDATE stock
   SET s_quantity = IF(s_quantity >= :qty + 10, s_quantity - :qty, s_quantity - :qty + 91),
       s_ytd = s_ytd + :qty,
       s_order_cnt = s_order_cnt + 1,
       s_remote_cnt = s_remote_cnt + :remote
 WHERE s_w_id = :supply_w_id AND s_i_id = :i_id

-- name: no_stock_dist
SELECT ELT(:d_id, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05,
                  s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10) AS dist
  FROM stock WHERE s_w_id = :supply_w_id AND s_i_id = :i_id

-- name: no_order_line
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                        ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
VALUES (:o_id, :d_id, :w_id, :number, :i_id, :supply_w_id, NULL, :qty,
        ROUND(:qty * CAST(:price AS DECIMAL(5,2))
              * (1 + CAST(:w_tax AS DECIMAL(4,4)) + CAST(:d_tax AS DECIMAL(4,4)))
              * (1 - CAST(:c_discount AS DECIMAL(4,4))), 2),
        :dist)

-- ------------------------------------------------------------------ payment
-- name: pay_warehouse_ytd
UPDATE warehouse SET w_ytd = w_ytd + CAST(:amount AS DECIMAL(6,2)) WHERE w_id = :w_id

-- name: pay_warehouse
SELECT w_name FROM warehouse WHERE w_id = :w_id

-- name: pay_district_ytd
UPDATE district SET d_ytd = d_ytd + CAST(:amount AS DECIMAL(6,2)) WHERE d_w_id = :w_id AND d_id = :d_id

-- name: pay_district
SELECT d_name FROM district WHERE d_w_id = :w_id AND d_id = :d_id

-- name: pay_customer_update
-- Bad credit: prepend "c_id c_d_id c_w_id d_id w_id amount | " to c_data, keep 500 characters.
UPDATE customer
   SET c_balance = c_balance - CAST(:amount AS DECIMAL(6,2)),
       c_ytd_payment = c_ytd_payment + CAST(:amount AS DECIMAL(6,2)),
       c_payment_cnt = c_payment_cnt + 1,
       c_data = IF(c_credit = 'BC',
                   LEFT(CONCAT(:c_id, ' ', :c_d_id, ' ', :c_w_id, ' ', :d_id, ' ', :w_id, ' ',
                               CAST(:amount AS DECIMAL(6,2)), ' | ', c_data), 500),
                   c_data)
 WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_id = :c_id

-- name: pay_customer
SELECT c_first, c_last, c_credit, c_balance FROM customer
 WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_id = :c_id

-- name: pay_history
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
VALUES (:c_id, :c_d_id, :c_w_id, :d_id, :w_id, NOW(), CAST(:amount AS DECIMAL(6,2)),
        CONCAT(:w_name, '    ', :d_name))

-- ------------------------------------------------------------- order status
-- name: os_customer
SELECT c_balance, c_first, c_middle, c_last FROM customer
 WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id

-- name: os_order
SELECT o_id, o_carrier_id, o_entry_d FROM orders
 WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_c_id = :c_id
 ORDER BY o_id DESC LIMIT 1

-- name: os_lines
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
 WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id

-- ----------------------------------------------------------------- delivery
-- name: dl_oldest
SELECT no_o_id FROM new_order
 WHERE no_w_id = :w_id AND no_d_id = :d_id
 ORDER BY no_o_id LIMIT 1 FOR UPDATE

-- name: dl_delete
DELETE FROM new_order WHERE no_w_id = :w_id AND no_d_id = :d_id AND no_o_id = :o_id

-- name: dl_carrier
UPDATE orders SET o_carrier_id = :carrier_id WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_id = :o_id

-- name: dl_order_customer
SELECT o_c_id FROM orders WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_id = :o_id

-- name: dl_lines
UPDATE order_line SET ol_delivery_d = NOW() WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id

-- name: dl_amount
SELECT COALESCE(SUM(ol_amount), 0) AS amount FROM order_line
 WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id

-- name: dl_customer
UPDATE customer
   SET c_balance = c_balance + CAST(:amount AS DECIMAL(12,2)), c_delivery_cnt = c_delivery_cnt + 1
 WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id

-- -------------------------------------------------------------- stock level
-- name: sl_next_o_id
SELECT d_next_o_id FROM district WHERE d_w_id = :w_id AND d_id = :d_id

-- name: sl_count
SELECT COUNT(DISTINCT s_i_id) AS stock_count
  FROM order_line
  JOIN stock ON s_w_id = :w_id AND s_i_id = ol_i_id
 WHERE ol_w_id = :w_id AND ol_d_id = :d_id
   AND ol_o_id >= :next_o_id - 20 AND ol_o_id < :next_o_id
   AND s_quantity < :threshold
