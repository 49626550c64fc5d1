-- TPROC-H refresh functions for DuckDB. RF1 (new sales) inserts an order
-- and its lineitems; RF2 (old sales) deletes an order's lineitems, then the
-- order. Parameters are $n, bound by the driver in TPROCH_COLUMNS order.
-- DuckDB has no foreign keys here (keys.sql), so nothing is deferred.

-- name: rf1_order
INSERT INTO orders (o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- name: rf1_lineitem
INSERT INTO lineitem (l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax,
                      l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16);

-- name: rf2_lineitem
DELETE FROM lineitem WHERE l_orderkey = $1;

-- name: rf2_order
DELETE FROM orders WHERE o_orderkey = $1;
