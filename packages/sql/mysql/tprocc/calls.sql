-- The five transactions as procedure calls, one per TxType. Sent as text
-- (query) by default, or as server-side prepared statements (execute)
-- when target.prepared. Parameter order is the procedures' (procedures.sql).

-- name: neworder
-- w_id, d_id, c_id, ol_cnt, all_local, items, supply warehouses, quantities
CALL neword(?, ?, ?, ?, ?, ?, ?, ?)

-- name: payment
-- w_id, d_id, c_w_id, c_d_id, c_id, byname, c_last, amount
CALL payment(?, ?, ?, ?, ?, ?, ?, ?)

-- name: delivery
-- w_id, carrier_id
CALL delivery(?, ?)

-- name: stocklevel
-- w_id, d_id, threshold
CALL slev(?, ?, ?)

-- name: orderstatus
-- w_id, d_id, c_id, byname, c_last
CALL ostat(?, ?, ?, ?, ?)
