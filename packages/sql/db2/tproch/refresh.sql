-- The TPROC-H refresh functions on Db2 (hammerdb.md §10.5). '?' are
-- parameter markers in core TPROCH_COLUMNS order. RF1 inserts each order,
-- then its lineitems (Db2 has no deferrable constraints, so the order goes
-- first); RF2 deletes an order's lineitems, then the order. The driver
-- commits every commitEvery orders.

-- name: insert_order
INSERT INTO orders (o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
VALUES (?, ?, ?, ?, DATE(CAST(? AS CHAR(10))), ?, ?, ?, ?);

-- name: insert_lineitem
INSERT INTO lineitem (l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax,
                      l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, DATE(CAST(? AS CHAR(10))), DATE(CAST(? AS CHAR(10))), DATE(CAST(? AS CHAR(10))), ?, ?, ?);

-- name: delete_lineitem
DELETE FROM lineitem WHERE l_orderkey = ?;

-- name: delete_order
DELETE FROM orders WHERE o_orderkey = ?;
