-- TPROC-C delivery (TPC-C 2.7), run by the SQLite driver inside
-- BEGIN IMMEDIATE ... COMMIT, once per district 1..10: take the oldest new
-- order (a district without one is skipped), set its carrier, stamp its
-- lines delivered and credit their total to the customer.

-- name: dl_new_order
DELETE FROM new_order
WHERE no_w_id = :w_id AND no_d_id = :d_id
  AND no_o_id = (SELECT min(no_o_id) FROM new_order WHERE no_w_id = :w_id AND no_d_id = :d_id)
RETURNING no_o_id;

-- name: dl_order
UPDATE orders
SET o_carrier_id = :carrier_id
WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_id = :o_id
RETURNING o_c_id;

-- name: dl_order_lines
UPDATE order_line
SET ol_delivery_d = datetime('now')
WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id;

-- name: dl_customer
UPDATE customer
SET c_balance = ROUND(c_balance + (SELECT coalesce(sum(ol_amount), 0)
                                   FROM order_line
                                   WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :o_id), 2),
    c_delivery_cnt = c_delivery_cnt + 1
WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
