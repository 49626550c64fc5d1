-- The five transactions as client-side statements (target.noStoredProcs):
-- no routine is created or called. The driver sends each transaction's
-- statements itself between begin and commit, as named prepared statements
-- (target.prepared, the default) or unnamed ones. $n are bind parameters, in
-- the order each statement's comment gives. Same rows read, locked and
-- written, in the same order, as the functions of functions.sql:
--   new order    the items of all lines first (an unused item: ROLLBACK
--                before anything is written), then warehouse, district
--                (UPDATE ... RETURNING), customer, orders, new_order, one
--                stock UPDATE per line in line order, the order lines.
--   payment      by last name, the namesakes first (row ceil(n/2) ordered by
--                c_first, c_id; no lock), then warehouse, district, the
--                customer, history.
--   delivery     per district 1..10: the oldest new order (looked up again
--                when a concurrent delivery deleted it first), its order,
--                its lines, its customer.
--   order status the customer, their latest order, its lines.
--   stock level  the district's next order id, the low-stock count.
-- Decimal inputs are bound as text and cast, so arithmetic stays exact.

-- name: begin
BEGIN

-- name: begin_read_only
BEGIN READ ONLY

-- name: commit
COMMIT

-- name: rollback
ROLLBACK

-- name: customers_by_name
-- $1 c_w_id, $2 c_d_id, $3 c_last. Namesakes ordered by c_first (then c_id,
-- as the functions do); the client takes row ceil(n/2).
SELECT c_id FROM customer
 WHERE c_w_id = $1::integer AND c_d_id = $2::integer AND c_last = $3::varchar
 ORDER BY c_first, c_id

-- ---------------------------------------------------------------- new order
-- name: no_items
-- $1 the lines' item ids. Items that exist, with their price; an id missing
-- from the result is an unused item (the 1% rollback).
SELECT i_id, i_price FROM item WHERE i_id = ANY ($1::integer[])

-- name: no_warehouse
-- $1 w_id
SELECT w_tax FROM warehouse WHERE w_id = $1::integer

-- name: no_district
-- $1 w_id, $2 d_id. Takes the order id and locks the district row.
UPDATE district SET d_next_o_id = d_next_o_id + 1
 WHERE d_w_id = $1::integer AND d_id = $2::integer
RETURNING d_next_o_id - 1 AS o_id, d_tax

-- name: no_customer
-- $1 w_id, $2 d_id, $3 c_id
SELECT c_discount, c_last, c_credit FROM customer
 WHERE c_w_id = $1::integer AND c_d_id = $2::integer AND c_id = $3::integer

-- name: no_order
-- $1 o_id, $2 d_id, $3 w_id, $4 c_id, $5 ol_cnt, $6 all_local (0/1)
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
VALUES ($1::integer, $2::integer, $3::integer, $4::integer, current_timestamp, NULL, $5::integer, $6::integer)

-- name: no_new_order
-- $1 o_id, $2 d_id, $3 w_id
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1::integer, $2::integer, $3::integer)

-- name: no_stock
-- $1 supply_w_id, $2 i_id, $3 quantity, $4 home w_id, $5 d_id. Take the
-- quantity, restock by 91 when fewer than 10 would remain; returns the
-- district's s_dist_xx for the order line.
UPDATE stock
   SET s_quantity   = CASE WHEN s_quantity - $3::integer < 10 THEN s_quantity - $3::integer + 91
                           ELSE s_quantity - $3::integer END,
       s_ytd        = s_ytd + $3::integer,
       s_order_cnt  = s_order_cnt + 1,
       s_remote_cnt = s_remote_cnt + CASE WHEN $1::integer <> $4::integer THEN 1 ELSE 0 END
 WHERE s_w_id = $1::integer AND s_i_id = $2::integer
RETURNING CASE $5::integer
            WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
            WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
            WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
            ELSE s_dist_10 END AS dist

-- name: no_order_lines
-- $1 o_id, $2 d_id, $3 w_id, $4 w_tax, $5 d_tax, $6 c_discount (text), then
-- per line in line order: $7 item ids, $8 supply warehouses, $9 quantities,
-- $10 prices (text), $11 s_dist_xx. ol_amount rounds to numeric(6,2) per line.
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                        ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
SELECT $1::integer, $2::integer, $3::integer, u.n, u.i, u.s, NULL, u.q,
       (u.q * u.p * (1 + $4::numeric + $5::numeric) * (1 - $6::numeric))::numeric(6,2), u.dist
  FROM unnest($7::integer[], $8::integer[], $9::integer[], $10::numeric[], $11::varchar[])
       WITH ORDINALITY AS u(i, s, q, p, dist, n)

-- ------------------------------------------------------------------ payment
-- name: pay_warehouse
-- $1 w_id, $2 amount
UPDATE warehouse SET w_ytd = w_ytd + $2::numeric(6,2) WHERE w_id = $1::integer
RETURNING w_name

