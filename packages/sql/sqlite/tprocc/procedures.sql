-- The five TPROC-C transactions for SQLite, which has no stored routines:
-- each is a sequence of prepared statements the driver runs inside one
-- transaction (src/tx/*.ts). Statement names start with the transaction:
-- neword_, payment_, ostat_, delivery_, slev_. Parameters are named
-- (:w_id); in the sqlite3 shell set them with `.param set :w_id 1`.

-- ------------------------------------------------------------- new order

-- name: neword_customer_warehouse
-- TPROC-C new order (TPC-C 2.4), run by the SQLite driver as a sequence of
-- prepared statements inside BEGIN IMMEDIATE ... COMMIT. Per order line the
-- driver runs neword_item, neword_stock and neword_order_line; an unknown
-- item (the 1% rollback case) rolls the whole transaction back.
SELECT c_discount, c_last, c_credit, w_tax
FROM customer, warehouse
WHERE w_id = :w_id
  AND c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;

-- name: neword_district
UPDATE district
SET d_next_o_id = d_next_o_id + 1
WHERE d_w_id = :w_id AND d_id = :d_id
RETURNING d_next_o_id - 1 AS o_id, d_tax;

-- name: neword_order
INSERT INTO orders (o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
VALUES (:w_id, :d_id, :o_id, :c_id, datetime('now'), NULL, :ol_cnt, :all_local);

-- name: neword_new_order
INSERT INTO new_order (no_w_id, no_d_id, no_o_id)
VALUES (:w_id, :d_id, :o_id);

-- name: neword_item
SELECT i_price, i_name, i_data
FROM item
WHERE i_id = :i_id;

-- name: neword_stock
-- Take the ordered quantity from stock: refill by 91 when fewer than 10
-- would be left (TPC-C 2.4.2.2), and return the district's dist_info.
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

-- name: neword_order_line
-- ol_amount = quantity * price * (1 + w_tax + d_tax) * (1 - c_discount), to the cent.
INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_supply_w_id,
                        ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
VALUES (:w_id, :d_id, :o_id, :number, :i_id, :supply_w_id,
        NULL, :quantity, ROUND(:quantity * :price * (1 + :w_tax + :d_tax) * (1 - :discount), 2), :dist_info);

-- --------------------------------------------------------------- payment

-- name: payment_warehouse
-- TPROC-C payment (TPC-C 2.5), run by the SQLite driver as a sequence of
-- prepared statements inside BEGIN IMMEDIATE ... COMMIT. Money columns are
-- rounded to the cent on every update (see tables.sql).
UPDATE warehouse
SET w_ytd = ROUND(w_ytd + :amount, 2)
WHERE w_id = :w_id
RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip;

-- name: payment_district
UPDATE district
SET d_ytd = ROUND(d_ytd + :amount, 2)
WHERE d_w_id = :w_id AND d_id = :d_id
RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip;

-- name: payment_customer_ids_by_name
-- Customers of one last name in c_first order; the driver takes the row at
-- position ceil(n/2) (TPC-C 2.5.2.2).
SELECT c_id
FROM customer
WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_last = :c_last
ORDER BY c_first;

-- name: payment_customer
-- Balance, year-to-date and count; for bad credit (BC) also prepend
-- "c_id c_d_id c_w_id d_id w_id amount | " to c_data, kept to 500 characters.
-- (printf, not ||: bound numbers arrive as REAL and would print as "1.0".)
UPDATE customer
SET c_balance = ROUND(c_balance - :amount, 2),
    c_ytd_payment = ROUND(c_ytd_payment + :amount, 2),
    c_payment_cnt = c_payment_cnt + 1,
    c_data = CASE WHEN c_credit = 'BC'
                  THEN substr(printf('%d %d %d %d %d %.2f | ', c_id, c_d_id, c_w_id, :d_id, :w_id, :amount)
                              || c_data, 1, 500)
                  ELSE c_data END
WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_id = :c_id
RETURNING c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,
          c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance;

-- name: payment_history
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
VALUES (:c_id, :c_d_id, :c_w_id, :d_id, :w_id, datetime('now'), :amount, :w_name || '    ' || :d_name);

-- ---------------------------------------------------------- order status

-- name: ostat_customer_ids_by_name
-- TPROC-C order status (TPC-C 2.6): read-only, run by the SQLite driver
-- inside BEGIN DEFERRED ... COMMIT (a WAL snapshot; it never takes the
-- write lock).
-- Customers of one last name in c_first order; the driver takes the row at
-- position ceil(n/2).
SELECT c_id
FROM customer
WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_last = :c_last
ORDER BY c_first;

-- name: ostat_customer
SELECT c_balance, c_first, c_middle, c_last
FROM customer
WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;

-- name: ostat_last_order
SELECT o_id, o_entry_d, o_carrier_id
FROM orders
WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_c_id = :c_id
ORDER BY o_id DESC
LIMIT 1;

-- name: ostat_order_lines
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
FROM order_line
WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id;

-- -------------------------------------------------------------- delivery

-- name: delivery_new_order
-- TPROC-C delivery (TPC-C 2.7), run by the SQLite driver inside
-- BEGIN IMMEDIATE ... COMMIT, once per district 1..10: take the oldest new
-- order (a district without one is skipped), set its carrier, stamp its
-- lines delivered and credit their total to the customer.
DELETE FROM new_order
WHERE no_w_id = :w_id AND no_d_id = :d_id
  AND no_o_id = (SELECT min(no_o_id) FROM new_order WHERE no_w_id = :w_id AND no_d_id = :d_id)
RETURNING no_o_id;

-- name: delivery_order
UPDATE orders
SET o_carrier_id = :carrier_id
WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_id = :o_id
RETURNING o_c_id;

-- name: delivery_order_lines
UPDATE order_line
SET ol_delivery_d = datetime('now')
WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id;

-- name: delivery_customer
UPDATE customer
SET c_balance = ROUND(c_balance + (SELECT coalesce(sum(ol_amount), 0)
                                   FROM order_line
                                   WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id), 2),
    c_delivery_cnt = c_delivery_cnt + 1
WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;

-- ----------------------------------------------------------- stock level

-- name: slev_stock_count
-- TPROC-C stock level (TPC-C 2.8): read-only, run by the SQLite driver
-- inside BEGIN DEFERRED ... COMMIT. Distinct items of the district's last
-- 20 orders whose stock in the warehouse is below the threshold.
SELECT count(DISTINCT s_i_id) AS stock_count
FROM district
JOIN order_line ON ol_w_id = d_w_id AND ol_d_id = d_id
               AND ol_o_id >= d_next_o_id - 20 AND ol_o_id < d_next_o_id
JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id
WHERE d_w_id = :w_id AND d_id = :d_id
  AND s_quantity < :threshold;
