-- TPROC-H refresh functions for MySQL and MariaDB. RF1 (new sales) inserts
-- an order, then its lineitems (InnoDB checks the LINEITEM -> ORDERS key at
-- once); RF2 (old sales) deletes an order's lineitems, then the order.
-- `?` values are bound by the client in TPROCH_COLUMNS order.

-- name: begin
START TRANSACTION;

-- name: commit
COMMIT;

-- name: rollback
ROLLBACK;

-- name: rf1_order
INSERT INTO orders (o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: rf1_lineitem
INSERT INTO lineitem (l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax,
                      l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: rf2_lineitem
DELETE FROM lineitem WHERE l_orderkey = ?;

-- name: rf2_order
DELETE FROM orders WHERE o_orderkey = ?;