-- name: pay_district
-- $1 w_id, $2 d_id, $3 amount
UPDATE district SET d_ytd = d_ytd + $3::numeric(6,2) WHERE d_w_id = $1::integer AND d_id = $2::integer
RETURNING d_name

-- name: pay_customer
-- $1 c_w_id, $2 c_d_id, $3 c_id, $4 d_id, $5 w_id, $6 amount. Bad credit:
-- prepend "c_id c_d_id c_w_id d_id w_id amount | " to c_data, keep 500 characters.
UPDATE customer
   SET c_balance     = c_balance - $6::numeric(6,2),
       c_ytd_payment = c_ytd_payment + $6::numeric(6,2),
       c_payment_cnt = c_payment_cnt + 1,
       c_data        = CASE WHEN c_credit = 'BC'
                            THEN left(format('%s %s %s %s %s %s | ', c_id, c_d_id, c_w_id, $4::integer, $5::integer, $6::numeric(6,2)) || c_data, 500)
                            ELSE c_data END
 WHERE c_w_id = $1::integer AND c_d_id = $2::integer AND c_id = $3::integer
RETURNING c_first, c_last, c_credit, c_balance

-- name: pay_history
-- $1 c_id, $2 c_d_id, $3 c_w_id, $4 d_id, $5 w_id, $6 amount, $7 w_name, $8 d_name
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
VALUES ($1::integer, $2::integer, $3::integer, $4::integer, $5::integer, current_timestamp, $6::numeric(6,2),
        $7::varchar || '    ' || $8::varchar)

-- ------------------------------------------------------------- order status
-- name: os_customer
-- $1 w_id, $2 d_id, $3 c_id
SELECT c_balance, c_first, c_middle, c_last FROM customer
 WHERE c_w_id = $1::integer AND c_d_id = $2::integer AND c_id = $3::integer

-- name: os_order
-- $1 w_id, $2 d_id, $3 c_id
SELECT o_id, o_carrier_id, o_entry_d FROM orders
 WHERE o_w_id = $1::integer AND o_d_id = $2::integer AND o_c_id = $3::integer
 ORDER BY o_id DESC LIMIT 1

-- name: os_lines
-- $1 w_id, $2 d_id, $3 o_id
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
 WHERE ol_w_id = $1::integer AND ol_d_id = $2::integer AND ol_o_id = $3::integer
 ORDER BY ol_number

-- ----------------------------------------------------------------- delivery
-- name: dl_oldest
-- $1 w_id, $2 d_id
SELECT min(no_o_id) AS o_id FROM new_order WHERE no_w_id = $1::integer AND no_d_id = $2::integer

-- name: dl_delete
-- $1 w_id, $2 d_id, $3 o_id. No row: a concurrent delivery took it, look again.
DELETE FROM new_order WHERE no_w_id = $1::integer AND no_d_id = $2::integer AND no_o_id = $3::integer

-- name: dl_order
-- $1 w_id, $2 d_id, $3 o_id, $4 carrier_id
UPDATE orders SET o_carrier_id = $4::integer
 WHERE o_w_id = $1::integer AND o_d_id = $2::integer AND o_id = $3::integer
RETURNING o_c_id

-- name: dl_lines
-- $1 w_id, $2 d_id, $3 o_id. Marks the lines delivered; returns their amount.
WITH delivered AS (
  UPDATE order_line SET ol_delivery_d = current_timestamp
   WHERE ol_w_id = $1::integer AND ol_d_id = $2::integer AND ol_o_id = $3::integer
  RETURNING ol_amount
)
SELECT coalesce(sum(ol_amount), 0) AS amount FROM delivered

-- name: dl_customer
-- $1 w_id, $2 d_id, $3 c_id, $4 amount (text)
UPDATE customer
   SET c_balance = c_balance + $4::numeric, c_delivery_cnt = c_delivery_cnt + 1
 WHERE c_w_id = $1::integer AND c_d_id = $2::integer AND c_id = $3::integer

-- -------------------------------------------------------------- stock level
-- name: sl_next_o_id
-- $1 w_id, $2 d_id
SELECT d_next_o_id FROM district WHERE d_w_id = $1::integer AND d_id = $2::integer

-- name: sl_count
-- $1 w_id, $2 d_id, $3 next_o_id, $4 threshold
SELECT count(DISTINCT s_i_id) AS stock_count
  FROM order_line, stock
 WHERE ol_w_id = $1::integer
   AND ol_d_id = $2::integer
   AND ol_o_id < $3::integer
   AND ol_o_id >= $3::integer - 20
   AND s_w_id = $1::integer
   AND s_i_id = ol_i_id
   AND s_quantity < $4::integer
